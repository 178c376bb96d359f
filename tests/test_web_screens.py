"""A whole game through the web pages only, in a real browser (Playwright driving Debian's
Chromium): the host logs in, creates a ``gemini`` game from the form, every player sends
night moves and day votes from their own page, the host previews and resolves each phase
on the host pages, until the game is over. On the way every host page and every kind of
player page (a night move, a day vote, a dead player, the game over) is photographed in
Russian and English, on a phone and on a desktop, into ``build/screenshots/`` (git-ignored).

With ``MAFIAHOST_SCREENS=docs`` the Russian phone and English desktop shots (the visible
screen, not the whole page, to keep them small) are also written to ``docs/screens/``,
the set shown in ``docs/web.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_web_support import ROLES6, ROOT, Server, need_browser

SHOTS = ROOT / "build" / "screenshots"
DOCS = ROOT / "docs" / "screens"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MAFIA = {"Борис", "Вера"}


@pytest.fixture(scope="module")
def browser():
    path = need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True,
                               args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


def shoot(page, url: str, name: str, shots: list) -> None:
    """``url`` in both languages on both screens: four files ``name-{lang}-{screen}``."""
    for lang in ("ru", "en"):
        for screen, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            page.goto(url + ("&" if "?" in url else "?") + f"lang={lang}")
            f = SHOTS / f"{name}-{lang}-{screen}.png"
            page.screenshot(path=str(f), full_page=True)
            shots.append(f)
            if os.environ.get("MAFIAHOST_SCREENS") == "docs" and \
                    (lang, screen) in (("ru", "phone"), ("en", "desktop")):
                DOCS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(DOCS / f"{name}-{lang}-{screen}.png"))
    page.set_viewport_size(DESKTOP)
    page.goto(url + ("&" if "?" in url else "?") + "lang=ru")


def test_a_whole_game_through_the_web_pages_only(browser, tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    db = str(tmp_path / "games.db")
    with Server(db) as srv:
        host = browser.new_context(viewport=DESKTOP)
        hp = host.new_page()
        hp.on("dialog", lambda d: d.accept())       # the confirmations (resolve, undo)
        shoot(browser.new_context().new_page(), f"{srv.url}/login", "login", shots)
        hp.goto(f"{srv.url}/login")
        hp.fill("input[name=key]", srv.key)
        hp.click("button[type=submit]")
        assert hp.url.endswith("/host")
        hp.select_option("select[name=ruleset]", "gemini")
        hp.fill("textarea[name=players]", "\n".join(ROLES6))
        hp.fill("input[name=name]", "Осенняя игра")
        hp.click("details summary")
        hp.fill("textarea[name=roles]", ", ".join(f"{k}={v}" for k, v in ROLES6.items()))
        hp.fill("input[name=seed]", "7")
        hp.click("text=Создать игру")
        assert "создана" in hp.locator(".flash").inner_text()
        links = {}
        for row in hp.locator("table.links tbody tr").all():
            name = row.locator("td").first.inner_text().strip()
            links[name] = row.locator("input.copyable").input_value()
        assert set(links) == set(ROLES6)
        hp.click("text=К игре")
        game_url = hp.url.split("?")[0]
        shoot(hp, f"{srv.url}/host", "host-games", shots)

        players = {}
        for name in ROLES6:
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            players[name] = ctx.new_page()
            players[name].goto(links[name])

        def pick(name: str, options: list[str]) -> str:
            """A sensible target: the mafia shoot the town, the town aim at the mafia,
            else (a heal, a guard) the player himself, else the first offered."""
            if name in MAFIA:
                good = [o for o in options if o not in MAFIA]
            else:
                good = [o for o in options if o in MAFIA] or [o for o in options if o == name]
            return (good or options)[0]

        def send_moves():
            """Every living player sends one move from their own page."""
            for name, pg in players.items():
                pg.goto(links[name])
                for i in range(pg.locator("form.move").count()):
                    form = pg.locator("form.move").nth(i)
                    sel = form.locator("select")
                    if not sel.count() or not form.locator("button[type=submit]").count():
                        continue
                    for k in range(sel.count()):
                        # nothing is preselected: the first option is the placeholder
                        assert sel.nth(k).input_value() == ""
                        opts = [o for o in sel.nth(k).locator("option").all_inner_texts()
                                if o != "—"]
                        sel.nth(k).select_option(label=pick(name, opts) if k == 0
                                                 else opts[-1])
                    with pg.expect_navigation():
                        form.locator("button[type=submit]").click()
                    break                          # one move a phase

        def vote():
            for name, pg in players.items():
                pg.goto(links[name])
                form = pg.locator("form[action$='/vote']")
                if not form.count():
                    continue
                opts = form.locator("select option").all_inner_texts()
                target = next((o for o in opts if (o in MAFIA) != (name in MAFIA)
                               and o in ROLES6), None)
                if target is None:
                    continue
                form.locator("select").select_option(label=target)
                with pg.expect_navigation():
                    form.locator("button[type=submit]").click()

        phase = 0
        shot_night = shot_day = shot_dead = False
        while phase < 12:
            hp.goto(game_url)
            if "Игра окончена" in hp.locator("p.phase").inner_text():
                break
            day = "День" in hp.locator("p.phase").inner_text()
            if day:
                vote()
                if not shot_day:
                    alive = next(n for n in ("Анна", "Егор", "Глеб") if players[n]
                                 .locator("form[action$='/vote']").count())
                    shoot(players[alive], links[alive], "player-day", shots)
                    shot_day = True
            else:
                send_moves()
                if not shot_night:
                    shoot(players["Анна"], links["Анна"], "player-night", shots)
                    shoot(hp, game_url, "host-game-night", shots)
                    shot_night = True
            hp.goto(f"{game_url}/preview")
            if phase == 0:
                shoot(hp, f"{game_url}/preview", "host-preview", shots)
            hp.goto(game_url)
            with hp.expect_navigation():
                hp.click("form[action$='/resolve'] button")
            assert hp.url.endswith("/posts"), hp.url
            if phase == 0:
                shoot(hp, f"{game_url}/posts", "host-posts", shots)
            phase += 1
            if not shot_dead:
                from mafiahost.host import Host
                _, g = Host(db).load(int(game_url.rsplit("/", 1)[1]))
                dead = [p.name for p in g.state.order if not p.alive]
                if dead and not g.state.over:
                    pg = players[dead[0]]
                    pg.goto(links[dead[0]])
                    assert "мертвецы немы" in pg.content()
                    assert not pg.locator("form[action$='/vote']").count()
                    shoot(pg, links[dead[0]], "player-dead", shots)
                    shot_dead = True
            if phase == 2:
                shoot(hp, game_url, "host-game-day", shots)
        hp.goto(game_url)
        assert "Игра окончена" in hp.locator("p.phase").inner_text(), phase
        shoot(hp, f"{game_url}/posts", "host-posts-final", shots)
        shoot(hp, f"{game_url}/log", "host-log", shots)
        shoot(players["Анна"], links["Анна"], "player-over", shots)
        hp.goto(f"{game_url}/posts")
        final = [t.input_value() for t in hp.locator("textarea").all()]
        assert any("Проверка кубика" in t for t in final)   # the final post, seed revealed
    assert shot_night and shot_day and shot_dead
    for f in shots:
        assert f.stat().st_size > 5_000, f
