"""Game texts for all ten rule sets: every event any rule set emits has words (no generic
"type: field=value" line), nothing secret reaches a public post or a private message, and a
removal that is not a death (locked, taken, denounced, driven out...) is never told as one.

Each rule set plays 30 seeded random games (``mafiahost.sim``) plus its scenario files (the
rarer events: a hunt, a declined duel, a passed-out observer...); every phase post, every
player's private messages and the final post are rendered in both languages and formats.
"""

import functools
import random
import re
from pathlib import Path

import pytest

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.render import posts
from mafiahost.rules import load
from mafiahost.scenario import collect, load_scenario, play
from mafiahost.sim import new_random_game, play_phase

RULESETS = ["vanilla", "classic", "gemini", "niichavo", "atlantis", "odessa", "musketeers",
            "antem", "indians", "osiris", "mafia-yakuza", "singapore"]
LETHAL = ("killed", "venom", "blood")    # ways of leaving that are deaths (singapore)
NO_KILLS = ("niichavo", "odessa", "indians")      # nobody dies in these rule sets
GAMES = 30
LANG_FMT = [(lang, fmt) for lang in ("ru", "en") for fmt in ("plain", "bbcode")]
ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "mafiahost"
GENERIC = re.compile(r"^\s*(?:•\s*|\[\*\])?[a-z_]+: \w+=", re.M)   # "type: field=value"
DEATH = {"ru": re.compile(r"мёртв|мертв|погиб|убит|убил|смерт|труп", re.I),
         "en": re.compile(r"\bdead\b|\bdie[sd]\b|\bkill(?:ed|s)\b|\bdeath\b|\bcorpse", re.I)}
# the public post's own handling (posts.phase_post), not a sentence by type
POST_HANDLED = {"phase_started", "vote", "vote_withdrawn", "tie", "eliminated", "vote_count",
                "no_lynch", "game_over"}


# ---- the games ---------------------------------------------------------------------------

@functools.cache
def games(ruleset: str) -> tuple:
    """(game, [events of each resolve], [events of each phase]) for 30 random games and
    every scenario of the rule set. A phase's whole event list matters too: a day's
    immediate moves (a hunt, a duel's challenge) are announced when made, not at the
    resolve."""
    rules = load(ruleset)
    lo, hi = rules.setup.get("min_players", 4), rules.setup.get("max_players", 30)
    out = []
    for seed in range(GAMES):
        g = new_random_game(ruleset, min(hi, max(lo, 6 + seed % 11)), seed)
        rng = random.Random(seed)
        steps = []
        while not g.state.over and len(steps) < 60:
            play_phase(g, rng)
            steps.append(g.resolve())
        out.append((g, steps, _by_phase(g)))
    for path in collect([ROOT / "scenarios" / ruleset]):
        steps = []
        rep = play(load_scenario(path), path, check=False,
                   on_phase=lambda g, entry, evs, steps=steps: steps.append(evs))
        if rep.game is not None:
            out.append((rep.game, steps, _by_phase(rep.game)))
    return tuple(out)


def _by_phase(g) -> list:
    phases: dict = {}
    for e in g.events:
        phases.setdefault(e.phase, []).append(e)
    return [evs for label, evs in phases.items() if label]


@pytest.fixture
def fallbacks(monkeypatch):
    """Every event shown by the generic "type: field=value" line while the test runs."""
    seen = []
    generic = posts.Writer.generic

    def spy(self, e):
        seen.append((e.type, e.audience if e.audience in (PUBLIC, HOST) else "player",
                     self.lang, dict(e.data)))
        return generic(self, e)

    monkeypatch.setattr(posts.Writer, "generic", spy)
    return seen


def _hidden_values(g) -> set:
    """The printed form of every "_" field of the game's events (the dice state)."""
    out = set()
    for e in g.events:
        for k, v in e.data.items():
            if k.startswith("_") and len(str(v)) >= 6:
                out.add(str(v))
    return out


def _host_lines(g, lang, fmt) -> set:
    """The host's log sentence of every host-only event (what only the final post shows)."""
    w = posts.Writer(g, lang, fmt)
    out = set()
    for e in g.events:
        if e.audience == HOST:
            line = w.event_line(("log", "post"), e, w.variants(e))
            if line:
                out.add(line)
    return out


def _clean(text: str, g) -> None:
    assert "_state" not in text and "{" not in text and "}" not in text, text
    found = GENERIC.search(text)
    assert not found, found.group(0)
    for v in _hidden_values(g):
        assert v not in text


# ---- every text of every game --------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_of_every_game_has_words(ruleset, fallbacks):
    for g, steps, phases in games(ruleset):
        for lang, fmt in LANG_FMT:
            host = _host_lines(g, lang, fmt)
            for evs in steps + phases:
                text = posts.phase_post(g, evs, lang, fmt)
                _clean(text, g)
                leaked = [x for x in host if x in text]
                assert not leaked, (leaked, text)
            for p in g.state.order:
                text = posts.private_messages(g, g.events, p.name, lang, fmt)
                _clean(text, g)
                leaked = [x for x in host if x in text]
                assert not leaked, (leaked, text)
            final = posts.final_post(g, {"seed": g.seed}, lang, fmt)
            _clean(final, g)
    assert not fallbacks, sorted({(t, a) for t, a, _l, _d in fallbacks})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_texts_read_only_what_their_audience_may_see(ruleset):
    for g, steps, _ in games(ruleset)[:10]:
        for evs in steps:
            public = [e for e in evs if e.audience == PUBLIC]
            assert posts.phase_post(g, evs, "ru") == posts.phase_post(g, public, "ru")
        for p in g.state.order:
            own = [e for e in g.events
                   if e.audience not in (PUBLIC, HOST) and e.visible_to(p.name)]
            for lang in ("ru", "en"):
                assert posts.private_messages(g, g.events, p.name, lang) == \
                    posts.private_messages(g, own, p.name, lang)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_removal_that_is_not_a_death_is_not_told_as_one(ruleset):
    for g, steps, phases in games(ruleset):
        for lang in ("ru", "en"):
            death = DEATH[lang]
            for evs in steps + phases:
                text = posts.phase_post(g, evs, lang)
                if ruleset in NO_KILLS:
                    assert not death.search(text), text
                for e in evs:
                    if e.type != "eliminated" or e.audience != PUBLIC \
                            or e.data["how"] == "killed":
                        continue
                    name = g.display(e.data["player"])
                    for line in text.splitlines():
                        assert name not in line or not death.search(line), (e.data, line)
            if ruleset in NO_KILLS:
                for p in g.state.order:
                    text = posts.private_messages(g, g.events, p.name, lang)
                    assert not death.search(text), text
                text = posts.final_post(g, None, lang)
                assert not death.search(text), death.search(text)


