"""The fixed action encoding of a rule set for a table of N seats (``docs/agents.md``).

One ``Discrete`` space holds every kind of thing a seat can send:

    0                         pass: nothing more from me this phase
    1 .. N                    vote against seat i-1 (seating order)
    N+1, N+2                  vote against all, abstain
    then one block per (ability id, target kinds) of the rule set, in sorted order:
                              a block holds every tuple of targets, mixed radix, the first
                              target the most significant digit

    last, one block for answers to questions put to the seat:
                              ANSWER_SLOTS x ANSWER_OPTIONS actions, (the seat's k-th open
                              question, oldest first; its j-th option)

A target position has a kind: ``seat`` (N values, seating order) or ``role`` (the rule
set's role ids, sorted): an ability with ``names_role`` (a move that names a role, e.g.
"X is the sheriff") takes its seat targets and then a role. An ability may also declare
its kinds with a ``target_kinds`` tuple. The engine's legal moves give an answer as
``("answer", (question id, option id))``; since question ids and their options are known
only when a question is asked, the codec numbers them by position among the seat's open
questions (``state.questions``), so the action space stays fixed.
"""

from __future__ import annotations

import bisect
from typing import Any, Final

from ..engine.game import TargetPools
from ..engine.state import State

_bisect_right: Final = bisect.bisect_right   # (Final: read as a static when compiled)

PASS: Final = 0
ANSWER: Final = "answer"
ANSWER_SLOTS: Final = 4          # open questions a seat can answer at once
ANSWER_OPTIONS: Final = 8        # options of one question
PATTERNS: Final = 4096           # a row width's byte patterns kept (``Codec.pieces``)

ONE: Final = b"\x01"

# the 8 bytes of each byte value's bits, lowest bit first: 1 where a bit is set
_OCTETS: Final[list[bytes]] = [bytes((v >> i) & 1 for i in range(8)) for v in range(256)]

# the bits set in each byte value
_BITS: Final[list[int]] = [bin(v).count("1") for v in range(256)]

# rows of at most this many actions (twelve seats) have every pattern of bits made at
# once, in a list read by position (``small_rows``): a list read costs a few
# instructions, where a dict's look-up by a number costs a few hundred and a miss, a
# pattern made, two thousand
SMALL_WIDTH: Final = 12
_SMALL_ROWS: Final[dict[int, list[bytes]]] = {}
_SMALL_COUNT: Final = 1 << SMALL_WIDTH
# the bits set in each row of at most ``SMALL_WIDTH`` actions (``Codec._ones``)
_POP: Final[list[int]] = [_BITS[v & 255] + _BITS[v >> 8] for v in range(1 << SMALL_WIDTH)]


def small_rows(width: int) -> list[bytes]:
    """Every row of ``width`` (at most ``SMALL_WIDTH``) actions as bytes, by its bits:
    ``small_rows(w)[bits]`` is 1 at the positions of ``bits``. Made once per width in a
    process (4,096 rows of 12 bytes for twelve seats, about 0.2 MB)."""
    rows = _SMALL_ROWS.get(width)
    if rows is None:
        if width <= 8:
            rows = [_OCTETS[v][:width] for v in range(1 << width)]
        else:
            highs = [_OCTETS[h][:width - 8] for h in range(1 << (width - 8))]
            rows = [_OCTETS[v & 255] + highs[v >> 8] for v in range(1 << width)]
        _SMALL_ROWS[width] = rows
    return rows


# a block: (ability id, target kinds, the domain of each target position, offset, size)
Block = tuple[str, tuple[str, ...], list[list[str]], int, int]


def target_kinds(ab: Any) -> tuple[str, ...]:
    kinds = getattr(ab, "target_kinds", None)
    if kinds:
        return tuple(kinds)
    if getattr(ab, "names_role", False):
        return ("seat",) * ab.targets + ("role",)
    return ("seat",) * ab.targets


