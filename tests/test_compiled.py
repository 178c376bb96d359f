"""The compiled engine (mypyc, setup.py): never stale, the pure fall-back, the same games.

The stale guard is checked on a copy of the installed package: a compiled module's source
edited after the build makes the package import every compiled module from its ``.py``.
CI sets ``MAFIAHOST_TEST_COMPILED_REQUIRED=1``: there the install must have compiled the
engine, so these tests run instead of skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mafiahost
from mafiahost import _build

ROOT = Path(__file__).resolve().parents[1]
PKG = Path(mafiahost.__file__).resolve().parent
REQUIRED = os.environ.get("MAFIAHOST_TEST_COMPILED_REQUIRED") == "1"

needs_compiled = pytest.mark.skipif(
    mafiahost.BUILD != "compiled" and not REQUIRED,
    reason=f"the engine is not compiled here ({mafiahost.BUILD})")

PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import mafiahost
import mafiahost.engine.day as day
import mafiahost.engine.game as game
import mafiahost.sim as sim
from mafiahost.sim import new_random_game, play_game
g = play_game(new_random_game("gemini", 12, 7), 7)
print(mafiahost.BUILD)
print(mafiahost.__file__)
print(game.__file__)
print(day.__file__)
print(sim.__file__)
print(len(g.events), g.state.idx)
"""


def probe(root: Path, **env) -> list[str]:
    e = {k: v for k, v in os.environ.items() if k != _build.PURE_ENV}
    e.update(env)
    out = subprocess.run([sys.executable, "-c", PROBE, str(root)], capture_output=True,
                         text=True, env=e, cwd=root, check=True).stdout.splitlines()
    assert out[1].startswith(str(root)), out       # the copy was imported, not the install
    return out


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the installed package (with its compiled files and their record)."""
    shutil.copytree(PKG, tmp_path / "mafiahost", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_build_is_known():
    assert mafiahost.BUILD == _build.BUILD
    assert mafiahost.BUILD == "compiled" or mafiahost.BUILD.startswith("pure")
    if REQUIRED:
        assert mafiahost.BUILD == "compiled"
        import mafiahost.engine.game as game
        assert not game.__file__.endswith(".py")


@needs_compiled
def test_a_fresh_build_runs_compiled(copy):
    build, _, game, day, sim, played = probe(copy)[:6]
    assert build == "compiled"
    assert not game.endswith(".py") and not day.endswith(".py") and not sim.endswith(".py")
    assert played == probe(copy, MAFIAHOST_PURE="1")[5]


@needs_compiled
def test_an_edited_source_is_imported_from_its_py_and_so_is_every_compiled_module(copy):
    day_py = copy / "mafiahost" / "engine" / "day.py"
    day_py.write_text(day_py.read_text(encoding="utf-8") + "\n# edited after the build\n",
                      encoding="utf-8")
    build, _, game, day, sim, _ = probe(copy)[:6]
    assert build == "pure (stale: engine.day)"
    # all or none: the compiled game calls the compiled day directly, not through imports
    assert game.endswith("game.py") and day.endswith("day.py") and sim.endswith("sim.py")


@needs_compiled
def test_compiled_files_without_their_record_are_not_used(copy):
    (copy / "mafiahost" / _build.RECORD).unlink()
    build, _, game, *_ = probe(copy)
    assert build.startswith("pure (stale: ") and game.endswith("game.py")


@needs_compiled
def test_a_record_of_another_python_is_not_used(copy):
    rec = copy / "mafiahost" / _build.RECORD
    data = json.loads(rec.read_text())
    data["python"] = "cpython-00"
    rec.write_text(json.dumps(data))
    build, _, game, *_ = probe(copy)
    assert build.startswith("pure (stale: ") and game.endswith("game.py")


@needs_compiled
def test_mafiahost_pure_forces_the_source(copy):
    build, _, game, day, sim, _ = probe(copy, MAFIAHOST_PURE="1")[:6]
    assert build == "pure (MAFIAHOST_PURE=1)"
    assert game.endswith("game.py") and day.endswith("day.py") and sim.endswith("sim.py")


def test_a_tree_with_nothing_compiled_is_pure(tmp_path):
    shutil.copytree(PKG, tmp_path / "mafiahost",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd",
                                                  _build.RECORD))
    build, _, game, *_ = probe(tmp_path)
    assert build == "pure" and game.endswith("game.py")


@needs_compiled
def test_compiled_and_pure_play_the_same_games():
    """Every rule set's seeded random games: the same event logs, event for event; and
    through the environment (its core is compiled too), the same observations, masks,
    rewards and infos turn by turn."""
    run = [sys.executable, str(ROOT / "bench" / "streams.py"), "--seeds", "8", "--env"]
    env = {k: v for k, v in os.environ.items() if k != _build.PURE_ENV}
    compiled = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    pure = subprocess.run(run, capture_output=True, text=True, check=True,
                          env={**env, _build.PURE_ENV: "1"})
    assert "build: compiled" in compiled.stderr
    assert "build: pure (MAFIAHOST_PURE=1)" in pure.stderr
    assert len(compiled.stdout.splitlines()) >= 12
    assert all(len(line.split("\t")) == 4 for line in compiled.stdout.splitlines())
    assert compiled.stdout == pure.stdout


@pytest.mark.skipif(shutil.which("gcc") is None and shutil.which("cc") is None,
                    reason="no C compiler: the fall-back is what every install gets here")
def test_a_failed_c_build_installs_pure_with_one_warning(tmp_path):
    """``setup.py build_ext`` with a C compiler that always fails: exit 0, one warning
    line, no compiled file."""
    pytest.importorskip("mypyc.build")
    shutil.copy(ROOT / "setup.py", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copy(ROOT / "README.md", tmp_path)
    shutil.copytree(ROOT / "src", tmp_path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd",
                                                  _build.RECORD, "*.egg-info"))
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    env.pop(_build.PURE_ENV, None)
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    warnings = [ln for ln in r.stderr.splitlines() if "WARNING: mafiahost" in ln]
    assert len(warnings) == 1 and "the C build failed" in warnings[0], r.stderr[-2000:]
    assert not list((tmp_path / "src").rglob("*.so"))
    assert not (tmp_path / "src" / "mafiahost" / _build.RECORD).exists()
