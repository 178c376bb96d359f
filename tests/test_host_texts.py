"""What the host reads from the service layer: every command kind in words (undo, log),
the bots' line in the game's language, a refused move's hint that can help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.host import Host
from mafiahost.host.phases import COMMAND_WORDS

HOST = Path(__file__).parents[1] / "src" / "mafiahost" / "host"
ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _kinds_in_the_code() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HOST.glob("*.py"))
    return set(re.findall(r'_command\(\s*game_id,\s*"(\w+)"', text)) | \
        set(re.findall(r'add_command\(\s*s,\s*row\.id,\s*"(\w+)"', text))


def test_every_command_kind_the_host_can_log_has_words():
    kinds = _kinds_in_the_code()
    assert {"act", "vote", "resolve", "schedule", "votes_host", "new", "gender"} <= kinds
    for k in kinds:
        assert k in COMMAND_WORDS, f"no words for the command kind {k!r}"
        ru, en = COMMAND_WORDS[k]
        assert re.search("[а-яё]", ru) and not re.search(r"\b[a-z]+_[a-z]+\b", ru + en)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_undo_names_each_command_in_words(tmp_path, lang):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1, lang=lang).game_id
    said = {
        "schedule": (lambda: h.set_schedule(gid, "day=+1 23:00"),
                     "расписание сроков", "the schedule of deadlines"),
        "votes_host": (lambda: h.set_host_nick(gid, "Ведущий_1"),
                       "ник ведущего на форуме: Ведущий_1", "the host's forum nick: Ведущий_1"),
        "votes_alias": (lambda: h.add_alias(gid, "Анюта", "Анна"),
                        "ник Анюта игрока Анна", "the nick Анюта of Анна"),
    }
    for kind, (do, ru, en) in said.items():
        do()
        msg = h.undo(gid, dry_run=True).message
        assert (ru if lang == "ru" else en) in msg, msg
        assert f"«{kind}»" not in msg and f"'{kind}'" not in msg
        h.undo(gid)
        log = "\n".join(h.log(gid, undone=True, lang=lang))
        assert f"«{kind}»" not in log and f"'{kind}'" not in log, log


def test_the_bots_line_is_in_the_games_language(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жора", "Зоя", "Ира", "Костя"]
    for lang, word, other in (("en", "Bots: ", "Боты"), ("ru", "Боты: ", "Bots")):
        gid = h.new_game("gemini", names, seed=3, lang=lang,
                         bots={"Глеб": "sensible", "Дина": "random"}).game_id
        msg = h.resolve(gid).message
        assert word in msg and other not in msg, msg


def test_a_move_on_an_unknown_name_suggests_the_closest_not_replace(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1).game_id
    h.act(gid, "Глеб", "heal", ["Дина"])
    with pytest.raises(Refused) as e:
        h.act(gid, "Глеб", "лечение", ["Дианаа"])
    assert "Может быть, Дина?" in e.value.ru and "Did you mean Дина?" in e.value.en
    assert "--replace" not in e.value.ru + e.value.en
    with pytest.raises(Refused) as e:
        h.act(gid, "Глеб", "лечение", ["Никто"])
    assert "--replace" not in e.value.ru and "игроки: Анна, Борис" in e.value.ru
    with pytest.raises(Refused) as e:                  # a known name: replacing helps
        h.act(gid, "Глеб", "лечение", ["Анна"])
    assert "--replace" in e.value.ru