def open_questions(state: State, seat: str) -> list[dict]:
    """The seat's open questions, oldest first (none where the engine has no questions)."""
    qs = getattr(state, "questions", None) or {}
    return sorted((q for q in qs.values() if q.get("to") == seat), key=lambda q: q["id"])


class Codec:
    def __init__(self, rules: Any, seats: list[str]) -> None:
        self.seats: list[str] = list(seats)
        n = len(self.seats)
        self.n = n
        self.seat_index = {s: i for i, s in enumerate(self.seats)}
        self.roles: list[str] = sorted(rules.roles)
        domains = {"seat": self.seats, "role": self.roles}
        self.vote_base = 1
        self.vote_targets: list[str] = self.seats + ["against_all", "abstain"]
        self.vote_index: dict[str, int] = {t: 1 + i for i, t in enumerate(self.vote_targets)}
        blocks: dict[tuple[str, tuple[str, ...]], list[list[str]]] = {}
        for ab in rules.abilities.values():
            kinds = target_kinds(ab)
            doms: list[list[str]] = []
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
        self.blocks: list[Block] = []
        self.block_of: dict[tuple[str, int], int] = {}
        offset = 1 + n + 2
        for key in sorted(blocks, key=lambda k: (k[0], len(k[1]), k[1])):
            doms = blocks[key]
            size = 1
            for d in doms:
                size *= len(d)
            self.block_of[(key[0], len(doms))] = len(self.blocks)
            self.blocks.append((key[0], key[1], doms, offset, size))
            offset += size
        # a seat target's index is ``seat_index`` itself (one object for every block: the
        # bits of a pool of seats are made once a list, ``pieces``)
        self.index_in: list[dict[str, int]] = [
            self.seat_index if d is self.seats else {v: i for i, v in enumerate(d)}
            for _, _, ds, _, _ in self.blocks for d in ds]
        self._pos_index: list[list[dict[str, int]]] = []
        at = 0
        for b in self.blocks:
            self._pos_index.append(self.index_in[at:at + len(b[2])])
            at += len(b[2])
        self.first_block: int = 1 + n + 2      # the first action that is not a pass or vote
        self.answer_offset: int = offset
        offset += ANSWER_SLOTS * ANSWER_OPTIONS
        self.size: int = offset
        self._memo: dict[tuple, int] = {}
        self._decoded: dict[int, tuple] = {
            i: ("vote", t) for i, t in enumerate(self.vote_targets, 1)}
        self._offsets: list[int] = [b[3] for b in self.blocks]
        self._tables: list[dict[tuple, int]] = [{} for _ in self.blocks]
        # the blocks by target count, then ability id (``pieces``: a string key, where the
        # tuple (ability, count) of ``block_of`` is hashed anew at each look-up)
        self._by_k: list[dict[str, int]] = []
        for (aid, count), bi in self.block_of.items():
            while len(self._by_k) <= count:
                self._by_k.append({})
            self._by_k[count][aid] = bi
        # a block's row: its actions for one choice of every target but the last (the
        # whole block, for one target), as many as the last target's values
        self._widths: list[int] = [len(b[2][-1]) if b[2] else 1 for b in self.blocks]
        # a row's bytes for each set of last targets (bits by position), ``pieces``: they
        # depend only on the row's width, so blocks of one width share them
        by_width: dict[int, dict[int, bytes]] = {}
        self._patterns: list[dict[int, bytes]] = [
            by_width.setdefault(w, {}) for w in self._widths]
        # made now, not at a step: the rows' tables of the small widths, and every move's
        # decoding (at most a few thousand, a few milliseconds: the steps then look
        # each up in ``_decoded``)
        for w in set(self._widths):
            if w <= SMALL_WIDTH:
                small_rows(w)
        for a in range(self.first_block, self.answer_offset):
            self.decode(a)

    def vote(self, target: str) -> int:
        return self.vote_index[target]

    def move(self, ability: str, targets: tuple | list) -> int:
        bi = self.block_of[(ability, len(targets))]
        _, _, doms, offset, _ = self.blocks[bi]
        idx = self._pos_index[bi]
        code = 0
        for i, t in enumerate(targets):
            code = code * len(doms[i]) + idx[i][t]
        return offset + code

    def answer(self, questions: list[dict], qid: Any, option: Any) -> int | None:
        """The action of answering question ``qid`` with ``option`` (None when it does not
        fit the fixed block: too many open questions or options)."""
        for k, q in enumerate(questions[:ANSWER_SLOTS]):
            if str(q["id"]) == str(qid):
                ids = [o[0] for o in q["options"]][:ANSWER_OPTIONS]
                if option in ids:
                    return self.answer_offset + k * ANSWER_OPTIONS + ids.index(option)
        return None

    def moves(self, moves: list, questions: list[dict] | None = None) -> list[int]:
        """``move`` for a list of (ability, targets), each pair encoded once per codec;
        answers by position among ``questions`` (the seat's open ones)."""
        memo = self._memo
        out: list[int] = []
        for m in moves:
            if m[0] == ANSWER and (ANSWER, len(m[1])) not in self.block_of:
                a = self.answer(questions or [], *m[1])
                if a is not None:
                    out.append(a)
                continue
            code = memo.get(m)
            if code is None:
                code = memo[m] = self.move(m[0], m[1])
            out.append(code)
        return out

    def codes(self, ability: str, targets: list, questions: list[dict] | None = None
              ) -> list[int]:
        """``moves`` for one ability's target tuples (all of one length: a group of
        ``Game.legal_move_groups``)."""
        if not targets:
            return []
        k = len(targets[0])
        bi = self.block_of.get((ability, k))
        if bi is None:
            if ability == ANSWER:        # answers, by position among the open questions
                qs = questions or []
                out: list[int] = []
                for ts in targets:
                    a = self.answer(qs, *ts)
                    if a is not None:
                        out.append(a)
                return out
            raise KeyError((ability, k))
        if k == 0:
            return [self.blocks[bi][3]]
        if k == 1:
            idx = self._pos_index[bi][0]
            offset = self.blocks[bi][3]
            return [offset + idx[ts[0]] for ts in targets]
        table = self._tables[bi]        # target tuple -> action, filled as tuples are met
        try:
            return [table[ts] for ts in targets]
        except KeyError:
            for ts in targets:
                if ts not in table:
                    table[ts] = self.move(ability, ts)
            return [table[ts] for ts in targets]

    def pieces(self, groups: list[tuple[str, Any]], questions: list[dict] | None = None
               ) -> tuple[list[tuple[int, bytes, int]], list[int]]:
        """The actions of ``groups`` (``Game.legal_move_sets``: (ability, target tuples or
        their pools, ``TargetPools``), answers as ``("answer", [(question id, option),
        ...])``), for ``assemble``: the
        rows they fill, as (start, bytes, bits), and the answers' single actions (by
        position among ``questions``, the seat's open ones). A row is a block's actions for
        one choice of every target but the last (the whole block, for one target; its one
        action, for none); its bytes are 1 at the last targets the group names (``bits``,
        by position), a pattern kept for each set met (shared by the rows of one width).
        A group's tuples are read with one dictionary look-up a target."""
        rows: list[tuple[int, bytes, int]] = []
        loose: list[int] = []
        by_k = self._by_k
        # each pool of seats met and its bits: abilities alike share their pools (``Game.
        # legal_move_sets``), read once here
        seen: list[list[str]] = []
        seat_bits: list[int] = []
        for group in groups:
            ability: str = group[0]
            got = group[1]
            if isinstance(got, TargetPools):
                self._pool_rows(rows, ability, got, seen, seat_bits)
                continue
            targets: list = got
            if not targets:
                continue
            first: tuple = targets[0]
            k = len(first)
            bi = by_k[k].get(ability, -1) if k < len(by_k) else -1
            if bi < 0:                          # answers (or no such block: raises)
                loose.extend(self.codes(ability, targets, questions))
                continue
            off = self._offsets[bi]
            if k == 0:                          # no targets: the block's one action
                rows.append((off, ONE, 1))
                continue
            pidx = self._pos_index[bi]
            last = pidx[k - 1]
            pats = self._patterns[bi]
            width = self._widths[bi]
            if k == 1:                          # the block is one row
                bits = 0
                for ts in targets:
                    t: tuple = ts
                    bits |= 1 << last[t[0]]
                rows.append((off, self._row(pats, bits, width), bits))
                continue
            # the rows met, each with its last targets' bits; a group lists its tuples row
            # by row (``Game.legal_move_groups``), so a row is usually met once
            met: dict[int, int] = {}
            doms = self.blocks[bi][2]
            cur = -1
            bits = 0
            for ts in targets:
                t = ts
                if k == 2:
                    r = pidx[0][t[0]]
                else:
                    r = 0
                    for j in range(k - 1):
                        r = r * len(doms[j]) + pidx[j][t[j]]
                if r != cur:
                    if cur >= 0:
                        met[cur] = met.get(cur, 0) | bits
                    cur = r
                    bits = 0
                bits |= 1 << last[t[k - 1]]
            met[cur] = met.get(cur, 0) | bits
            for r, bits in met.items():
                rows.append((off + r * width, self._row(pats, bits, width), bits))
        return rows, loose

    def _pool_rows(self, rows: list[tuple[int, bytes, int]], ability: str,
                   tp: TargetPools, seen: list[list[str]], seat_bits: list[int]) -> None:
        """``pieces`` of an ability's targets given as their pools (``TargetPools``): the
        last targets' bits made once from the pool, one dictionary look-up a seat, where
        the tuples they stand for take one a target; a pool of seats met before in this
        ``pieces`` (``seen``, ``seat_bits``) read without any."""
        k = tp.k
        bi = self._by_k[k][ability]
        off = self._offsets[bi]
        pidx = self._pos_index[bi]
        last = pidx[k - 1]
        pats = self._patterns[bi]
        width = self._widths[bi]
        if k == 1:
            bits = self._bits(tp.first, last, seen, seat_bits)
            rows.append((off, self._row(pats, bits, width), bits))
            return
        pool = self._bits(tp.rest, last, seen, seat_bits)
        head = pidx[0]
        distinct = tp.distinct
        for a in tp.first:
            bits = pool & ~(1 << last[a]) if distinct else pool
            if bits:
                rows.append((off + head[a] * width, self._row(pats, bits, width), bits))

    def _bits(self, names: list[str], index: dict[str, int], seen_lists: list[list[str]],
              seat_bits: list[int]) -> int:
        """The bits of ``names`` at their positions in ``index``; when ``index`` is the
        seats', kept in ``seat_bits`` beside the list in ``seen_lists``."""
        if index is not self.seat_index:
            bits = 0
            for n in names:
                bits |= 1 << index[n]
            return bits
        # a few lists a seat's moves (one or two): found by identity, one by one
        seen = seen_lists
        for i in range(len(seen)):
            if seen[i] is names:
                return seat_bits[i]
        bits = 0
        for n in names:
            bits |= 1 << index[n]
        seen.append(names)
        seat_bits.append(bits)
        return bits

    def _row(self, pats: dict[int, bytes], bits: int, width: int) -> bytes:
        """The bytes of a row of ``width`` actions, 1 at the positions of ``bits``: read
        by position from the table of every row of that width (``small_rows``) when the
        width is at most ``SMALL_WIDTH``, else made eight positions at a time the first
        time they are met and kept in ``pats``."""
        if width <= SMALL_WIDTH:
            return small_rows(width)[bits]
        pat = pats.get(bits)
        if pat is None:
            parts: list[bytes] = []
            x = bits
            while x:
                parts.append(_OCTETS[x & 255])
                x >>= 8
            b = b"".join(parts)
            pat = b[:width] if len(b) >= width else b + bytes(width - len(b))
            if len(pats) >= PATTERNS:
                pats.clear()
            pats[bits] = pat
        return pat

    def assemble(self, base: bytes, rows: list[tuple[int, bytes, int]],
                 loose: list[int]) -> bytes:
        """The mask: ``base`` (the pass and the votes, zero elsewhere) with the ``rows`` and
        single actions of ``pieces`` set. ``rows`` is sorted here (in place: ``kth_legal``
        reads it in order). The rows are joined with the stretches of
        ``base`` between them, one ``join``, where writing them into a copy of ``base``
        cost about 1.5 k instructions a slice assignment and 550 a byte."""
        rows.sort()
        parts: list[bytes] = []
        at = 0
        for row in rows:
            start = row[0]
            if start > at:
                parts.append(base[at:start])
            pat = row[1]
            parts.append(pat)
            at = start + len(pat)
        parts.append(base[at:])
        m = b"".join(parts)
        if loose:
            ba = bytearray(m)
            for c in loose:
                ba[c] = 1
            m = bytes(ba)
        return m

    def kth_legal(self, heads: list[int], rows: list[tuple[int, bytes, int]],
                  loose: list[int], u: float) -> int:
        """The ``k``-th legal action (in order) of a mask ``assemble`` made from ``rows``
        (sorted) and ``loose`` over a base whose legal pass and votes are ``heads`` (in
        order), for ``k = int(u * count)`` (``u`` in [0, 1)); -1 when there is none. The
        rows are read from their bits, row by row: the mask's bytes are not read."""
        votes = len(heads)
        count = votes
        counts: list[int] = []          # each row's legal actions, counted once
        for row in rows:
            c = self._ones(row[2])
            counts.append(c)
            count += c
        answers: list[int] = sorted(set(loose)) if loose else loose
        count += len(answers)
        if count == 0:
            return -1
        k = int(u * count)
        if k < votes:
            return heads[k]
        k -= votes
        for j, row in enumerate(rows):
            c = counts[j]
            if k >= c:
                k -= c
                continue
            x = row[2]
            i = row[0]
            while True:
                if x & 1:
                    if k == 0:
                        return i
                    k -= 1
                x >>= 1
                i += 1
        return answers[k]

    def _ones(self, x: int) -> int:
        """The bits set in ``x`` (a row's): read from a table for a row of at most
        ``SMALL_WIDTH`` actions, else a byte at a time."""
        if x < _SMALL_COUNT:
            return _POP[x]
        c = 0
        while x:
            c += _BITS[x & 255]
            x >>= 8
        return c

    def decode(self, action: Any, questions: list[dict] | None = None) -> tuple:
        """``("pass",)``, ``("vote", target)`` or ``("move", ability, targets)`` (an answer
        is ``("move", "answer", (question id, option))``, read from ``questions``, the
        seat's open ones; ``("pass",)`` when there is no such question or option)."""
        a = int(action)
        kind = self._decoded.get(a)
        if kind is not None:
            return kind
        if a == PASS:
            return ("pass",)
        if 1 <= a <= self.n + 2:
            return ("vote", self.vote_targets[a - 1])
        if self.answer_offset <= a < self.size:
            k, j = divmod(a - self.answer_offset, ANSWER_OPTIONS)
            qs = questions or []
            if k < len(qs) and j < len(qs[k]["options"]):
                return ("move", ANSWER, (str(qs[k]["id"]), qs[k]["options"][j][0]))
            return ("pass",)
        if 0 <= a < self.size:
            aid, _kinds, doms, offset, _size = self.blocks[_bisect_right(self._offsets, a) - 1]
            code = a - offset
            ts: list[str] = []
            for d in reversed(doms):
                code, r = divmod(code, len(d))
                ts.append(d[r])
            kind = self._decoded[a] = ("move", aid, tuple(reversed(ts)))
            return kind
        raise ValueError(f"action {a} is outside the action space (0..{self.size - 1})")
