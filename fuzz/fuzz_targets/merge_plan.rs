//! `cutoff merge` and `cutoff plan` on a fuzzed split file with fuzzed shard results: the
//! code the binary runs (`Split::parse`, `shard::gather`, `merge::merged`,
//! `plan::next_pass`, `shard::split_text`), without the files and the printing.
//!
//! The input is the split file, then each shard's result, separated by NUL bytes. A result
//! that starts with `{` is used as it is, with `DIGEST` standing for the split file's
//! SHA-256 (which a fuzzer cannot guess); any other result is built from its bytes: a value
//! and a bound for each of the shard's lines, so that the fuzzer reaches merge's and plan's
//! arithmetic without writing JSON. Nothing may panic, overflow or recurse deeper than the
//! split; an error, as the binary prints it, is one short printable line; a merged value
//! lies in the game's range; a settled merge needs no further pass and an open one gets a
//! pass with a line to solve; and the next pass plan writes is a split file that every
//! command accepts. scripts/fuzz.sh runs it under libFuzzer's time and memory limits; the
//! split file's limits (at most 64 moves a path, a tree of paths as large as the file) keep
//! each run short.
#![no_main]

use cutoff_app::commands::merge::{self, Merge};
use cutoff_app::commands::plan;
use cutoff_app::shard::{self, Split, RESULT_VERSION};
use cutoff_fuzz::{check_message, STRICT};
use libfuzzer_sys::fuzz_target;

fn check_error(what: &str, e: &dyn std::fmt::Display) {
    check_message(
        what,
        &cutoff_app::message::error_line(&format!("error: {e}")),
        STRICT,
    );
}

/// Shard `index`'s result file, built from `bytes` (see the module comment).
fn result(split: &Split, index: usize, bytes: &[u8]) -> Vec<u8> {
    if bytes.first() == Some(&b'{') {
        return String::from_utf8_lossy(bytes)
            .replace("DIGEST", &split.digest)
            .into_bytes();
    }
    let mut next = {
        let mut it = bytes.iter().copied();
        move || it.next().unwrap_or(0)
    };
    let [lo, hi] = split.header.range.map(i64::from);
    let mut lines = Vec::new();
    for l in split.lines.iter().filter(|l| l.shard == Some(index)) {
        let pick = next();
        let v = lo + (i64::from(next()) * 256 + i64::from(next())) % (hi - lo + 1);
        let (bound, v) = match (pick % 3, l.window) {
            (0, _) | (_, None) => ("exact", v),
            // Mostly a bound the window can give, sometimes not.
            (1, Some([a, _])) if pick & 4 == 0 => ("upper", v.min(i64::from(a))),
            (1, _) => ("upper", v),
            (_, Some([_, b])) if pick & 4 == 0 => ("lower", v.max(i64::from(b))),
            _ => ("lower", v),
        };
        lines.push(format!(
            r#"{{"id":{},"value":{v},"bound":"{bound}","pv":[],"nodes":1,"forced":0,"leaves":0,"cutoffs":0,"first_move_cutoffs":0,"max_ply":0,"ms":0.5}}"#,
            l.id
        ));
    }
    format!(
        r#"{{"cutoff_shard":{RESULT_VERSION},"digest":"{}","shard":{index},"shards":{},"window":null,"lines":[{}],"nodes":{},"seconds":0.25}}"#,
        split.digest,
        split.header.shards,
        lines.join(","),
        lines.len()
    )
    .into_bytes()
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0);
    let split = match Split::parse(parts.next().unwrap_or_default(), "fuzz.jsonl") {
        Ok(split) => split,
        Err(e) => return check_error("Split::parse", &e),
    };
    let parts: Vec<&[u8]> = parts.collect();
    let results = shard::gather(&split, "fuzz.results", |i| {
        Ok(parts
            .get(i)
            .map(|p| (result(&split, i, p), format!("shard-{i:05}.json"))))
    });
    let results = match results {
        Ok(r) => r,
        Err(e) => return check_error("shard::gather", &e),
    };
    let [lo, hi] = split.header.range;
    let merged = merge::merged(&split, &results);
    match &merged {
        Ok(Merge::Settled(report)) => {
            let v = report.value.expect("a settled merge has a value");
            assert!(lo <= v && v <= hi, "merged value {v} outside [{lo}, {hi}]");
            assert!(report.time_ms.is_finite() && report.time_ms >= 0.0);
        }
        Ok(Merge::Open([a, b])) => assert!(lo <= *a && a < b && *b <= hi, "[{a}, {b}]"),
        Err(e) => check_error("merge::merged", e),
    }
    match plan::next_pass(&split, &results, split.header.shards) {
        Ok(next) => {
            match &merged {
                Ok(Merge::Settled(_)) => assert_eq!(next.chosen, 0, "a settled split re-solved"),
                Ok(Merge::Open(_)) => assert!(next.chosen > 0, "an open split with no line"),
                Err(_) => {}
            }
            match shard::split_text(&next.header, &next.lines) {
                Ok(text) => {
                    if let Err(e) = Split::parse(text.as_bytes(), "next.jsonl") {
                        panic!("plan wrote a pass no command accepts: {e}");
                    }
                }
                Err(e) => check_error("shard::split_text", &e),
            }
        }
        Err(e) => {
            // An open split always has a line left to solve (see `PathTree::plan`).
            assert!(!e.to_string().contains("no line to solve"), "{e}");
            check_error("plan::next_pass", &e)
        }
    }
});
