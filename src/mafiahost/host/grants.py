"""Coins the host awards by his own judgement (``mafiahost grant ID PLAYER COINS KIND``): a
literary description, an artistic article. The rule set says who may receive how many
(its ``host_grant`` hooks: singapore's ``rules/abilities/singapore/rewards.py``)."""

from __future__ import annotations

from .core import Done, HostBase, _Ctx, _say


class GrantCommands(HostBase):
    """Rewards."""

    def grant(self, game_id: int, player: str, coins, kind: str, lang: str | None = None,
              guard=None) -> Done:
        """Award ``coins`` to ``player`` for ``kind``; the rules' own sentence on refusal."""
        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            seat = self.seat(g, player)
            c.op("grant", seat, str(coins), str(kind))
            return Done(game_id, _say(la, f"Начислено: {g.display(seat)} — {coins} мон.",
                                      f"Awarded: {g.display(seat)} — {coins} coin(s)."))
        return self._command(game_id, "grant", {"player": player, "coins": str(coins),
                                                "kind": str(kind)}, fn, guard)
