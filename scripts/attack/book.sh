# Opening books (issue 27, findings 4 and 7): names written into a book, books that lie,
# books of another game, `builtin` against a file of that name, byte-order marks. Sourced by
# scripts/attack.sh, in its shell: `attack`, `$bin`, `$n`, `$esc`, `$longx`, `$bom`, `$late`.

# A name cannot write lines into the book: the book made under it loads.
nl_name=$'bk.nl\ngame connect4\n4 18\n# x'
attack "book --out with newlines in the name" $n book connect4 "$late" --plies 1 --out "$nl_name"
attack "analyse --book (made under a name with newlines)" $n analyse connect4 "$late" --book "$nl_name"
attack "book --out with an escape in the name" $n book connect4 "$late" --plies 1 --out "bk.$esc"
attack "book --out with a long name" $n book connect4 "$late" --plies 1 --out "$longx"
attack "book --out ''" $n book connect4 "$late" --plies 1 --out ""

# Books that contradict what the game knows at once, a book's lines against each other, and
# values at the edges of the value type.
"$bin" book connect4 "$late" --plies 1 --out bk.good >/dev/null 2>&1
for text in "game connect4\n4343434 5" "game connect4\n434343 -5" "game connect4\n1234567 18" \
  "game connect4\n1234567 -17" "game connect4\n131475 3" \
  "game connect4\n212112111223233343364446447757556565576677 0" \
  "game connect4\n4 2147483648" "game connect4\n4 -2147483648" "game connect4\ngame connect4" \
  "game connect4\n4 1\ngame tictactoe"; do
  printf "$text\n" > bk.lie
  attack "analyse --book with '${text:15:24}'" $n analyse connect4 434343 --book bk.lie
done
# The good book with its root's value one more, as its last line: a value the game's analysis
# allows, but not the best of the moves the book values (negamax between lines).
{ grep -v "^$late " bk.good; awk -v p="$late" '$1 == p { print p, $2 + 1 }' bk.good; } > bk.root
attack "analyse --book with a root not the best of its moves" $n analyse connect4 "$late" --book bk.root

# A book of another game.
attack "analyse tictactoe --book builtin" $n analyse tictactoe --book builtin
attack "analyse sim --book (a connect4 book)" $n analyse sim --book bk.good

# `builtin` is the book in the binary, `./builtin` a file of that name.
mkdir -p bk.dir && printf 'game connect4\n4 x\n' > bk.dir/builtin
cd bk.dir || exit 2
attack "analyse --book builtin beside a file 'builtin'" $n analyse connect4 444 --book builtin
attack "analyse --book ./builtin (a bad file)" $n analyse connect4 444 --book ./builtin
cd .. || exit 2

# Byte-order marks: one at the start is skipped, anywhere else it is text.
{ printf '%s' "$bom"; cat bk.good; } > bk.bom
attack "analyse --book with a byte-order mark" $n analyse connect4 "$late" --book bk.bom
printf '%s' "$bom" > bk.bomonly
attack "analyse --book of a byte-order mark alone" $n analyse connect4 "$late" --book bk.bomonly
{ printf '%s%s' "$bom" "$bom"; cat bk.good; } > bk.bom2
attack "analyse --book with two byte-order marks" $n analyse connect4 "$late" --book bk.bom2

# Files that are not books.
mkfifo bk.fifo 2>/dev/null
attack "analyse --book a FIFO" $n analyse connect4 "$late" --book bk.fifo
attack "analyse --book over 16 MiB" $n analyse connect4 "$late" --book over16mib.txt
printf 'game connect4\n4 1\xff\n' > bk.nonutf8
attack "analyse --book not UTF-8" $n analyse connect4 "$late" --book bk.nonutf8
