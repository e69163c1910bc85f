//! The chance sweep on small sizes: every row and depth point is there, Star1 never visits more
//! than expectiminimax (it only adds cutoffs), best-first trees save more than worst-first ones,
//! and `cutoff-bench chance --quick` writes its markdown, JSON and figure.

use cutoff_bench::chance::{run_chance, ChanceConfig, Search, PIG_GAMES};

#[test]
fn quick_sweep_has_every_row_and_star1_never_loses() {
    let cfg = ChanceConfig::quick();
    let sweep = run_chance(&cfg, &mut |_| {}).unwrap();
    assert_eq!(sweep.rows.len(), cfg.sizes.len() * 3 + PIG_GAMES.len());
    assert_eq!(sweep.depths.len(), 3 * cfg.figure_depth * Search::ALL.len());
    for r in &sweep.rows {
        assert_eq!(r.counts.len(), Search::ALL.len(), "{}", r.case);
        let emm = r.get(Search::Expectiminimax).unwrap();
        let star1 = r.get(Search::Star1).unwrap();
        assert!(star1.nodes <= emm.nodes, "{} {}", r.case, r.order);
        assert!(star1.inner <= emm.inner, "{} {}", r.case, r.order);
        assert!(r.saved(Search::Star1, false).unwrap() >= 0.0);
    }
    // Good order lets Star1 cut; worst first gives it next to nothing.
    let saved = |order: &str| {
        let r = sweep
            .rows
            .iter()
            .find(|r| r.case == "b=2 c=2 d=6" && r.order == order)
            .unwrap();
        r.saved(Search::Star1, false).unwrap()
    };
    assert!(saved("best-first") > saved("worst-first") + 10.0);
    let table = sweep.table(false);
    assert!(table.starts_with("| case | order | expectiminimax | star1 | saved |"));
    assert!(table.contains("| b=3 c=3 d=4 | random |") && table.contains("piglet(2,3,2,8)"));
    assert!(sweep.report().contains("## Inner nodes"));
}

#[test]
fn without_the_table_only_the_plain_searches_run() {
    let cfg = ChanceConfig {
        with_table: false,
        pig: false,
        figure_depth: 0,
        ..ChanceConfig::quick()
    };
    let sweep = run_chance(&cfg, &mut |_| {}).unwrap();
    assert_eq!(sweep.rows.len(), cfg.sizes.len() * 3);
    assert!(sweep.depths.is_empty());
    assert!(sweep.rows.iter().all(|r| r.counts.len() == 3));
    assert!(!sweep.table(true).contains("star1+table"));
}

#[test]
fn bad_configs_are_refused() {
    for cfg in [
        ChanceConfig {
            sizes: vec![(0, 2, 4)],
            ..ChanceConfig::quick()
        },
        ChanceConfig {
            sizes: vec![(2, 2, 41)],
            ..ChanceConfig::quick()
        },
        ChanceConfig {
            sizes: vec![(64, 64, 8)],
            ..ChanceConfig::quick()
        },
        ChanceConfig {
            seeds: 0,
            ..ChanceConfig::quick()
        },
    ] {
        assert!(run_chance(&cfg, &mut |_| {}).is_err());
    }
}

#[test]
fn quick_chance_writes_markdown_json_and_figure() {
    let dir = std::env::temp_dir().join(format!("cutoff-bench-chance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (md, json, svg) = (
        dir.join("chance.md"),
        dir.join("chance.json"),
        dir.join("chance.svg"),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .args(["chance", "--quick", "--probs", "random", "--md"])
        .arg(&md)
        .arg("--json")
        .arg(&json)
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("star2+table") && stdout.contains("Ballard"));
    let report = std::fs::read_to_string(&md).unwrap();
    assert!(report.contains("random probabilities") && report.contains("| pig(2,4,3,6) |"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["chance"]["config"]["probs"], "random");
    assert!(doc["chance"]["rows"].as_array().unwrap().len() > 5);
    assert!(doc["build"]["commit"].is_string());
    let figure = std::fs::read_to_string(&svg).unwrap();
    assert!(figure.starts_with("<svg") && figure.contains("worst-first: nodes"));
    std::fs::remove_dir_all(&dir).unwrap();
    // A bad shape is a one-line error.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cutoff-bench"))
        .args(["chance", "--quick", "--sizes", "3:2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("invalid shape '3:2'"), "{err}");
}
