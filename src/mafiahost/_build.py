"""Which build of the engine runs: the mypyc-compiled modules, or their pure Python source.

``setup.py`` compiles the modules in ``COMPILED`` with mypyc (when it can) and writes
``_compiled.json`` beside this file: each compiled module's SHA-256 of the exact source text
it was built from. ``mafiahost/__init__.py`` calls ``guard()`` before anything imports the
engine. The compiled modules are used only when every module that has an extension file
beside its ``.py`` is in that record with the hash of its current ``.py`` text; otherwise
(a module edited since the build, an extension file without a record, ``MAFIAHOST_PURE=1``)
every one of them is imported from its ``.py`` source through an import hook. It is all or
none because compiled modules call one another directly, not through the import system: a
compiled module must never meet a stale compiled neighbour, nor a stale one a fresh one.

``BUILD`` says which build runs: ``"compiled"``, ``"pure"`` (nothing was compiled),
``"pure (MAFIAHOST_PURE=1)"`` or ``"pure (stale: <module>, ...)"``.

This module is never compiled, and imports nothing of the package.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _package_modules(package: str, root: str) -> list[str]:
    """Every module of ``package`` (dotted) under ``root``, in its subpackages too, but
    the packages' own ``__init__``: dotted names, sorted."""
    base = os.path.join(root, *package.split("."))
    out = []
    for d, subdirs, files in os.walk(base):
        subdirs[:] = sorted(x for x in subdirs if x != "__pycache__")
        rel = os.path.relpath(d, root).replace(os.sep, ".")
        out += [f"{rel}.{f[:-3]}" for f in files if f.endswith(".py") and f != "__init__.py"]
    return sorted(out)


# the modules setup.py compiles (dotted names). errors.py stays pure: other modules
# subclass its exceptions, and it is not on any hot path. The rule sets' own modules
# (``rules/abilities/**``) are all compiled, found by listing their package; of the
# agents, the environment's per-step work (``agents/core.py``: ``agents/env.py`` is a pure
# subclass of PettingZoo's class) and the action encoding it uses
COMPILED = (
    "mafiahost.engine.day",
    "mafiahost.engine.dice",
    "mafiahost.engine.events",
    "mafiahost.engine.game",
    "mafiahost.engine.model",
    "mafiahost.engine.night",
    "mafiahost.engine.notes",
    "mafiahost.engine.state",
    "mafiahost.engine.victory",
    "mafiahost.engine.mechanics",
    "mafiahost.engine.mechanics.block",
    "mafiahost.engine.mechanics.check",
    "mafiahost.engine.mechanics.copy",
    "mafiahost.engine.mechanics.day",
    "mafiahost.engine.mechanics.forced",
    "mafiahost.engine.mechanics.items",
    "mafiahost.engine.mechanics.jail",
    "mafiahost.engine.mechanics.kill",
    "mafiahost.engine.mechanics.protect",
    "mafiahost.engine.mechanics.questions",
    "mafiahost.engine.mechanics.recruit",
    "mafiahost.engine.mechanics.redirect",
    "mafiahost.engine.mechanics.revenge",
    "mafiahost.engine.mechanics.targets",
    "mafiahost.engine.mechanics.watch",
    "mafiahost.sim",
    "mafiahost.agents.codec",
    "mafiahost.agents.core",
    *_package_modules("mafiahost.rules.abilities", os.path.dirname(HERE)),
)
# mypyc's one shared library holding every compiled module (each module's own extension
# file is a small shim that loads it)
GROUP = "mafiahost._engine"
RECORD = "_compiled.json"
PURE_ENV = "MAFIAHOST_PURE"

BUILD = "pure"
ROUTED: dict[str, str] = {}   # module -> its .py, imported from source by the hook


def _location(module: str, root: str) -> tuple[str, str]:
    """(directory, file stem) of a dotted module name under ``root`` (the directory
    holding the ``mafiahost`` package): a package is its ``__init__``."""
    parts = module.split(".")
    base = os.path.join(root, *parts)
    if os.path.isfile(os.path.join(base, "__init__.py")):
        return base, "__init__"
    return os.path.join(root, *parts[:-1]), parts[-1]


def source_path(module: str, root: str) -> str:
    """The ``.py`` of a dotted module name under ``root``."""
    d, stem = _location(module, root)
    return os.path.join(d, stem + ".py")


def source_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _extension_files(root: str) -> set[str]:
    """The modules of ``COMPILED`` that have an extension file beside their source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = set()
    listings: dict[str, list[str]] = {}
    for m in COMPILED:
        d, stem = _location(m, root)
        if d not in listings:
            try:
                listings[d] = os.listdir(d)
            except OSError:
                listings[d] = []
        if any(stem + s in listings[d] for s in suffixes):
            found.add(m)
    return found


def check(root: str, environ=os.environ) -> tuple[str, dict[str, str]]:
    """(the build that may run, the modules to import from source) for the package
    under ``root``."""
    present = _extension_files(root)
    try:
        with open(os.path.join(root, "mafiahost", RECORD), encoding="utf-8") as f:
            record = json.load(f)
        hashes: dict[str, str] = dict(record.get("modules", {}))
        if record.get("python") != sys.implementation.cache_tag:
            hashes = {}
    except (OSError, ValueError, AttributeError):
        hashes = {}
    if not present:
        return "pure", {}
    routed = {m: source_path(m, root) for m in sorted(present | set(hashes))}
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return f"pure ({PURE_ENV}=1)", routed
    stale = []
    for m in sorted(present | set(hashes)):
        src = routed[m]
        try:
            ok = m in present and hashes.get(m) == source_hash(src)
        except OSError:
            ok = False
        if not ok:
            stale.append(m.removeprefix("mafiahost."))
    if stale:
        return f"pure (stale: {', '.join(stale)})", routed
    return "compiled", {}


class _SourceFirst:
    """A meta path finder: the routed modules come from their ``.py`` source."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        src = ROUTED.get(fullname)
        if src is None:
            return None
        loader = importlib.machinery.SourceFileLoader(fullname, src)
        if src.endswith("__init__.py"):
            return importlib.util.spec_from_file_location(
                fullname, src, loader=loader,
                submodule_search_locations=[os.path.dirname(src)])
        return importlib.util.spec_from_file_location(fullname, src, loader=loader)


def guard() -> str:
    """Decide the build once, before any engine module is imported; install the hook
    when the source must be used."""
    global BUILD
    if any(f is _SourceFirst for f in sys.meta_path):
        return BUILD
    BUILD, routed = check(os.path.dirname(HERE))
    if routed:
        ROUTED.update(routed)
        sys.meta_path.insert(0, _SourceFirst)  # type: ignore[arg-type]
    return BUILD
