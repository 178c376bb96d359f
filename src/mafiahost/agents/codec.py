"""The fixed action encoding of a rule set for a table of N seats (``docs/agents.md``).

One ``Discrete`` space holds every kind of thing a seat can send:

    0                         pass: nothing more from me this phase
    1 .. N                    vote against seat i-1 (seating order)
    N+1, N+2                  vote against all, abstain
    then one block per (ability id, target kinds) of the rule set, in sorted order:
                              a block holds every tuple of targets, mixed radix, the first
                              target the most significant digit

A target position has a kind: ``seat`` (N values, seating order) — every ability today —
``role`` (the rule set's role ids, sorted) for a move that names a role, and ``answer`` for
an answer to a question put to a player (its values the ability's ``answers`` list). An
ability declares non-seat positions with a ``target_kinds`` tuple (and ``answers``); the
codec reads them when present, so such moves need no new encoding.
"""

from __future__ import annotations

PASS = 0


def target_kinds(ab) -> tuple[str, ...]:
    kinds = getattr(ab, "target_kinds", None)
    if kinds:
        return tuple(kinds)
    return ("seat",) * ab.targets


class Codec:
    def __init__(self, rules, seats: list[str]):
        self.seats = list(seats)
        n = len(self.seats)
        self.n = n
        self.seat_index = {s: i for i, s in enumerate(self.seats)}
        self.roles = sorted(rules.roles)
        domains = {"seat": self.seats, "role": self.roles}
        self.vote_base = 1
        self.vote_targets = self.seats + ["against_all", "abstain"]
        self.vote_index = {t: 1 + i for i, t in enumerate(self.vote_targets)}
        blocks: dict[tuple, list[list[str]]] = {}
        for ab in rules.abilities.values():
            kinds = target_kinds(ab)
            doms = []
            for k in kinds:
                if k == "answer":
                    doms.append([str(a) for a in getattr(ab, "answers", ())])
                else:
                    doms.append(domains[k])
            key = (ab.id, kinds)
            old = blocks.get(key)
            if old is None:
                blocks[key] = doms
            else:        # the same ability id in two roles: the union of their answers
                for i, d in enumerate(doms):
                    for v in d:
                        if v not in old[i]:
                            old[i].append(v)
        self.blocks = []          # (ability id, kinds, domains, offset, size)
        self.block_of: dict[tuple, int] = {}
        offset = 1 + n + 2
        for key in sorted(blocks, key=lambda k: (k[0], len(k[1]), k[1])):
            doms = blocks[key]
            size = 1
            for d in doms:
                size *= len(d)
            self.block_of[(key[0], len(doms))] = len(self.blocks)
            self.blocks.append((key[0], key[1], doms, offset, size))
            offset += size
        self.index_in = [{v: i for i, v in enumerate(d)} for _, _, ds, _, _ in self.blocks
                         for d in ds]
        self._pos_index = []
        k = 0
        for b in self.blocks:
            self._pos_index.append(self.index_in[k:k + len(b[2])])
            k += len(b[2])
        self.size = offset

    def vote(self, target: str) -> int:
        return self.vote_index[target]

    def move(self, ability: str, targets) -> int:
        bi = self.block_of[(ability, len(targets))]
        _, _, doms, offset, _ = self.blocks[bi]
        idx = self._pos_index[bi]
        code = 0
        for i, t in enumerate(targets):
            code = code * len(doms[i]) + idx[i][t]
        return offset + code

    def moves(self, moves) -> list[int]:
        """``move`` for a list of (ability, targets), faster: seat targets are looked up
        in one table per ability."""
        out = []
        cache: dict = {}
        for aid, ts in moves:
            k = len(ts)
            hit = cache.get((aid, k))
            if hit is None:
                bi = self.block_of[(aid, k)]
                _, kinds, doms, offset, _ = self.blocks[bi]
                hit = cache[(aid, k)] = (offset, self._pos_index[bi],
                                         [len(d) for d in doms])
            offset, idx, sizes = hit
            if k == 1:
                out.append(offset + idx[0][ts[0]])
            elif k == 0:
                out.append(offset)
            else:
                code = 0
                for i, t in enumerate(ts):
                    code = code * sizes[i] + idx[i][t]
                out.append(offset + code)
        return out

    def decode(self, action: int):
        """``("pass",)``, ``("vote", target)`` or ``("move", ability, targets)``."""
        a = int(action)
        if a == PASS:
            return ("pass",)
        if 1 <= a <= self.n + 2:
            return ("vote", self.vote_targets[a - 1])
        for aid, _kinds, doms, offset, size in self.blocks:
            if offset <= a < offset + size:
                code = a - offset
                ts = []
                for d in reversed(doms):
                    code, r = divmod(code, len(d))
                    ts.append(d[r])
                return ("move", aid, tuple(reversed(ts)))
        raise ValueError(f"action {a} is outside the action space (0..{self.size - 1})")