def test_the_morning_post_says_how_a_player_left():
    said = {}
    for ruleset in RULESETS:
        for g, steps, _ in games(ruleset):
            for evs in steps:
                out = [e for e in evs if e.type == "eliminated"]
                if len(out) != 1 or out[0].data["how"] in said:
                    continue
                said[out[0].data["how"]] = posts.phase_post(g, evs, "ru")
    assert "заперт(а)" in said["locked"] or "под замок" in said["locked"]
    assert "джинн" in said["taken"]
    assert "по доносу" in said["denounced"]
    assert "ранен(а) выстрелом" in said["wounded"]
    assert "изгнан(а) из племени" in said["removed"]
    assert "Кровная месть" in said["revenge"]
    assert "найден(а) мёртвым(ой)" in said["killed"]
    assert "По итогам голосования выбывает" in said["lynched"]


# ---- every event type and every way of leaving, from the sources ------------------------------

def _emitted(path: Path) -> dict:
    """{event type: audiences} of every ``emit("type", audience, ...)`` in a source file."""
    out: dict = {}
    for m in re.finditer(r'emit\(\s*"(\w+)",\s*([^,)]+)', path.read_text(encoding="utf-8")):
        aud = m.group(2).strip()
        kind = "public" if aud in ("PUBLIC", '"public"') else \
            "host" if aud in ("HOST", '"host"') else "player"
        out.setdefault(m.group(1), set()).add(kind)
    return out


def _engine_events() -> dict:
    out: dict = {}
    for path in sorted((SRC / "engine").rglob("*.py")):
        for t, auds in _emitted(path).items():
            out.setdefault(t, set()).update(auds)
    return out


def _hows(ruleset: str) -> set:
    """Every ``how`` (way of leaving the game) the rule set's removals can say."""
    hows = {"killed", "lynched", "host"}
    ab = SRC / "rules" / "abilities" / f"{ruleset}.py"
    data = (SRC / "rules" / "data" / f"{ruleset}.yaml").read_text(encoding="utf-8")
    data = "\n".join(x.split("#", 1)[0] for x in data.splitlines())   # not the comments
    hows |= set(re.findall(r"\bhow: (\w+)", data))
    if ab.is_file():
        code = ab.read_text(encoding="utf-8")
        hows |= set(re.findall(r'how="(\w+)"', code))
        hows |= set(re.findall(r'lynch_how = "(\w+)"', code))
        hows |= set(re.findall(r'\nHOW = "(\w+)"', code))
        hows |= set(re.findall(r'eliminate\([^,()]+, "(\w+)"', code))
    return hows


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_type_the_rule_set_can_emit_has_a_sentence(ruleset):
    events = _engine_events()
    ab = SRC / "rules" / "abilities" / f"{ruleset}.py"
    if ab.is_file():
        for t, auds in _emitted(ab).items():
            events.setdefault(t, set()).update(auds)
    assert len(events) > 20
    texts = posts.texts(ruleset)
    for lang in ("ru", "en"):
        m = texts[lang]
        for t, auds in sorted(events.items()):
            # the final post's log: the host's sentence, else the public one
            assert t in m["log"] or t in m["post"], (lang, t)
            if "public" in auds and t not in POST_HANDLED:
                assert t in m["post"], (lang, t)
            if "player" in auds:
                assert t in m["pm"], (lang, t)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_way_of_leaving_has_its_own_sentence(ruleset):
    hows = _hows(ruleset)
    seen = {e.data["how"] for g, _, _ in games(ruleset) for e in g.events
            if e.type == "eliminated"}
    assert seen <= hows, seen - hows                 # the sources name every way of leaving
    texts = posts.texts(ruleset)
    for lang in ("ru", "en"):
        post = texts[lang]["post"]
        for how in hows:
            keys = [k for k in post if k.startswith("eliminated.")
                    and k.removesuffix("_hidden").split(".", 1)[1] in
                    (how, f"{how}_night", f"{how}_day")]
            assert keys, (lang, how)
            assert len({k.removesuffix("_hidden") for k in keys}) * 2 == len(keys), keys
            if how not in LETHAL:
                for k in keys:
                    assert not DEATH[lang].search(post[k]), (k, post[k])
            assert how in texts[lang]["terms"], (lang, how)    # the log's word for it


def test_every_rule_set_with_events_of_its_own_has_its_own_texts():
    for ruleset in RULESETS:
        ab = SRC / "rules" / "abilities" / f"{ruleset}.py"
        own = set(_emitted(ab)) - set(_engine_events()) if ab.is_file() else set()
        shared = set(posts.texts("")["ru"]["log"])
        if own - shared:
            assert (SRC / "render" / f"messages_{ruleset}.yaml").is_file(), ruleset
