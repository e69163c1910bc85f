//! Split files (`cutoff_app::shard::Split::parse`, the check every command that reads one
//! runs: the header's limits, each line's fields, every path replayed on the game), and what
//! merge and plan do with an accepted one's `known` intervals. Nothing may panic; an
//! accepted file's lines are numbered in order and in range, its tree of paths has a node
//! for the split position and every line, and the file written back out is accepted again;
//! an error, as the binary prints it, is one short printable line. `merge_plan` adds shard
//! results.
#![no_main]

use cutoff_app::shard::{self, Split};
use cutoff_fuzz::{check_message, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Split::parse(data, "fuzz.jsonl") {
        Ok(split) => {
            for (i, l) in split.lines.iter().enumerate() {
                assert_eq!(l.id, i);
                assert!(l.shard.is_none_or(|s| s < split.header.shards));
            }
            let tree = &split.tree;
            let lines = (0..tree.len()).filter(|&n| tree.line(n).is_some()).count();
            assert_eq!(lines, split.header.paths, "a node for every path");
            let known: Vec<[i32; 2]> = split
                .lines
                .iter()
                .map(|l| l.known.unwrap_or(split.header.range))
                .collect();
            let iv = tree.back_up(&known);
            let _ = tree.plan(&iv, split.lines.len());
            let text = shard::split_text(&split.header, &split.lines).expect("written back");
            if let Err(e) = Split::parse(text.as_bytes(), "again.jsonl") {
                panic!("a split file written back is refused: {e}");
            }
        }
        Err(e) => check_message(
            "shard::Split::parse",
            &cutoff_app::message::error_line(&format!("error: {e}")),
            STRICT,
        ),
    }
});
