"""The peers the engine benchmark runs beside ours, each in its own virtualenv.

``PEERS`` pins each peer's PyPI release and names its driver (a script in this folder that
plays whole random games and prints one JSON line). ``ensure(name)`` creates the peer's
virtualenv under ``bench/.venvs/`` and installs the pinned release with pip the first time;
``run(...)`` plays a batch of games in a fresh process and returns games per second of
CPU time (the driver times the games alone, after its imports; ``seconds`` says why CPU
time and not wall time); ``instructions(...)`` counts the
instructions one game costs under valgrind's callgrind: the count of a run of N games minus
that of the same driver with 0 games (interpreter start, imports, loading), divided by N.

Our own engine is driven the same way by ``drive_mafiahost.py`` with the project's
interpreter, so both sides pay the same process and measurement costs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENVS = HERE.parent / ".venvs"

PEERS = {
    "calder/mafia": {"package": "mafia==1.0.0", "venv": "mafia-1.0.0",
                     "driver": "drive_calder_mafia.py"},
    "werewolf-engine": {"package": "werewolf-engine==0.1.0", "venv": "werewolf-engine-0.1.0",
                        "driver": "drive_werewolf_engine.py"},
}


def ensure(name: str) -> str:
    """The peer's interpreter, installing its pinned release into its own venv if needed."""
    peer = PEERS[name]
    venv = VENVS / peer["venv"]
    py = venv / "bin" / "python"
    if not (venv / ".installed").exists():
        if venv.exists():
            shutil.rmtree(venv)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", peer["package"]], check=True)
        (venv / ".installed").write_text(peer["package"] + "\n")
    return str(py)


def command(name: str, games: int, args: list[str] = ()) -> list[str]:
    """The command line playing ``games`` games: a peer by name, or ``mafiahost``."""
    if name == "mafiahost":
        return [sys.executable, str(HERE / "drive_mafiahost.py"), str(games), *args]
    return [ensure(name), str(HERE / PEERS[name]["driver"]), str(games), *args]


def _env(pure: bool = False) -> dict:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"          # the same dict/set orders in every run
    # ours: the build a user's install runs (compiled where it could be), or with
    # ``pure`` the pure Python engine (mafiahost._build)
    env.pop("MAFIAHOST_PURE", None)
    if pure:
        env["MAFIAHOST_PURE"] = "1"
    return env


def play(name: str, games: int, args: list[str] = (), pure: bool = False) -> dict:
    """One batch in a fresh process: the driver's JSON line (games, seconds, phases; ours
    also says which build ran)."""
    out = subprocess.run(command(name, games, args), check=True, capture_output=True,
                         text=True, env=_env(pure)).stdout
    return json.loads(out.strip().splitlines()[-1])


def run(name: str, games: int, args: list[str] = (), pure: bool = False) -> float:
    """Games per second of CPU time of one batch in a fresh process."""
    r = play(name, games, args, pure)
    return r["games"] / seconds(r)


def seconds(r: dict) -> float:
    """The time a batch took: the driver's CPU time over its games (``cpu_seconds``),
    not its wall time. On a machine shared with other work a process waits for a core
    for a share of the wall time that changes from one batch to the next, and a batch of
    ours and the peer's batch beside it are not equally unlucky; the CPU time counts
    only the process's own work, the same way for both sides."""
    return r.get("cpu_seconds", r["seconds"])


def have_valgrind() -> bool:
    return shutil.which("valgrind") is not None


def callgrind(cmd: list[str], pure: bool = False) -> int:
    """The instructions callgrind counts for the command ``cmd`` (a fresh process)."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run(["valgrind", "--tool=callgrind",
                            f"--callgrind-out-file={d}/out", *cmd],
                           capture_output=True, text=True, env=_env(pure))
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        m = re.search(r"Collected : (\d+)", p.stderr)
        if m is None:
            raise RuntimeError("callgrind printed no count:\n" + p.stderr[-2000:])
        return int(m.group(1))


def instructions(name: str, games: int, args: list[str] = (), pure: bool = False) -> float:
    """Instructions per game: callgrind(N games) - callgrind(0 games), over N."""
    base = callgrind(command(name, 0, args), pure)
    full = callgrind(command(name, games, args), pure)
    return (full - base) / games
