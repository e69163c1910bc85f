"""How fast the static page's engine (WebAssembly, in headless Chromium) is beside the native
command, in the same run: the empty board's seven scores from the book, and one solve of a
mid-game position, on one thread both.

    python3 scripts/web/measure.py CUTOFF CHROMIUM STATIC_DIR [POSITION]

CUTOFF is the native binary, STATIC_DIR the folder scripts/web/build.sh writes, POSITION a
Connect Four position (default 4453673, eight plies past the book). Needs the Playwright
package (scripts/browser/ci.sh makes a virtual environment with it). Prints the WebAssembly
module's size and, for each call, the seconds in the browser (through the page's worker, as
the page asks) and natively.
"""

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import time

from playwright.sync_api import sync_playwright


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    cutoff, chromium, folder = sys.argv[1:4]
    pos = sys.argv[4] if len(sys.argv) > 4 else "4453673"
    wasm = os.path.join(folder, "cutoff_web_bg.wasm")
    print(f"WebAssembly module: {os.path.getsize(wasm) / 1024:.0f} KiB")
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=folder)
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        started = time.monotonic()
        page.goto(url + "?view=tree")
        page.wait_for_selector("body[data-engine=browser]")
        page.wait_for_selector("#tree-drawing g")
        print(f"page loaded, engine started, exercise tree traced: {time.monotonic() - started:.2f} s")

        def timed(call):
            # The page's own call, through its worker; the seconds as the page sees them.
            return page.evaluate(
                """async (url) => {
                    const t = performance.now();
                    const j = await answer(url);
                    return [(performance.now() - t) / 1000, j];
                }""",
                call,
            )

        secs, j = timed("api/analyse?game=connect4")
        print(f"browser: the seven book scores {[m['value'] for m in j['moves']]}: {secs:.3f} s")
        secs, j = timed(f"api/solve?game=connect4&pos={pos}")
        print(f"browser: solve {pos}: value {j['value']}, {j['nodes']} nodes, {secs:.2f} s "
              f"({j['nodes'] / secs / 1e6:.2f} M nodes/s)")
        browser.close()
    httpd.shutdown()
    for args in (["analyse", "connect4", "--book", "builtin", "--threads", "1", "--json"],
                 ["solve", "connect4", pos, "--threads", "1", "--json"]):
        started = time.monotonic()
        out = subprocess.run([cutoff, *args], check=True, capture_output=True, text=True)
        secs = time.monotonic() - started
        j = json.loads(out.stdout)
        what = "the seven book scores" if args[0] == "analyse" else f"solve {pos}"
        print(f"native: {what}: value {j['value']}, {j['nodes']} nodes, {secs:.2f} s "
              f"({j['nodes'] / secs / 1e6:.2f} M nodes/s)")


if __name__ == "__main__":
    main()
