"""«Сингапурская мафия» (seed 000): what the ruleset file cannot say.

Economy: a player's purse is the status ``coins`` (engine/mechanics/items.py); a clan's
purse is its treasury (общак), the game counter ``treasury:<clan>``: every clan member
spends from it and earns into it. The shop's stock is the counter ``stock:<item>``; the
clan's poison the counters ``poison:<clan>`` (the starting one, either kind) and
``poison:<clan>:<viper|scorpion>`` (bought). Orders (заказы) to the thug, the drunk, the
doctor and the tour operator are day moves kept in the counter ``orders``.

Night: three parts (evening, night, early morning) are the ruleset's ordered steps. Kills
are attacks settled at dawn; the dawn hook ``singapore_dawn`` applies what the library
cannot: immunities (priest and vampires to guns, vests), stakes, bandages, and pays the
night's income from who is going to die.

Jail: the day's vote holds the condemned (``lynch_holds: jailed``); the lawyer frees him
(his move, or automatically: himself and the priest when the night opens, a cop at dawn),
the cops interrogate him, his clan may shoot him; the dawn hook ``singapore_jail_dawn``
removes a prisoner still held. Blood writing: a day move of one killed last night; the tie
policy ``singapore_blood`` jails the tied player whose name is written.
"""

from . import (  # noqa: F401
    cards,
    clans,
    common,
    cops,
    curses,
    day,
    economy,
    ghost,
    neutrals,
    night,
    professions,
    reseller,
    rewards,
    town,
    victory,
)
