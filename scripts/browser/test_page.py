"""End-to-end test of `cutoff serve` in a real browser: Debian's Chromium, headless, driven
by Playwright (the Python package, which brings its own driver; no browser is downloaded:
the system's Chromium is launched by path).

    python3 scripts/browser/test_page.py CUTOFF CHROMIUM [SCREENSHOT_DIR]

It starts `CUTOFF serve --port 0`, opens the page, checks the empty board's seven scores
(from the opening book, the published ones), plays 4453 by clicking the columns (two
people, so that the solver does not answer), waits for the scores, and checks each column's
score on the board and in the table against `CUTOFF analyse connect4 4453 --json` (and the
progress line while they are solved); then it
loads the position from its URL, checks that undo takes the last move back, takes a
screenshot of the play view, and plays a whole game against the solver, which must answer
every move, until the page says the game is over. Then the alpha-beta view: the exercise tree stepped through
with alpha-beta evaluates 7 leaves and draws 1.2.3-1.2.5 and 2.2 as pruned; minimax
evaluates all 12; the chance tree with Star1 and Star2 and the three-player tree with max^n
show their cuts and values. Other boards: a 5x4 position from its link (five columns, the
scores `CUTOFF analyse ... --board 5x4` gives, the board kept in the link after a move), a
10x4 position with commas, and a new 6x5 game from the Board field.

With `--static DIR` (the folder scripts/web/build.sh writes), the same page from a static
server (Python's http.server on 127.0.0.1, no API behind it) runs the engine in the browser,
in WebAssembly: it must find no server and say so, show the empty board's seven scores from
the book (those the server gives for the same request, nodes 0), the scores of a position
past the book (those the server gives), play a whole game against the in-browser solver, and
step through the exercise tree and the other trees as above. Exit status 0 when every check
holds.
"""

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request

from playwright.sync_api import expect, sync_playwright


