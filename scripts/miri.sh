#!/usr/bin/env bash
# Runs the unit tests of the engine's unsafe code under Miri, which checks every step they take
# for undefined behaviour (out-of-bounds or misaligned accesses, use after free, aliasing
# violations under Stacked Borrows, data races, leaks):
#
#   - engine/src/tt.rs, the transposition table: its block of clusters is allocated, indexed
#     and freed by hand (the huge-page mapping is left out under Miri, which cannot run mmap;
#     the block then comes from the allocator);
#   - engine/src/arena.rs, the per-ply search stack.
#
#   scripts/miri.sh
#
# Installs the nightly toolchain's miri and rust-src components when they are missing. Takes
# about 30 s once Miri's sysroot and the crate are built (a first run builds them, about a
# minute more). Environment: MIRIFLAGS, passed on (e.g. "-Zmiri-tree-borrows" for the Tree
# Borrows model instead of Stacked Borrows).
set -euo pipefail
cd "$(dirname "$0")/.."

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
installed=$(rustup component list --toolchain nightly --installed)
if ! grep -q '^miri' <<<"$installed" || ! grep -q '^rust-src' <<<"$installed"; then
    rustup component add miri rust-src --toolchain nightly
fi
cargo +nightly miri setup >/dev/null

# The filters pick the tests of the tt and arena modules (tt::tests::*, arena::tests::*).
exec cargo +nightly miri test -p cutoff --lib -- tt:: arena::
