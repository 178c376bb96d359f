"""A rule set's own notes for one night or one day's count: a typed structure.

What the library's marks on ``Night`` cannot say (a rule set's "who drank with whom",
"which mail is due"), a rule set keeps in a dataclass of its own, every field with a
default, and asks the night (or the day's count) for it by type::

    @dataclass
    class SingaporeNight:
        poisons: list[tuple[Player, Player]] = field(default_factory=list)

    n.notes(SingaporeNight).poisons.append((actor, target))

The first call in a night makes the instance; later calls that night return the same one;
the next night starts empty. Nothing in it outlives the phase: what must last goes into
statuses and counters through events, as always. Fields are named and typed, so a reader
(and mypy) sees what a rule set notes, instead of string keys in one shared dict.
"""

from __future__ import annotations

from typing import TypeVar, cast

T = TypeVar("T")


class NoteBook:
    """One instance per kind of notes, made on first use."""

    __slots__ = ("_by_kind",)

    def __init__(self) -> None:
        self._by_kind: dict[type, object] = {}

    def get(self, kind: type[T]) -> T:
        got = self._by_kind.get(kind)
        if got is None:
            got = self._by_kind[kind] = kind()
        return cast(T, got)
