# Split files and shard results as hostile input (issue 27, finding 2): paths far deeper
# than the split, absurd header claims, results out of range, files that make merge
# quadratic or huge, paths that do not replay, a tree file changed after the split, FIFOs
# and impossible times. Sourced by scripts/attack.sh, in its shell: `attack`, `refuse`, `flagged`,
# `$bin`, `$n`, `$late`. Every case here must be refused: exit status 1 and one line
# "error: ...", not only no crash.

# sh.py MODE ...: edits split files and results as JSON (see each mode).
cat > sh.py <<'EOF'
import hashlib, json, os, sys

def read(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    return rows[0], rows[1:]

def write(path, h, lines, fix=True):
    if fix:
        h["frontier"] = len(lines)
        h["paths"] = sum(len(l["paths"]) for l in lines)
        for i, l in enumerate(lines):
            l["id"] = i
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in [h] + lines)
    open(path, "w").write(text)
    return hashlib.sha256(text.encode()).hexdigest()

def results(src, dst, digest):
    # Every result of folder src, pointed at the split with this digest, into dst.
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        r = json.load(open(os.path.join(src, f)))
        r["digest"] = digest
        json.dump(r, open(os.path.join(dst, f), "w"))

mode, args = sys.argv[1], sys.argv[2:]
if mode == "settle":
    # settle SPLIT RESULTS OUT OUTDIR: a later pass that solves nothing (every line known
    # exactly from RESULTS), with the one empty shard it has.
    h, lines = read(args[0])
    solved = {}
    for f in os.listdir(args[1]):
        for l in json.load(open(os.path.join(args[1], f)))["lines"]:
            solved[l["id"]] = l["value"]
    h["pass"], h["shards"] = 2, 1
    for l in lines:
        l["shard"] = None
        l["known"] = [solved[l["id"]]] * 2
    d = write(args[2], h, lines)
    r = json.load(open(os.path.join(args[1], os.listdir(args[1])[0])))
    r.update(digest=d, shard=0, shards=1, lines=[], nodes=0)
    os.makedirs(args[3], exist_ok=True)
    json.dump(r, open(os.path.join(args[3], "shard-00000.json"), "w"))
elif mode == "edit":
    # edit SPLIT RESULTS OUT OUTDIR CODE: CODE (Python) edits h and lines; the results are
    # pointed at the edited file.
    h, lines = read(args[0])
    exec(args[4])
    results(args[1], args[3], write(args[2], h, lines, fix="nofix" not in args[4]))
elif mode == "redigest":
    # redigest SPLIT RESULTS OUTDIR: the results pointed at SPLIT as it is.
    results(args[1], args[2], hashlib.sha256(open(args[0], "rb").read()).hexdigest())
elif mode == "result":
    # result DIR I CODE: CODE edits r, shard I's result in DIR.
    p = os.path.join(args[0], "shard-%05d.json" % int(args[1]))
    r = json.load(open(p))
    exec(args[2])
    json.dump(r, open(p, "w"))
EOF

if ! command -v python3 >/dev/null; then
  echo "shard.sh: no python3, split file cases skipped"
  return 0 2>/dev/null || exit 0
fi
edit() { python3 sh.py edit "$@"; }

# A pass that solves nothing, on a position with transpositions three plies down.
c4pos=274552224131661
"$bin" split connect4 "$c4pos" --depth 3 --shards 2 --out sh.base >/dev/null 2>&1
for i in 0 1; do "$bin" solve-shard sh.base --index "$i" --threads 1 -q >/dev/null 2>&1; done
python3 sh.py settle sh.base sh.base.results sh.set sh.set.r

# A path far deeper than the split: plan's walk once overflowed the stack.
edit sh.set sh.set.r sh.deep sh.deep.r 'lines[:] = lines[:1]; lines[0]["known"] = h["range"]; lines[0]["paths"] = [["1"] * 1000000]'
refuse "plan with a path of a million moves" plan sh.deep sh.deep.r --out sh.next
refuse "merge with a path of a million moves" merge sh.deep sh.deep.r

# Absurd header claims.
edit sh.set sh.set.r sh.trillion sh.trillion.r 'h["shards"] = 10**12  # nofix'
mkdir -p sh.none
refuse "merge, a trillion shards" merge sh.trillion sh.none
refuse "solve-shard, a trillion shards" solve-shard sh.trillion --index 0 --out sh.none
refuse "plan, a trillion shards" plan sh.trillion sh.none --out sh.next
edit sh.set sh.set.r sh.range sh.range.r 'h["range"] = [-2**31, 2**31 - 1]  # nofix'
refuse "plan, range to the ends of i32" plan sh.range sh.range.r --out sh.next
refuse "merge, range to the ends of i32" merge sh.range sh.range.r
edit sh.set sh.set.r sh.depth sh.depth.r 'h["depth"] = 2**40  # nofix'
refuse "merge, depth 2^40" merge sh.depth sh.depth.r
edit sh.set sh.set.r sh.paths sh.paths.r 'h["paths"] = 3000000  # nofix'
refuse "merge, three million paths claimed" merge sh.paths sh.paths.r
edit sh.set sh.set.r sh.pass sh.pass.r 'h["pass"] = 2**32 - 1  # nofix'
refuse "plan, the last pass number" plan sh.pass sh.pass.r --out sh.next
edit sh.set sh.set.r sh.prior sh.prior.r 'h["prior_seconds"] = -1e308  # nofix'
refuse "merge, negative earlier time" merge sh.prior sh.prior.r
edit sh.set sh.set.r sh.known sh.known.r 'lines[0]["known"] = [-2**31, -2**31]  # nofix'
refuse "merge, a known value at i32::MIN" merge sh.known sh.known.r

