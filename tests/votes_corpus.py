"""The day-thread corpus of issue 10 (``tests/data/threads/``): each thread's game, dump and
a careful host's reading. Used by ``tests/test_votes_corpus.py`` and ``bench/votes.py``."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import yaml

from mafiahost.engine.game import Game
from mafiahost.rules import load
from mafiahost.rules.setup import deal

THREADS = Path(__file__).parent / "data" / "threads"

# Every case the issue names, and the corpus tags that carry it (at least one must occur).
ISSUE_CASES = {
    "withdrawal «снимаю голос»": ["withdraw"],
    "withdrawal «передумал»": ["withdraw_changed_mind"],
    "withdrawal unvote": ["unvote"],
    "a vote post edited after the deadline, original in the dump": [
        "edit_late_original_in_dump"],
    "a vote post edited after the deadline, no original": ["edit_late_no_original"],
    "edited before the deadline": ["edit_before_deadline"],
    "phpBB edit line": ["edit_phpbb", "edit_phpbb_en"],
    "vBulletin edit line": ["edit_vbulletin"],
    "IPB edit line": ["edit_ipb"],
    "a post pasted twice": ["pasted_twice", "edit_repaste_unknown_time"],
    "names in Russian cases": ["declension"],
    "short forms": ["short_form", "diminutive"],
    "«Сашу М» (several words)": ["multiword"],
    "a unique prefix": ["prefix"],
    "a small edit distance": ["typo"],
    "a Latin nick written in Cyrillic": ["translit"],
    "a post naming two players": ["two_names"],
    "an ambiguous name": ["ambiguous"],
    "an unreadable name": ["unknown_name"],
    "«Голос против» + «всех»": ["against_all_split"],
    "против всех where allowed": ["against_all", "against_all_split"],
    "против всех where not allowed": ["against_all_not_allowed"],
    "several red words in a post": ["red_pieces", "red_emphasis_and_vote", "red_repeated"],
    "untitled spoilers": ["spoiler_untitled", "spoiler_untitled_not_allowed"],
    "odd spoiler titles («Мой голос»)": ["spoiler_odd_title"],
    "spoiler with the rules' title": ["spoiler_titled"],
    "[b]": ["bold"],
    "[color=red]": ["red"],
    "«голос:»": ["phrase"],
    "wrong form for this rule set": ["wrong_form_red", "wrong_form_phrase",
                                     "wrong_form_spoiler", "wrong_form_bold",
                                     "spoiler_untitled_not_allowed"],
    "vote changes": ["change"],
    "over the change limit": ["change_limit"],
    "votes inside quotes ignored": ["quoted"],
    "after the deadline": ["late"],
    "by a dead player": ["dead_voter"],
    "by a spectator": ["spectator"],
    "impostor: a Latin look-alike letter": ["impostor_latin"],
    "impostor: a zero-width character": ["impostor_zero_width"],
    "impostor: an ё/е twin": ["impostor_yo"],
    "a recorded replacement nick": ["replacement_nick"],
    "a replaced player's old nick": ["replaced_old_nick"],
    "a host's alias": ["alias_author"],
    "the host's own posts": ["host_post"],
}


def names() -> list[str]:
    return sorted(p.stem for p in THREADS.glob("*.yaml"))


def meta(name: str) -> dict:
    return yaml.safe_load((THREADS / f"{name}.yaml").read_text(encoding="utf-8"))


def dump(name: str) -> str:
    return (THREADS / meta(name)["dump"]).read_text(encoding="utf-8")


def game(name: str) -> Game:
    """The thread's game at the start of its day: roles dealt from the seed, the night
    before resolved with no moves, the players out removed by the host, replacements made."""
    m = meta(name)
    rules = load(m["ruleset"])
    g = Game(rules, deal(rules, m["players"], m["seed"]), m["seed"])
    if g.state.phase == "night":
        g.resolve()
    for who in m["removed"]:
        g.host_remove(who, "corpus")
    for seat, nick in m["replaced"].items():
        g.replace_player(seat, nick)
    assert g.state.phase == "day"
    return g


def deadline(name: str) -> datetime:
    return datetime.fromisoformat(meta(name)["deadline"])


def accuracy(name: str, current: dict) -> tuple[int, int, list[str]]:
    """(seats right, living seats, the wrong ones as 'seat: got X, host Y')."""
    want = meta(name)["count"]
    wrong = [f"{s}: got {current.get(s)!r}, host {t!r}" for s, t in want.items()
             if current.get(s) != t]
    return len(want) - len(wrong), len(want), wrong
