#!/usr/bin/env python3
"""Checks the documentation's relative Markdown links.

    python3 scripts/doclinks.py

For every Markdown link and image in docs/**/*.md, README.md and CHANGELOG.md whose target is
relative (not http(s), mailto or another scheme), it checks that the target file exists and,
for a `#anchor`, that the target page has a heading with that id, computed as mdBook computes
it: the heading's text (code spans, emphasis and links reduced to their text), lowercased,
alphanumerics, `-` and `_` kept, each whitespace character turned into `-`, every other
character dropped; a repeated id gets `-1`, `-2`, ... in order. An explicit `{#id}` on a
heading, and `<a id="...">` or `<a name="...">` anchors, count too. Links inside code spans
and fenced code blocks are not links and are skipped. It also checks that every .md file under
docs/ is listed in docs/SUMMARY.md, so that no page of the book is an orphan.

Prints each problem as `FILE:LINE: link -> why` and exits 1 if there is any; otherwise prints
one line with the counts and exits 0. Standard library only.
"""

import os
import re
import sys
from urllib.parse import unquote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
SUMMARY = os.path.join(DOCS, "SUMMARY.md")

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
EXPLICIT_ID = re.compile(r"\s*\{#([^}\s]+)\}\s*$")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.S)
# [text](target "title") or ![alt](target); one level of nested brackets in the text.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
REF_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)", re.M)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def sources():
    """The Markdown files whose links are checked, as absolute paths."""
    files = []
    for base, dirs, names in os.walk(DOCS):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".md"):
                files.append(os.path.join(base, n))
    for n in ("README.md", "CHANGELOG.md"):
        p = os.path.join(ROOT, n)
        if os.path.isfile(p):
            files.append(p)
    return files


def prose(text):
    """`text` with fenced code blocks and code spans blanked out (newlines kept, so offsets
    and line numbers stay those of the file), and the list of its lines outside fences."""
    out = []
    fence = None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append(" " * len(line))
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and line.strip() == m.group(1):
                fence = None
            out.append(" " * len(line))
        else:
            out.append(line)
    joined = "\n".join(out)
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), joined)


def heading_text(raw):
    """A heading's text as it renders, markup reduced to the text."""
    t = re.sub(r"[ \t]+#+[ \t]*$", "", raw)  # closing hashes
    t = re.sub(r"`+", "", t)
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", t)  # links and images: their text
    t = re.sub(r"<[^>]+>", "", t)  # inline HTML tags
    t = re.sub(r"(\*+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9]))", "", t)  # emphasis markers
    return t.strip()


def normalize_id(text):
    """mdBook's rule: alphanumerics, '-' and '_' kept (ASCII lowercased), whitespace to '-',
    the rest dropped."""
    out = []
    for ch in text:
        if ch.isalnum() or ch in "-_":
            out.append(ch.lower() if ch.isascii() else ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


_anchor_cache = {}


def anchors(path):
    """Every id a link may name in the Markdown file `path`."""
    if path in _anchor_cache:
        return _anchor_cache[path]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    ids = set()
    counts = {}
    fence = None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and line.strip() == m.group(1):
                fence = None
            continue
        for a in HTML_ANCHOR.findall(line):
            ids.add(a)
        h = HEADING.match(line)
        if not h:
            continue
        raw = h.group(2) or ""
        e = EXPLICIT_ID.search(raw)
        if e:
            ids.add(e.group(1))
            continue
        base = normalize_id(heading_text(raw))
        n = counts.get(base)
        if n is None:
            counts[base] = 0
            ids.add(base)
        else:
            counts[base] = n + 1
            ids.add(f"{base}-{n + 1}")
    _anchor_cache[path] = ids
    return ids


def links(path):
    """(line, target) for every link and reference definition in `path` outside code."""
    with open(path, encoding="utf-8") as f:
        text = prose(f.read())
    found = []
    for rx in (INLINE_LINK, REF_DEF):
        for m in rx.finditer(text):
            target = m.group(m.lastindex)
            line = text.count("\n", 0, m.start()) + 1
            found.append((line, target))
    found.sort()
    return found


def check(path, target):
    """Why the link `target` from `path` is broken, or None."""
    t = target
    if t.startswith("<") and t.endswith(">"):
        t = t[1:-1]
    if not t or SCHEME.match(t) or t.startswith("//"):
        return None  # a URL: not checked here
    file_part, _, anchor = t.partition("#")
    file_part = unquote(file_part)
    if file_part:
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not os.path.exists(dest):
            return "no such file"
    else:
        dest = path
    if anchor and dest.endswith(".md") and os.path.isfile(dest):
        if unquote(anchor) not in anchors(dest):
            return f"no heading with id '{anchor}' in {os.path.relpath(dest, ROOT)}"
    return None


def main():
    problems = []
    checked = 0
    files = sources()
    for path in files:
        rel = os.path.relpath(path, ROOT)
        for line, target in links(path):
            why = check(path, target)
            t = target.strip("<>")
            if not (SCHEME.match(t) or t.startswith("//")):
                checked += 1
            if why:
                problems.append(f"{rel}:{line}: {target} -> {why}")
    # Every page of the book is listed in its SUMMARY.md.
    listed = set()
    if os.path.isfile(SUMMARY):
        for _, target in links(SUMMARY):
            t = target.strip("<>").partition("#")[0]
            if t and not SCHEME.match(t):
                listed.add(os.path.normpath(os.path.join(DOCS, unquote(t))))
    else:
        problems.append("docs/SUMMARY.md:1: SUMMARY.md -> missing")
    pages = [p for p in files if p.startswith(DOCS + os.sep) and p != SUMMARY]
    for p in pages:
        if os.path.normpath(p) not in listed:
            rel = os.path.relpath(p, ROOT)
            problems.append(f"{rel}:1: {os.path.relpath(p, DOCS)} -> not listed in docs/SUMMARY.md")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} broken of {checked} relative links in {len(files)} files",
              file=sys.stderr)
        return 1
    print(f"doclinks: {checked} relative links in {len(files)} files, all good; "
          f"{len(pages)} pages, all in docs/SUMMARY.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