# Results out of range, out of their window, with impossible times and counts.
cp -r sh.base.results sh.res
for code in 'r["lines"][0]["value"] = -2**31' 'r["lines"][0].update(bound="lower", value=-2**31)' \
  'r["lines"][0].update(bound="upper", value=2**31 - 1)' 'r["lines"][0].update(bound="lower", pv=[])' \
  'r["lines"][0]["pv"] = ["9"]' 'r["seconds"] = -1e308' 'r["seconds"] = -1.0' 'r["lines"][0]["ms"] = -5.0' \
  'r["lines"][0]["nodes"] = 2**64 - 1; r["nodes"] = 2**64 - 1' 'r["window"] = [5, 1]'; do
  rm -rf sh.res && cp -r sh.base.results sh.res
  python3 sh.py result sh.res 0 "$code"
  refuse "merge, a result with ${code:0:40}" merge sh.base sh.res
done

# Many lines each leaving the root by its own move (merge's tree was quadratic), and one
# path of 40 MB (gigabytes once read).
edit sh.set sh.set.r sh.wide sh.wide.r 'lines[:] = [dict(lines[0], paths=[["m%d" % i]]) for i in range(300000)]'
refuse "merge, 300000 lines off the root" merge sh.wide sh.wide.r
refuse "plan, 300000 lines off the root" plan sh.wide sh.wide.r --out sh.next
edit sh.set sh.set.r sh.big sh.big.r 'lines[0]["paths"] = [["4"] * 11000000]'
refuse "merge, a 40 MB path" merge sh.big sh.big.r

# Paths that do not replay: an illegal move, a path deeper than the split, a transposition
# that is not one, a move left out, a move written otherwise, a wrong position, a line twice.
multi='k = next(i for i, l in enumerate(lines) if len(l["paths"]) > 1)'
edit sh.set sh.set.r sh.illegal sh.illegal.r "$multi"'; lines[k]["paths"][1][2] = "9"'
refuse "merge, an illegal move" merge sh.illegal sh.illegal.r
edit sh.set sh.set.r sh.deeper sh.deeper.r "$multi"'; lines[k]["paths"][1].append("1")'
refuse "merge, a path deeper than the split" merge sh.deeper sh.deeper.r
edit sh.set sh.set.r sh.false sh.false.r "$multi"'; o = next(i for i, l in enumerate(lines) if i != k and len(l["paths"]) == 1); lines[k]["paths"].append(lines[o]["paths"][0]); del lines[o]'
refuse "merge, a false transposition" merge sh.false sh.false.r
edit sh.set sh.set.r sh.gone sh.gone.r 'g = lines[0]["paths"][0][0]; lines[:] = [dict(l, paths=[p for p in l["paths"] if p[0] != g]) for l in lines if l["paths"][0][0] != g]'
refuse "merge, a move of the split position left out" merge sh.gone sh.gone.r
edit sh.set sh.set.r sh.spaced sh.spaced.r 'lines[0]["paths"][0][0] += " "'
refuse "merge, a move written with a space" merge sh.spaced sh.spaced.r
edit sh.set sh.set.r sh.pos sh.pos.r 'lines[0]["position"] = "44"'
refuse "merge, a wrong position" merge sh.pos sh.pos.r
edit sh.set sh.set.r sh.twice sh.twice.r 'lines.append(dict(lines[0]))'
refuse "merge, a line twice" merge sh.twice sh.twice.r

# A line whose path ends where other lines' paths go on: refused first or last.
"$bin" split tictactoe --depth 2 --out sh.ttt >/dev/null 2>&1
"$bin" solve-shard sh.ttt --index 0 --threads 1 -q >/dev/null 2>&1
python3 sh.py settle sh.ttt sh.ttt.results sh.tset sh.tset.r
prefix='p = dict(lines[0], paths=[["5"]], position=".../.X./...", known=[0, 0])'
edit sh.tset sh.tset.r sh.first sh.first.r "$prefix"'; lines.insert(0, p)'
refuse "merge, a prefix line first" merge sh.first sh.first.r
edit sh.tset sh.tset.r sh.last sh.last.r "$prefix"'; lines.append(p)'
refuse "merge, a prefix line last" merge sh.last sh.last.r

# A tree file changed after the split: every pass refuses it.
printf '((3 11) (2 13 7 8 6)) ((0 4 5) (1 15))\n' > sh.tree
"$bin" split tree sh.tree --depth 2 --shards 2 --out sh.tsplit >/dev/null 2>&1
for i in 0 1; do "$bin" solve-shard sh.tsplit --index "$i" -q >/dev/null 2>&1; done
printf '((3 11) (2 13 7 8 6)) ((0 4 5) (1 16))\n' > sh.tree
refuse "solve-shard, the tree file changed" solve-shard sh.tsplit --index 0 --out sh.tfresh
refuse "merge, the tree file changed" merge sh.tsplit
refuse "plan, the tree file changed" plan sh.tsplit --out sh.next
rm -f sh.tree && mkfifo sh.tree 2>/dev/null
refuse "merge, the tree file a FIFO" merge sh.tsplit

# A FIFO where a shard's result should be.
rm -rf sh.fifo.r && cp -r sh.base.results sh.fifo.r && rm -f sh.fifo.r/shard-00001.json
mkfifo sh.fifo.r/shard-00001.json 2>/dev/null
refuse "merge, a FIFO as a result" merge sh.base sh.fifo.r
refuse "solve-shard, a FIFO as a result" solve-shard sh.base --index 1 --out sh.fifo.r

# A byte-order mark, accepted as by every other input.
printf '\xef\xbb\xbf' > sh.bom && cat sh.base >> sh.bom
python3 sh.py redigest sh.bom sh.base.results sh.bom.r
attack "merge, a split file with a byte-order mark" $n merge sh.bom sh.bom.r
