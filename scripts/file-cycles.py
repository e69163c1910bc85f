#!/usr/bin/env python3
"""Finds circles of references between the source files of a Rust crate.

    python3 scripts/file-cycles.py [--allow FILE] SRC_DIR...

For each SRC_DIR (a crate's `src/`), every `.rs` file is mapped to the module it defines
(`lib.rs` or `main.rs`: the crate root; `a/mod.rs` and `a.rs`: `a`; `a/b.rs`: `a::b`). The
paths a file names, in `use` items and inline in code, are collected: those that start with
`crate`, `$crate`, `super` or `self`, with a child module's name, or with a name a `use` item
bound to a module. Comments, string literals and `#[cfg(test)]` items are skipped. Each path
goes to the file of the deepest module on it; when that file only imports the next name (a
re-export such as `pub use x::Y`, or a glob), the path follows the import to the file that
defines the item. So a file's edges go to the files whose items it uses: a parent `mod.rs`
that declares or re-exports its children is no edge from a child to it.

Every strongly connected component of more than one file is a circle: it is printed with the
references that make it, and the exit status is 1. `--allow FILE` names a file whose lines
(blank lines and `#` comments aside) each list the files of one allowed circle, separated by
spaces, as this script prints them; those circles are shown but do not fail. Standard
library only.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
ITEM_DEF = re.compile(
    r"\b(?:fn|struct|enum|trait|type|const|static|union|mod)\s+(" + IDENT + r")"
    r"|\bmacro_rules!\s*(" + IDENT + r")"
)
MOD_DECL = re.compile(r"\bmod\s+(" + IDENT + r")\s*;")
# A path in code: a first segment, then `::` segments (generic arguments end it).
INLINE_PATH = re.compile(
    r"(?<![A-Za-z0-9_:$])(\$?" + IDENT + r")((?:\s*::\s*" + IDENT + r")+)"
)
VIS_IN = re.compile(r"\bpub\s*\(\s*in\s+[^)]*\)")
CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
USE = re.compile(r"(?<![A-Za-z0-9_])use\s")
PUB_BEFORE = re.compile(r"\bpub\s*(?:\([^)]*\))?\s*\Z")


def blank(text):
    """`text` with comments, string, byte-string and char literals turned into spaces
    (newlines kept, so offsets give the file's line numbers)."""
    out = list(text)
    i, n = 0, len(text)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c in "rbc" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.compile(r"(?:br|cr|r)(#*)\"|[bc]?\"").match(text, i)
            if m and m.group(0).startswith(("r", "br", "cr")) and m.group(0).endswith('"'):
                close = '"' + m.group(1)
                j = text.find(close, m.end())
                j = n if j < 0 else j + len(close)
                wipe(i, j)
                i = j
            elif m:
                i = skip_string(text, m.end(), wipe, i)
            elif text.startswith("b'", i):
                i = skip_char(text, i + 1, wipe, i)
            else:
                i += 1
        elif c == '"':
            i = skip_string(text, i + 1, wipe, i)
        elif c == "'":
            i = skip_char(text, i, wipe, i)
        else:
            i += 1
    return "".join(out)


def skip_string(text, j, wipe, start):
    """Wipes a string literal whose body starts at `j`; returns the offset after it."""
    n = len(text)
    while j < n and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    wipe(start, min(j + 1, n))
    return j + 1


def skip_char(text, q, wipe, start):
    """At a quote `q`: wipes a char literal, or steps over a lifetime's quote."""
    if text.startswith("\\", q + 1):
        j = q + 2
        while j < len(text) and text[j] != "'":
            j += 1
        wipe(start, j + 1)
        return j + 1
    if q + 2 < len(text) and text[q + 2] == "'":
        wipe(start, q + 3)
        return q + 3
    return q + 1


def drop_cfg_test(code):
    """`code` with every `#[cfg(test)]` item (a `mod tests { ... }`, a `use`) blanked: up to
    the `;` or the closing brace that ends it."""
    out = list(code)
    for m in reversed(list(CFG_TEST.finditer(code))):
        j, depth = m.end(), 0
        while j < len(code):
            ch = code[j]
            j += 1
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0 and ch == "}":
                    break
            elif ch == ";" and depth == 0:
                break
        for k in range(m.start(), j):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def parse_use_tree(s, i, prefix, acc):
    """Parses a use tree in `s` from `i`; appends (segments, alias or None or '*') to `acc`.
    Returns the offset after the tree."""
    segs = list(prefix)
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if s.startswith("{", i):
            i += 1
            while True:
                while i < len(s) and s[i] in " \t\n\r,":
                    i += 1
                if i >= len(s) or s[i] == "}":
                    return i + 1
                i = parse_use_tree(s, i, segs, acc)
        if s.startswith("*", i):
            acc.append((segs, "*"))
            return i + 1
        if s.startswith("::", i):
            i += 2
            continue
        m = re.compile(r"\$?" + IDENT).match(s, i)
        if not m:
            return i + 1
        i = m.end()
        name = m.group(0)
        j = i
        while j < len(s) and s[j].isspace():
            j += 1
        if s.startswith("::", j):
            segs = segs + [name]
            i = j + 2
            continue
        alias = None
        am = re.compile(r"\s+as\s+(" + IDENT + r")").match(s, i)
        if am:
            alias, i = am.group(1), am.end()
        if name == "self" and segs:
            acc.append((segs, alias or segs[-1]))
        else:
            acc.append((segs + [name], alias or name))
        return i


class Crate:
    """The files of one crate's `src/` and what each names."""

    def __init__(self, src):
        self.src = src
        self.files = {}  # relative file -> module path (tuple)
        self.module_file = {}  # module path -> relative file
        self.code = {}
        for base, dirs, names in os.walk(src):
            dirs.sort()
            for name in sorted(names):
                if not name.endswith(".rs"):
                    continue
                full = os.path.join(base, name)
                rel = os.path.relpath(full, src).replace(os.sep, "/")
                parts = rel[:-3].split("/")
                if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
                    parts = parts[:-1]
                mod = tuple(parts)
                if rel == "main.rs" and os.path.exists(os.path.join(src, "lib.rs")):
                    mod = ("<bin>",)  # a second crate: its `crate::` is itself
                elif parts and parts[0] == "bin":
                    continue
                self.files[rel] = mod
                self.module_file.setdefault(mod, rel)
                with open(full, encoding="utf-8") as f:
                    text = f.read()
                self.code[rel] = VIS_IN.sub(lambda m: " " * len(m.group(0)),
                                            drop_cfg_test(blank(text)))
        self.defined = {}
        self.imports = {}  # file -> {name: absolute path}
        self.globs = {}  # file -> [absolute module paths]
        self.refs = {}  # file -> [(line, absolute path)]
        for rel in self.files:
            self.scan(rel)

    def root_of(self, rel):
        return ("<bin>",) if self.files[rel] == ("<bin>",) else ()

    def absolute(self, rel, segs, names):
        """`segs` made absolute from the module of `rel`, or None for another crate's path.
        `names` maps this file's imported names to absolute paths."""
        mod = self.files[rel]
        here = () if mod == ("<bin>",) else mod
        root = self.root_of(rel)
        first, rest = segs[0], list(segs[1:])
        if first in ("crate", "$crate"):
            return root + tuple(rest)
        if first in ("self", "super"):
            base = list(here)
            while segs and segs[0] in ("self", "super"):
                if segs[0] == "super":
                    if not base:
                        return None
                    base.pop()
                segs = segs[1:]
            return root + tuple(base) + tuple(segs)
        if root + here + (first,) in self.module_file:
            return root + here + tuple(segs)
        if first in names:
            return tuple(names[first]) + tuple(rest)
        return None

    def scan(self, rel):
        code = self.code[rel]
        self.defined[rel] = {a or b for a, b in ITEM_DEF.findall(code)}
        trees = []
        use_spans = []
        for m in USE.finditer(code):
            acc = []
            end = parse_use_tree(code, m.end(), [], acc)
            use_spans.append((m.start(), end))
            line = code.count("\n", 0, m.start()) + 1
            public = bool(PUB_BEFORE.search(code[max(0, m.start() - 40):m.start()]))
            trees.extend((line, segs, alias, public) for segs, alias in acc)
        outside, last = [], 0
        for a, b in use_spans:
            outside.append(code[last:a])
            last = max(last, b)
        outside.append(code[last:])
        words = set(re.findall(IDENT, " ".join(outside)))
        names, globs, refs = {}, [], []
        # Twice, so that a `use` may start with a name an earlier `use` bound.
        for _ in range(2):
            for line, segs, alias, public in trees:
                if not segs:
                    continue
                path = self.absolute(rel, segs, names)
                if path is None:
                    continue
                if alias == "*":
                    if path not in globs:
                        globs.append(path)
                elif alias != "_":
                    names[alias] = path
        for line, segs, alias, public in trees:
            # A re-export (`pub use`) is no use of the item unless the file names it too.
            if public and alias not in words:
                continue
            path = self.absolute(rel, segs, names) if segs else None
            if path is not None:
                refs.append((line, path))
        for m in INLINE_PATH.finditer(code):
            if any(a <= m.start() < b for a, b in use_spans):
                continue
            segs = [m.group(1)] + re.findall(IDENT, m.group(2))
            path = self.absolute(rel, segs, names)
            if path is not None:
                refs.append((code.count("\n", 0, m.start()) + 1, path))
        self.imports[rel], self.globs[rel], self.refs[rel] = names, globs, refs

    def target(self, path, depth=0):
        """The file that defines the item at absolute `path` (a module's own file for a module),
        following imports and globs through files that only re-export it."""
        k = len(path)
        while k > 0 and tuple(path[:k]) not in self.module_file:
            k -= 1
        if k == 0 and () not in self.module_file:
            return None
        f = self.module_file[tuple(path[:k])]
        if k == len(path) or depth > 16:
            return f
        name = path[k]
        if name in self.defined[f]:
            return f
        if name in self.imports[f]:
            t = self.target(tuple(self.imports[f][name]) + tuple(path[k + 1:]), depth + 1)
            return t or f
        for g in self.globs[f]:
            gm = self.module_file.get(tuple(g))
            if gm and (name in self.defined[gm] or name in self.imports[gm]):
                return self.target(tuple(g) + tuple(path[k:]), depth + 1) or f
        return f

    def edges(self):
        """{file: {file: [(line, path)]}}, self-references left out."""
        out = {f: {} for f in self.files}
        for f, refs in self.refs.items():
            for line, path in refs:
                t = self.target(path)
                if t and t != f:
                    out[f].setdefault(t, []).append((line, "::".join(path)))
        return out


def components(graph):
    """The strongly connected components of `graph` (Tarjan's algorithm, iterative)."""
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(sorted(comp))
    return comps


def main(argv):
    allow_file, dirs = None, []
    it = iter(argv)
    for a in it:
        if a == "--allow":
            allow_file = next(it, None)
            if allow_file is None:
                sys.exit("--allow needs a file")
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            dirs.append(a)
    if not dirs:
        sys.exit("usage: file-cycles.py [--allow FILE] SRC_DIR...")
    allowed = set()
    if allow_file:
        with open(allow_file, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if line:
                    allowed.add(frozenset(line))
    bad = shown = files = 0
    for d in dirs:
        if not os.path.isdir(d):
            sys.exit(f"{d}: not a directory")
        crate = Crate(d)
        files += len(crate.files)
        graph = crate.edges()
        for comp in components(graph):
            if len(comp) < 2:
                continue
            shown += 1
            names = [os.path.join(d, c).replace(os.sep, "/") for c in comp]
            ok = frozenset(names) in allowed
            bad += not ok
            print(("allowed circle: " if ok else "circle: ") + " ".join(names))
            for a in comp:
                for b in comp:
                    for line, path in graph[a].get(b, [])[:3]:
                        print(f"  {d}/{a}:{line} -> {b} ({path})")
                    extra = len(graph[a].get(b, [])) - 3
                    if extra > 0:
                        print(f"  {d}/{a} -> {b}: {extra} more")
    if bad:
        return 1
    print(f"file-cycles: {files} files in {len(dirs)} crates, "
          + (f"no circle but the {shown} allowed" if shown else "no circles"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
