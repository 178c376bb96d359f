"""The host's service layer: every host command, for the command line and a web app alike.

``Host(db)`` opens a game store (``mafiahost.store``). Each method that changes a game is
one transaction (``HostBase._command``): lock the game, rebuild it from its events
(``Game.replay``), run the engine, write the command with the events it produced, commit.
A refusal (``Refused``, with the rule's own sentence) or a crash before the commit leaves
the game as it was. Every command stores the engine calls it made (``ops``) next to its
events, so ``verify`` can run the whole game again from the seed and compare.

The seed comes from ``os.urandom`` here, never in the engine. The first public post
carries ``commitment(seed, salt)``; the final post reveals seed and salt.

Methods return plain data and post text; they print nothing. One module per command
family, each a mixin of ``Host``:

- ``core`` — errors, the game cache, the command transaction, shared helpers;
- ``setup`` — new game, list, show, deadline, absence, excuses, replacements, removals;
- ``moves`` — night (and day) moves;
- ``questions`` — answers to questions the rules put to a player;
- ``grants`` — coins the host awards by his judgement (descriptions);
- ``votes`` — votes by hand, imported from a thread, counted;
- ``phases`` — resolve, posts, private messages, cards, preview, undo, the log;
- ``links`` — the web app's keys and the players' links;
- ``exchange`` — export, import, verify;
- ``bots`` — seats played by bots (``agents.bots``), their moves sent when a phase opens.
"""

from __future__ import annotations

from .bots import BotCommands, parse_bots
from .core import (
    ABSTAIN,
    AGAINST_ALL,
    FORMAT,
    FORMAT_VERSION,
    PAUSE_ENV,
    SEED_LIMIT,
    AccessDenied,
    Done,
    GameCache,
    HostBase,
    HostError,
    NoGame,
    apply_op,
    can_use,
    commitment,
    event_list,
    format_event,
    is_late,
    new_seed,
    new_token,
    not_acted,
    not_voted,
    parse_time,
    post_key,
)
from .exchange import ExchangeCommands, VerifyReport, verify
from .grants import GrantCommands
from .links import LinkCommands
from .moves import MoveCommands
from .phases import PhaseCommands
from .questions import QuestionCommands, not_answered
from .setup import SetupCommands, parse_roles
from .votes import VoteCommands


class Host(SetupCommands, MoveCommands, QuestionCommands, GrantCommands, VoteCommands,
           PhaseCommands, LinkCommands, ExchangeCommands, BotCommands, HostBase):
    """Every host command (see the family modules)."""


__all__ = ["ABSTAIN", "AGAINST_ALL", "FORMAT", "FORMAT_VERSION", "PAUSE_ENV", "SEED_LIMIT",
           "AccessDenied", "Done", "GameCache", "Host", "HostError", "NoGame", "VerifyReport",
           "apply_op", "can_use", "commitment", "event_list", "format_event", "is_late",
           "new_seed", "new_token", "not_acted", "not_answered", "not_voted", "parse_bots",
           "parse_roles",
           "parse_time",
           "post_key", "verify"]
