"""Bots in a hosted game: seats the host gives to a program (``game new … --bots``).

The bots are named when the game is made (``--bots "Глеб=sensible,Дина=random"``) and kept
in the game's first command. When a phase opens (after ``game new`` and after each
``resolve``) every living bot chooses its moves and vote (``mafiahost.agents.bots``,
knowing only what its seat was told) and each is sent as that player's own ``act`` /
``vote`` command: checked, logged and undoable like a player's, and marked with the
command that opened the phase (``bot_after``): ``undo`` reverts that command and the bots'
moves it brought as one step (``undo_chain``). A bot's choice the rules refuse by the time
it is sent (a teammate's shared shot came first) is skipped.
"""

from __future__ import annotations

import json
import random

from ..engine.errors import Refused
from .core import Done, HostError, _say

#: the bots by their Russian names (the host may type either)
BOT_WORDS = {"разумный": "sensible", "случайный": "random"}


def parse_bots(text: str | None, players: list[str]) -> dict[str, str]:
    """``"Глеб=sensible,Дина=random"`` -> {seat: bot}; a bad entry is a HostError."""
    from ..agents.bots import BOTS
    if not text:
        return {}
    out: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, bot = part.partition("=")
        name, bot = name.strip(), bot.strip() or "sensible"
        seat = next((p for p in players if p.casefold() == name.casefold()), None)
        if seat is None:
            raise HostError(f"«{name}» нет среди игроков; боту нужно место за столом: "
                            f"{', '.join(players)}.",
                            f"'{name}' is not one of the players; a bot needs a seat: "
                            f"{', '.join(players)}.")
        bot = BOT_WORDS.get(bot.casefold().replace("ё", "е"), bot)
        if bot not in BOTS:
            ru = {v: k for k, v in BOT_WORDS.items()}
            raise HostError(f"Бота «{bot}» нет; есть: "
                            f"{', '.join(ru.get(b, b) for b in BOTS)}.",
                            f"There is no bot '{bot}'; there are: {', '.join(BOTS)}.")
        out[seat] = bot
    return out


class BotCommands:
    def seat_bots(self, game_id: int) -> dict[str, str]:
        """{seat: bot name} of the game (from its first command)."""
        from sqlalchemy import select

        from ..store import CommandRow
        with self.store.session() as s:
            self._row(s, game_id)
            args = s.scalars(select(CommandRow.args).where(
                CommandRow.game_id == game_id, CommandRow.kind == "new")
                .order_by(CommandRow.seq).limit(1)).first()
        return dict(json.loads(args).get("bots") or {}) if args else {}

    def bots_move(self, game_id: int, lang: str | None = None) -> list[str]:
        """Every living bot sends its moves and vote for the phase now open, one command
        each; returns what each command answered."""
        from ..agents.bots import get_bot
        bots = self.seat_bots(game_id)
        said: list[str] = []
        if not bots:
            return said
        row, g = self.load(game_id)
        with self.store.session() as s:            # the command that opened the phase
            from ..store import Store
            last = Store.last_command(s, game_id)
            after = last.seq if last is not None else None
        for seat in [p.name for p in g.state.order]:
            if seat not in bots:
                continue
            row, g = self.load(game_id)
            if g.state.over:
                break
            # the bot's own dice: the game's secret seed, the seat, the phase
            rng = random.Random(f"{row.seed}:{seat}:{g.state.idx}")
            for item in get_bot(bots[seat]).plan(g, seat, rng):
                try:
                    if item[0] == "vote":
                        d = self.vote(game_id, seat, item[1], lang=lang, hints=False,
                                      source="bot", bot_after=after)
                    elif item[1] == "answer" and g.rules.abilities.get(
                            f"{g.state.players[seat].role}.answer") is None:
                        # an answer to a question put to the seat (its id, its option)
                        d = self.answer(game_id, seat, item[2][0], item[2][1], lang,
                                        bot_after=after)
                    else:
                        d = self.act(game_id, seat, item[1], list(item[2]), False, lang,
                                     hints=False, bot_after=after)
                except Refused:
                    continue
                said.append(d.message)
        return said

    def _with_bots(self, done: Done, lang: str | None) -> Done:
        said = self.bots_move(done.game_id, lang)
        if said:
            la = lang or self.load(done.game_id)[0].lang      # the game's, as each move's
            done.message += "\n" + _say(la, "Боты: ", "Bots: ") + " ".join(said)
            done.data["bots"] = said
        return done


def bots_arg(bots: dict[str, str] | None) -> dict:
    """The ``new`` command's record of the bots (nothing when there are none)."""
    return {"bots": dict(bots)} if bots else {}


__all__ = ["BotCommands", "bots_arg", "parse_bots"]
