"""Errors a user can meet. Every refusal is a sentence: what was wrong and what is allowed."""


class Refused(Exception):
    """A command the rules do not allow. The game is unchanged when this is raised.

    ``ru`` is the Russian sentence shown to players and hosts, ``en`` its English twin.
    """

    def __init__(self, ru: str, en: str = ""):
        super().__init__(f"{ru} / {en}" if en else ru)
        self.ru = ru
        self.en = en


class RulesetError(Exception):
    """A ruleset file that cannot be loaded: names the file, the entry and the field."""


class BadForcedRoll(Refused):
    """A forced dice result (a scenario's ``rolls:``) that is not one of the roll's
    outcomes: the script is wrong, not the move."""


def times_ru(n: int) -> str:
    """«1 раз», «2 раза», «5 раз»: a count of times in Russian."""
    n = int(n)
    last2, last = n % 100, n % 10
    word = "раза" if last in (2, 3, 4) and last2 not in (12, 13, 14) else "раз"
    return f"{n} {word}"
