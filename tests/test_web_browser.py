"""The whole loop in a real browser (Playwright driving Debian's Chromium, headless): the
host creates a ``gemini`` game on the host pages, four players send their night moves from
four separate browser contexts, the host previews and resolves, and each player's page
updates by itself and shows exactly that player's own results. Screenshots of a host page
and a player page, on a phone and on a desktop, are saved in ``build/screenshots/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_web_support import ROLES6, ROOT, Server, need_browser

SHOTS = ROOT / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def browser():
    path = need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True,
                               args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


def _results(page) -> str:
    return page.locator("#results").inner_text()


def test_host_and_players_play_a_night_in_the_browser(browser, tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = str(tmp_path / "games.db")
    with Server(db) as srv:
        host = browser.new_context(viewport=DESKTOP)
        hp = host.new_page()
        hp.goto(f"{srv.url}/login")
        hp.fill("input[name=key]", srv.key)
        hp.click("button[type=submit]")
        assert hp.url.endswith("/host")
        # create the game from the rule set, with the players and their roles
        hp.select_option("select[name=ruleset]", "gemini")
        hp.fill("textarea[name=players]", "\n".join(ROLES6))
        hp.fill("input[name=name]", "Браузер")
        hp.click("details summary")
        hp.fill("textarea[name=roles]", ", ".join(f"{k}={v}" for k, v in ROLES6.items()))
        hp.fill("input[name=seed]", "7")
        hp.click("text=Создать игру")
        # the answer shows the players' links this once
        assert "создана" in hp.locator(".flash").inner_text()
        links = {}
        for row in hp.locator("table.links tbody tr").all():
            name = row.locator("td").first.inner_text().strip()
            links[name] = row.locator("input.copyable").input_value()
        assert set(links) == set(ROLES6)
        assert len(set(links.values())) == 6 and all("/p/" in u for u in links.values())
        hp.click("text=К игре")
        assert "/host/games/" in hp.url
        gid = int(hp.url.rstrip("/").rsplit("/", 1)[1])

        # each player in a separate browser context (no shared cookies)
        pages = {}
        for name in ROLES6:
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            pg = ctx.new_page()
            pg.goto(links[name])
            assert pg.locator("h1").inner_text().startswith(name)
            pages[name] = pg
        # the forms offer exactly the engine's legal moves, and no form to a player
        # without a night move
        from mafiahost.host import Host
        _, g0 = Host(db).load(gid)
        for name, pg in pages.items():
            legal = {}
            from mafiahost.web.views import AGAINST_ONESELF
            for ab, ts in g0.legal_moves(name):     # less only a shot or check on oneself
                if ab in AGAINST_ONESELF and name in ts:
                    legal.setdefault(ab, set())
                    continue
                legal.setdefault(ab, set()).add(ts[0] if ts else None)
            shown = {}
            for form in pg.locator("form.move").all():
                ab = form.locator("input[name=ability]").input_value()
                opts = [o for o in form.locator("select option").all_inner_texts()
                        if o != "—"]                 # the placeholder: nothing preselected
                shown[ab] = set(opts) if opts else {None}
            assert shown == legal, name
        moves = [("Анна", "check", "Борис"), ("Борис", "cover", "Вера"),
                 ("Вера", "kill", "Дина"), ("Глеб", "heal", "Дина")]
        for name, ability, target in moves:
            pg = pages[name]
            form = pg.locator(f"form.move:has(input[name=ability][value={ability}])")
            form.locator("select").first.select_option(label=target)
            with pg.expect_navigation():
                form.locator("button[type=submit]").click()
            # the stored move's acknowledgement (the page also lists moves already sent)
            assert pg.locator(".flash.ok", has_text="Ход принят").count() == 1, name
        # a refused move shows the rule's own sentence: the commissar cannot act twice
        pg = pages["Анна"]
        assert pg.locator("form.move:has(input[value=shoot]) .why").count() == 1
        assert "ход в этой фазе уже есть" in pg.locator(
            "form.move:has(input[value=shoot]) .why").inner_text()
        pages["Дина"].screenshot(path=str(SHOTS / "player-phone-before.png"), full_page=True)

        # the host sees every move, previews with causes, resolves
        hp.goto(f"{srv.url}/host/games/{gid}")
        moves_text = hp.locator("ol.moves").inner_text()
        for name, ability, _target in moves:         # in words: the role sheet's names
            title = g0.rules.abilities[f"{ROLES6[name]}.{ability}"].name_ru
            assert f"{name} — {title}" in moves_text and ability not in moves_text
        hp.screenshot(path=str(SHOTS / "host-desktop.png"), full_page=True)
        hp.click("text=Предпросмотр итогов")
        assert "ПРЕДПРОСМОТР" not in hp.content()          # the page, not the CLI banner
        causes = hp.locator("ul.causes").inner_text()     # what will happen, in sentences
        assert "Анна проверяет Бориса" in causes and "check_result" not in causes
        hp.on("dialog", lambda d: d.accept())
        hp.click("form[action$='/resolve'] button")
        assert hp.url.endswith("/posts")
        assert "BBCode" in hp.content()
        latest = hp.locator("#latest textarea").first.input_value()
        assert "Утро после ночи 1" in latest

        # each player's page updated by itself (server-sent events), with their own results
        from mafiahost.host import Host
        from mafiahost.render import posts
        h = Host(db)
        _, g = h.load(gid)
        expected = {n: posts.private_messages(g, g.events, n, "ru", "plain") for n in ROLES6}
        assert "Борис" in expected["Анна"]          # the check result
        for name, pg in pages.items():
            pg.wait_for_function("document.body.getAttribute('data-updated') !== null",
                                 timeout=10000)
            pg.wait_for_selector("text=День 1", timeout=10000)
            text = _results(pg)
            own = expected[name]
            for line in own.splitlines():
                assert line.strip() in text, (name, line)
            for other, theirs in expected.items():
                if other == name:
                    continue
                for line in theirs.splitlines():
                    line = line.strip()
                    if line and line not in own and not line.endswith(":"):
                        assert line not in text, (name, other, line)
            if not own:
                assert "Личных сообщений пока нет" in text
        pages["Анна"].screenshot(path=str(SHOTS / "player-phone.png"), full_page=True)
        # the same pages on the other viewport
        hp.goto(f"{srv.url}/host/games/{gid}")
        hp.set_viewport_size(PHONE)
        hp.screenshot(path=str(SHOTS / "host-phone.png"), full_page=True)
        pd = browser.new_context(viewport=DESKTOP).new_page()
        pd.goto(links["Анна"] + "?lang=en")
        assert "Your private results" in pd.content()
        pd.screenshot(path=str(SHOTS / "player-desktop-en.png"), full_page=True)
    for f in ("host-desktop.png", "host-phone.png", "player-phone.png",
              "player-desktop-en.png"):
        assert Path(SHOTS / f).stat().st_size > 10_000
