"""Build: the engine's hot modules compiled by mypyc, with the pure Python install as the
fall-back (docs/performance.md, "The compiled engine").

Everything else about the package is in pyproject.toml. The list of compiled modules and
the record of what they were built from are in ``src/mafiahost/_build.py``: after a build
``src/mafiahost/_compiled.json`` (or its copy in the wheel) holds the SHA-256 of each
compiled module's source, and the package imports the ``.py`` source instead of any
compiled module whose source has changed since (an editable install builds in place,
beside the sources people edit).

No C compiler, mypyc missing or a failed build: one warning line, and the install goes on
pure. ``MAFIAHOST_PURE=1`` while installing skips the compile.
"""

from __future__ import annotations

import json
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(ROOT, "src")


def _load_build_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "_mafiahost_build", os.path.join(SRC, "mafiahost", "_build.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


B = _load_build_module()


def warn(why: str) -> None:
    print(f"WARNING: mafiahost: the engine is not compiled ({why}); installing the pure "
          "Python engine (the same rules, slower)", file=sys.stderr)


def compiled_extensions():
    """mypyc's extensions and the hashes of the sources they are built from, or
    ([], {}) when the engine is not to be compiled or cannot be."""
    if os.environ.get(B.PURE_ENV, "") not in ("", "0"):
        return [], {}
    paths = [os.path.relpath(B.source_path(m, SRC), ROOT) for m in B.COMPILED]
    # the hash of each text before mypyc reads it: a file edited during the build has a
    # hash that matches neither text, so the guard routes it to its source
    hashes = {m: B.source_hash(B.source_path(m, SRC)) for m in B.COMPILED}
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        warn(f"mypyc is not available: {e}")
        return [], {}
    os.environ.setdefault("MYPYPATH", SRC)
    try:
        exts = mypycify(
            ["--explicit-package-bases", "--follow-imports=silent",
             "--disable-error-code=annotation-unchecked", *paths],
            opt_level="3", debug_level="0", group_name=B.GROUP,
            target_dir=os.path.join("build", "mypyc"))
    except (Exception, SystemExit) as e:  # mypyc exits on a type error
        warn(f"mypyc failed: {e}")
        return [], {}
    return exts, hashes


class BuildExt(build_ext):
    """build_ext that falls back to the pure install when the C build fails, and writes
    the record of what was compiled beside the built package."""

    def run(self):
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:   # no compiler, missing headers, a compile error
            warn(f"the C build failed: {type(e).__name__}: {e}")
            self._drop_built()
            return
        self._write_record()

    def _package_root(self) -> str:
        """Where the built ``mafiahost`` package lies: the source tree (in place) or
        build_lib."""
        if self.inplace:
            return SRC
        return self.build_lib

    def _drop_built(self) -> None:
        for ext in self.extensions:
            path = self.get_ext_fullpath(ext.name)
            if os.path.exists(path):
                os.remove(path)
        self.extensions = []

    def _write_record(self) -> None:
        root = self._package_root()
        path = os.path.join(root, "mafiahost", B.RECORD)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"python": sys.implementation.cache_tag, "modules": HASHES}, f,
                      indent=1, sort_keys=True)
            f.write("\n")

    def get_outputs(self):
        out = super().get_outputs()
        if self.extensions:
            out.append(os.path.join(self._package_root(), "mafiahost", B.RECORD))
        return out


# only the commands that build run mypyc (pip also runs this file for the metadata alone)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install",
          "bdist_egg"}
EXTENSIONS, HASHES = compiled_extensions() if BUILDS & set(sys.argv[1:]) else ([], {})

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildExt})
