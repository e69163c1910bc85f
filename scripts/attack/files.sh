# What stands at the name of a file the command writes or reads (issue 41): for every command
# that writes a file, the name given as a symbolic link (followed: its target gets the file,
# the link stays), a link to nothing, a FIFO, a device node (made with mknod in this folder,
# never under /dev; skipped where mknod is not allowed), a socket and a folder (each refused in
# one line, and left where it was); for every file read, a FIFO and endless streams (refused
# at once). Sourced by scripts/attack.sh, in its shell: `attack`, `refuse`, `flagged`, `$bin`, `$n`,
# `$late`.

# flag NAME WHY: adds a finding beyond what `attack` checks.
flag() {
  flagged+=("$1: $2")
  echo "FLAG  $1  <- $2"
}

# kind PATH: what stands at PATH, as `stat` names it, without following a link.
kind() {
  stat -c %F "$1" 2>/dev/null || echo absent
}

# place KIND PATH: puts a KIND at PATH (removing what was there); fails if it cannot.
place() {
  rm -rf "$2"
  case $1 in
    link) mkdir -p real && printf 'old\n' >real/file && ln -s "$PWD/real/file" "$2" ;;
    dangling) mkdir -p real && rm -f real/new && ln -s "$PWD/real/new" "$2" ;;
    fifo) mkfifo "$2" ;;
    device) mknod "$2" c 1 3 2>/dev/null ;;
    socket) python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$2" 2>/dev/null ;;
    folder) mkdir "$2" ;;
  esac
}

# target NAME KIND PATH ARGS...: runs ARGS (which write PATH, where a KIND was placed) and
# checks what stands at PATH afterwards.
target() {
  local name=$1 k=$2 path=$3
  shift 3
  local before
  before=$(kind "$path")
  attack "$name, $k" $n "$@"
  case $k in
    link | dangling)
      if [ "$(kind "$path")" != "symbolic link" ]; then
        flag "$name, $k" "the link was replaced by: $(kind "$path")"
      elif [ ! -f "$path" ] || [ ! -s "$path" ] || [ "$(head -c 4 "$path")" = "old" ]; then
        flag "$name, $k" "the link's target was not written"
      fi
      ;;
    *)
      if [ "$(kind "$path")" != "$before" ]; then
        flag "$name, $k" "the $before was replaced by: $(kind "$path")"
      fi
      if ! { [ "$(wc -l <err)" -eq 1 ] && grep -q '^error: ' err; }; then
        flag "$name, $k" "not refused with one error line"
      fi
      ;;
  esac
}

# The inputs plan needs: a first pass that leaves lines for a second.
"$bin" split tictactoe --depth 2 --shards 1 --window=0,1 --out fw.split >/dev/null 2>&1
"$bin" solve-shard fw.split --index 0 --out fw.r -q >/dev/null 2>&1
"$bin" split tictactoe --depth 2 --shards 1 --out fw.split1 >/dev/null 2>&1

no_device=
for k in link dangling fifo device socket folder; do
  if ! place "$k" fw.probe; then
    [ "$k" = device ] && no_device=1
    continue
  fi
  rm -rf fw.probe
  t=fw.$k
  place "$k" "$t" && target "cfr --save" "$k" "$t" cfr kuhn --iterations 10 --quiet --save "$t"
  place "$k" "$t" && target "cfr --svg" "$k" "$t" cfr kuhn --iterations 10 --quiet --svg "$t"
  place "$k" "$t" && target "book --out" "$k" "$t" book connect4 "$late" --plies 1 --out "$t"
  place "$k" "$t" && target "split --out" "$k" "$t" split tictactoe --depth 2 --out "$t"
  place "$k" "$t" && target "plan --out" "$k" "$t" plan fw.split fw.r --out "$t"
  # A table file is read before it is written: what is not a regular file is refused there;
  # through a link, an empty file is the start of a series.
  place "$k" "$t" && { [ "$k" != link ] || : >real/file; } && target "solve --table-file" "$k" "$t" solve connect4 "$late" --table-file "$t" --table-file-nodes 1
  # A shard's result, in the folder solve-shard writes (a link to a file that is not a
  # result is refused as a damaged result: only a link to nothing is written through).
  rm -rf fw.res && mkdir fw.res
  [ "$k" != link ] && place "$k" fw.res/shard-00000.json &&
    target "solve-shard result" "$k" fw.res/shard-00000.json solve-shard fw.split1 --index 0 --out fw.res -q
  # The distributed run folder: its lock and its settings.
  for f in driver.lock run.json; do
    rm -rf fw.run && mkdir fw.run
    if place "$k" "fw.run/$f"; then
      attack "distribute, $f a $k" $n distribute tictactoe --dir fw.run -q
      case $k in
        link | dangling) [ "$(kind "fw.run/$f")" = "symbolic link" ] || flag "distribute, $f a $k" "the link was replaced" ;;
        *) [ "$(kind "fw.run/$f")" != "regular file" ] || flag "distribute, $f a $k" "replaced by a regular file" ;;
      esac
    fi
  done
done
[ -n "$no_device" ] && echo "note: device nodes skipped (mknod needs root)"

# Files read: a FIFO is refused at once, endless streams are not read.
mkfifo fr.fifo
ln -sf /dev/zero fr.zero
head -c 8388608 /dev/zero | tr '\0' x >fr.longline
for f in fr.fifo /dev/zero /dev/urandom fr.zero fr.longline; do
  refuse "solve --table-file $f" solve connect4 "$late" --table-file "$f"
  refuse "tree $f" tree "$f"
  refuse "suite $f" suite "$f"
  refuse "judge ural1195 $f" judge ural1195 "$f"
  refuse "cfr --resume $f" cfr kuhn --iterations 10 --resume "$f"
  refuse "analyse --book $f" analyse connect4 "$late" --book "$f"
  refuse "solve-shard $f" solve-shard "$f" --index 0 --out fr.res
done
# A table file with a byte-order mark is read.
"$bin" solve connect4 5455174361263362 --table-file fr.tab --table-file-nodes 1000 -q >/dev/null 2>&1
printf '\xef\xbb\xbf' | cat - fr.tab >fr.bom.tab
attack "solve --table-file with a byte-order mark" $n solve connect4 5455174361263362 --table-file fr.bom.tab -q
grep -q '^error' err && flag "solve --table-file with a byte-order mark" "refused: $(head -c 120 err)"
