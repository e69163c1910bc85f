//! Split files (`cutoff_cli::shard::Split::parse`), and what merge and plan do with an
//! accepted one: the tree of its paths, the intervals backed up from its `known` fields, and
//! the next pass's plan. Nothing may panic; an accepted file's lines are numbered in order and
//! in range; an error, as the binary prints it, is one short printable line.
#![no_main]

use cutoff_cli::shard::{PathTree, Split};
use cutoff_fuzz::{check_message, STRICT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Split::parse(data, "fuzz.jsonl") {
        Ok(split) => {
            for (i, l) in split.lines.iter().enumerate() {
                assert_eq!(l.id, i);
                assert!(l.shard.is_none_or(|s| s < split.header.shards));
            }
            if let Ok(tree) = PathTree::new(&split) {
                let known: Vec<[i32; 2]> = split
                    .lines
                    .iter()
                    .map(|l| l.known.unwrap_or(split.header.range))
                    .collect();
                let iv = tree.back_up(&known);
                let _ = tree.plan(&iv);
            }
        }
        Err(e) => check_message(
            "shard::Split::parse",
            &cutoff_cli::cmd::error_line(&format!("error: {e}")),
            STRICT,
        ),
    }
});
