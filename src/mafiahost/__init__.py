"""mafiahost: the host (ведущий) of forum-style Mafia games."""

from . import _build

__version__ = "0.1.0"

# the compiled engine only where it was built from the current source (else its .py);
# before anything imports the engine (mafiahost._build)
BUILD = _build.guard()
