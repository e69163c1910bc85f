#!/usr/bin/env bash
# CI check of `cutoff serve` and of the static page in a real browser: installs Debian's
# Chromium and, in a virtual environment, the Playwright package (its driver only: the
# system's Chromium is launched by path, no browser is downloaded), then runs
# scripts/browser/test_page.py, on the server and on the static page (the engine in
# WebAssembly, from scripts/web/build.sh, served by Python's http.server).
#
#   bash scripts/browser/ci.sh [SCREENSHOT_DIR]
#
# Prints "SKIP: ..." and exits 0 only when Chromium or Playwright cannot be installed (not
# root, no apt-get, no network). Environment: CUTOFF (default target/release/cutoff),
# CHROMIUM (default: chromium on the PATH), VENV (default /tmp/cutoff-browser-venv), STATIC
# (the static page's folder, already built; default: built here into target/web).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cutoff=${CUTOFF:-$root/target/release/cutoff}
[[ $cutoff == /* ]] || cutoff=$PWD/$cutoff
venv=${VENV:-/tmp/cutoff-browser-venv}
shots=${1:-}

chromium=${CHROMIUM:-$(command -v chromium || true)}
if [[ -z $chromium ]]; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
        echo "SKIP: Chromium is not installed and cannot be installed here (needs root and apt-get)"
        exit 0
    fi
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends chromium python3-venv; } >/tmp/cutoff-browser-apt.log 2>&1; then
        echo "SKIP: apt-get could not install chromium: $(grep -E '^(E|W):' /tmp/cutoff-browser-apt.log | tail -n 1)"
        exit 0
    fi
    chromium=$(command -v chromium)
fi
# Debian's Python: a virtual environment keeps pip away from the system's packages.
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3)
if [[ ! -x $venv/bin/python ]]; then
    if ! "$py" -m venv "$venv" >/tmp/cutoff-browser-venv.log 2>&1; then
        if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                python3-venv >/dev/null 2>&1 || true
        fi
        "$py" -m venv "$venv" >/tmp/cutoff-browser-venv.log 2>&1 ||
            { echo "SKIP: cannot make a Python virtual environment: $(tail -n 1 /tmp/cutoff-browser-venv.log)"; exit 0; }
    fi
fi
if ! "$venv/bin/python" -c "import playwright" 2>/dev/null; then
    "$venv/bin/pip" install -q "playwright==1.65.2" >/tmp/cutoff-browser-pip.log 2>&1 ||
        { echo "SKIP: pip could not install playwright: $(tail -n 1 /tmp/cutoff-browser-pip.log)"; exit 0; }
fi
[[ -x $cutoff ]] || { echo "browser/ci.sh: no cutoff binary at $cutoff" >&2; exit 1; }
static=${STATIC:-}
if [[ -z $static ]]; then
    static=$root/target/web
    bash "$root/scripts/web/build.sh" "$static"
fi
"$venv/bin/python" "$here/test_page.py" --static "$static" "$cutoff" "$chromium" ${shots:+"$shots"}
