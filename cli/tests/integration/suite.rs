//! The test-set runner: per-position node counts do not depend on the order of the file.

use cutoff::advanced::Searcher;
use cutoff::games::perfect::connect4::{parse_suite, Connect4, SuiteLine};
use cutoff::tt::TranspositionTable;
use cutoff::{Algorithm, Game};
use cutoff_app::suite::{run_suite, SuiteOptions};

fn middle_easy() -> Vec<SuiteLine> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/connect4/middle-easy.txt"
    ))
    .expect("the Middle-Easy set is in positions/connect4");
    parse_suite(&text).expect("the set parses")
}

/// Per-position node counts of a serial suite run, by line number.
fn nodes_by_line(lines: &[SuiteLine], keep_table: bool) -> Vec<(usize, u64)> {
    let opts = SuiteOptions {
        threads: 1,
        auto_threads: false,
        tt_mib: 16,
        parallel: cutoff::solver::ParallelConfig::default(),
        keep_table,
        profile: false,
    };
    let (results, summary) =
        run_suite(&Connect4::new(), lines, opts, &|| ()).expect("the suite runs");
    assert_eq!(summary.mismatches, 0);
    assert_eq!(summary.keep_table, keep_table);
    if keep_table {
        assert_eq!(summary.reset_us, 0.0);
    }
    let mut out: Vec<_> = results.iter().map(|r| (r.line, r.nodes)).collect();
    out.sort_unstable();
    out
}

/// Ten Middle-Easy positions, each followed by the position one move later (the first
/// column, centre out, that leaves a game in progress), with its score solved separately:
/// pairs that share most of their trees, so that a table kept warm from one to the next
/// changes node counts.
fn related_positions() -> Vec<SuiteLine> {
    let tt = TranspositionTable::new(4);
    let mut text = String::new();
    for l in middle_easy().iter().take(10) {
        text.push_str(&format!("{} {}\n", l.moves, l.expected));
        let child = ['4', '3', '5', '2', '6', '1', '7'].iter().find_map(|c| {
            let moves = format!("{}{c}", l.moves);
            let g = Connect4::from_moves(&moves).ok()?;
            g.outcome(&g.initial()).is_none().then_some((moves, g))
        });
        let (moves, g) = child.expect("a position of Middle-Easy has a move that goes on");
        tt.clear();
        let score = Searcher::new(&g, g.initial(), None)
            .table(&tt)
            .run(Algorithm::Solve)
            .0;
        text.push_str(&format!("{moves} {score}\n"));
    }
    parse_suite(&text).expect("the positions parse")
}

#[test]
fn suite_node_counts_do_not_depend_on_the_order_of_the_file() {
    let lines = related_positions();
    assert_eq!(lines.len(), 20);
    let reversed: Vec<_> = lines.iter().rev().cloned().collect();
    let forward = nodes_by_line(&lines, false);
    assert_eq!(forward, nodes_by_line(&reversed, false));
    // A second run in the same order gives the same counts too.
    assert_eq!(forward, nodes_by_line(&lines, false));
    // With one warm table the counts may differ; the values are still right (checked inside).
    let warm = nodes_by_line(&reversed, true);
    assert_eq!(warm.len(), forward.len());
}