def main():
    args = sys.argv[1:]
    static = None
    if "--static" in args:
        i = args.index("--static")
        static = args[i + 1]
        del args[i : i + 2]
    cutoff, chromium = args[0], args[1]
    shots = args[2] if len(args) > 2 else None
    expected = json.loads(
        subprocess.run(
            [cutoff, "analyse", "connect4", "4453", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    want = {m["move"]: m["value"] for m in expected["moves"]}
    server = subprocess.Popen(
        [cutoff, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("cutoff serve: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1100, "height": 800})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            # The empty board's scores come from the opening book at once (solving them takes
            # over a minute): the published seven.
            page.goto(url + "?game=connect4")
            page.wait_for_selector('g[data-col="4"]')
            page.wait_for_selector("#scores tbody tr", timeout=10000)
            check_scores(page, {str(c + 1): v for c, v in enumerate([-2, -1, 0, 1, 0, -1, -2])})
            expect(page.locator("#progress")).to_contain_text("opening book")
            page.select_option("#opponent", "person")
            for col in "4453":
                page.click(f'g[data-col="{col}"]')
            assert page.inner_text("#pos") == "4453", page.inner_text("#pos")
            # Progress while the seven moves are solved: the move, nodes and node rate.
            expect(page.locator("#progress")).to_contain_text("of 7", timeout=10000)
            expect(page.locator("#progress")).to_contain_text("M nodes/s")
            page.wait_for_selector("#scores tbody tr", timeout=60000)
            check_scores(page, want)
            # The URL holds the position: a fresh load shows the same scores.
            assert page.url.endswith("pos=4453"), page.url
            page.goto(page.url)
            page.wait_for_selector("#scores tbody tr", timeout=60000)
            check_scores(page, want)
            if shots:
                os.makedirs(shots, exist_ok=True)
                page.screenshot(path=os.path.join(shots, "play.png"))
            page.select_option("#opponent", "person")
            page.click("#undo")
            expect(page.locator("#pos")).to_have_text("445")
            # Against the solver from the empty board: it answers within its 3 s budget.
            page.goto(url + "?game=connect4")
            page.wait_for_selector('g[data-col="4"]')
            page.click('g[data-col="4"]')
            expect(page.locator("#pos")).to_have_text(re.compile(r"^4[1-7]$"), timeout=15000)
            play_a_game(page)
            check_other_boards(page, url, cutoff)
            check_tree(page, url, shots)
            assert not errors, errors
            if static:
                check_static(browser, static, url, shots)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print("ok: the page plays 4453 and shows the seven scores `cutoff analyse` gives")
    if static:
        print("ok: the static page, with the engine in WebAssembly, shows the book's seven "
              "scores and the server's, plays a game to its end and steps through the trees")


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Python's static file server, without a log line per request."""

    def log_message(self, *args):
        pass


def server_json(url):
    """The server's JSON answer at `url`."""
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.load(r)


def check_static(browser, folder, server_url, shots):
    """The static page: the engine in the browser, checked against the server's answers."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=folder)
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # The one answer that may fail: api/health, which finds no server (the browser logs
        # its 404 as a console error).
        page.on("console", lambda m: errors.append(m.text) if m.type == "error"
                and not m.text.startswith("Failed to load resource") else None)
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400
                and not r.url.endswith("/api/health") else None)
        # The empty board: no server answers api/health, so the engine runs here; its seven
        # scores are the book's, as the server gives them.
        book = server_json(server_url + "api/analyse?game=connect4")
        assert book["nodes"] == 0, book
        started = time.monotonic()
        page.goto(url + "?game=connect4")
        page.wait_for_selector("body[data-engine=browser]", timeout=10000)
        page.wait_for_selector("#scores tbody tr", timeout=30000)
        seconds = time.monotonic() - started
        check_scores(page, {m["move"]: m["value"] for m in book["moves"]})
        expect(page.locator("#progress")).to_contain_text("opening book")
        print(f"static page: the seven scores from the book {seconds:.2f} s after loading")
        # Past the book: every move searched here, on one thread, as the server scores them.
        beyond = "44536734"
        want = server_json(server_url + f"api/analyse?game=connect4&pos={beyond}")
        started = time.monotonic()
        page.goto(url + f"?game=connect4&pos={beyond}")
        page.wait_for_selector("#scores tbody tr", timeout=120000)
        seconds = time.monotonic() - started
        check_scores(page, {m["move"]: m["value"] for m in want["moves"]})
        expect(page.locator("#progress")).to_contain_text("nodes in")
        print(f"static page: {beyond} analysed in the browser in {seconds:.1f} s")
        # A whole game against the in-browser solver.
        page.goto(url + "?game=connect4")
        page.wait_for_selector("#scores tbody tr", timeout=30000)
        page.click('g[data-col="4"]')
        expect(page.locator("#pos")).to_have_text(re.compile(r"^4[1-7]$"), timeout=15000)
        play_a_game(page)
        if shots:
            page.screenshot(path=os.path.join(shots, "static.png"))
        # The alpha-beta view, traced in the browser.
        check_tree(page, url, None)
        assert page.get_attribute("body", "data-engine") == "browser"
        assert not errors, errors
        page.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def check_other_boards(page, url, cutoff):
    """The page draws and plays other boards, with the board in its link."""
    small = json.loads(
        subprocess.run(
            [cutoff, "analyse", "connect4", "3", "--board", "5x4", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    page.goto(url + "?game=connect4&board=5x4&pos=3")
    page.wait_for_selector('g[data-col="5"]')
    assert page.locator('g[data-col="6"]').count() == 0
    page.wait_for_selector("#scores tbody tr", timeout=30000)
    check_scores(page, {m["move"]: m["value"] for m in small["moves"]})
    expect(page.locator("#pos")).to_have_text("3 on 5x4")
    page.select_option("#opponent", "person")
    page.click('g[data-col="5"]')
    expect(page.locator("#pos")).to_have_text("35 on 5x4")
    assert "board=5x4" in page.url and page.url.endswith("pos=35"), page.url
    # Wider than 9: the columns are written with commas.
    page.goto(url + "?game=connect4&board=10x4&pos=10%2C1")
    page.wait_for_selector('g[data-col="10"]')
    page.select_option("#opponent", "person")
    page.click('g[data-col="2"]')
    expect(page.locator("#pos")).to_have_text("10,1,2 on 10x4")
    # A new game on the board typed in the Board field.
    page.fill("#shape", "6x5")
    page.dispatch_event("#shape", "change")
    page.wait_for_selector('g[data-col="6"]')
    assert page.locator('g[data-col="7"]').count() == 0
    expect(page.locator("#pos")).to_have_text("(start) on 6x5")


def play_a_game(page):
    """Plays the game on to its end against the solver, the person taking the columns in
    turn (the next one with room), without waiting for the scores: the solver must answer
    every move, and the page must say who won once the game is over."""
    for turn in range(1, 22):
        pos = page.inner_text("#pos")
        if "Game over" in page.inner_text("#value") or len(pos) % 2 == 1:
            break
        cols = [c for c in "1234567" if pos.count(c) < 6]
        col = cols[turn % len(cols)]
        page.click(f'g[data-col="{col}"]')
        # The solver's reply (within its 3 s budget), or the end of the game.
        page.wait_for_function(
            "n => document.getElementById('pos').textContent.length === n "
            "|| document.getElementById('value').textContent.includes('Game over')",
            arg=len(pos) + 2,
            timeout=20000,
        )
    expect(page.locator("#value")).to_contain_text("Game over", timeout=60000)
    final = page.inner_text("#pos")
    assert len(final) >= 7, final


def check_tree(page, url, shots):
    """The alpha-beta view: the exercise tree stepped through to the end evaluates 7 leaves
    and draws 1.2.3, 1.2.4, 1.2.5 and 2.2 as pruned; stepping back undoes a step."""
    page.goto(url + "?view=tree")
    page.wait_for_selector('#tree-drawing g[data-name="1.2.3"]')
    expect(page.locator("#step")).to_contain_text("step 0 of")
    total = int(page.inner_text("#step").split(" of ")[1])
    page.click("#next")
    expect(page.locator("#event")).to_contain_text("enter")
    page.click("#last")
    expect(page.locator("#step")).to_have_text(f"step {total} of {total}")
    expect(page.locator("#counts")).to_contain_text("leaves evaluated: 7 ")
    pruned = page.eval_on_selector_all(
        "#tree-drawing g.pruned", "gs => gs.map(g => g.getAttribute('data-name'))"
    )
    assert pruned == ["1.2.3", "1.2.4", "1.2.5", "2.2"] or set(pruned) >= {
        "1.2.3", "1.2.4", "1.2.5", "2.2"
    }, pruned
    # 2.2's leaves are pruned with it; nothing else is.
    assert set(pruned) == {"1.2.3", "1.2.4", "1.2.5", "2.2", "2.2.1", "2.2.2"}, pruned
    if shots:
        page.screenshot(path=os.path.join(shots, "alphabeta.png"), full_page=True)
    page.click("#back")
    expect(page.locator("#step")).to_have_text(f"step {total - 1} of {total}")
    # Minimax evaluates all 12 leaves and prunes nothing.
    page.select_option("#algo", "minimax")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    page.click("#last")
    expect(page.locator("#counts")).to_contain_text("leaves evaluated: 12 ")
    assert page.eval_on_selector_all("#tree-drawing g.pruned", "gs => gs.length") == 0
    check_general_trees(page, shots)


def check_general_trees(page, shots):
    """Chance nodes and three players: the chance tree takes Star1 when picked, shows its six
    probabilities, evaluates 8 of 12 leaves with the value 3.5 and cuts B after its first
    outcome (a chance cut on 2.8), besides two decision cuts; Star2's probes cut both of B's
    outcomes with 7 leaves. The three-player tree takes max^n: the vector (3, 3, 4)."""
    page.select_option("#tree", "chance")
    expect(page.locator("#algo")).to_have_value("star1")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    assert page.eval_on_selector_all("#tree-drawing text.prob", "ts => ts.length") == 6
    assert page.eval_on_selector_all("#tree-drawing [data-kind=chance]", "gs => gs.length") == 3
    page.click("#last")
    expect(page.locator("#counts")).to_contain_text("leaves evaluated: 8 ")
    expect(page.locator("#counts")).to_contain_text("Value 3.5.")
    pruned = page.eval_on_selector_all(
        "#tree-drawing g.pruned", "gs => gs.map(g => g.getAttribute('data-name'))"
    )
    assert set(pruned) == {"2.1.2", "2.2", "2.2.1", "2.2.2", "3.2.2"}, pruned
    notes = page.eval_on_selector_all("#tree-drawing text.cutnote", "ts => ts.map(t => t.textContent)")
    assert "chance cut on 2.8" in notes, notes
    if shots:
        page.screenshot(path=os.path.join(shots, "chance.png"), full_page=True)
    page.select_option("#algo", "star2")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    page.click("#last")
    expect(page.locator("#counts")).to_contain_text("leaves evaluated: 7 ")
    page.select_option("#tree", "maxn3")
    expect(page.locator("#algo")).to_have_value("maxn")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    page.click("#last")
    expect(page.locator("#counts")).to_contain_text("Value (3, 3, 4).")
    assert page.eval_on_selector_all("#tree-drawing [data-kind='player 2']", "gs => gs.length") == 4


def check_scores(page, want):
    """Each column's score on the board and in the table is the one analyse gives."""
    rows = page.eval_on_selector_all(
        "#scores tbody tr",
        "rows => rows.map(r => [...r.children].map(td => td.textContent))",
    )
    table = {r[0]: int(r[1]) for r in rows}
    assert table == want, (table, want)
    for col, value in want.items():
        shown = page.text_content(f'g[data-col="{col}"] text.score')
        assert int(shown) == value, (col, shown, value)


if __name__ == "__main__":
    main()
