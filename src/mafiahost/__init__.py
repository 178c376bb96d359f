"""mafiahost: the host (ведущий) of forum-style Mafia games."""

__version__ = "0.1.0"
