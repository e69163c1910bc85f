//! A search's profile ([`cutoff::profile::Profile`]) as `solve --profile` and `suite
//! --profile` report it: one row per ply and a total, as a table for people and as typed
//! JSON fields for tools (docs/guide/profile.md lists them).

use cutoff::profile::{PlyProfile, Profile};
use serde::Serialize;

/// One ply's row of a profile (or the total's, without `ply`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyRow {
    /// Plies from the root (absent in the total).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// Nodes counted at this ply: the five ways a node ends after it, added up.
    pub nodes: u64,
    /// Leaves: the end of the game or the horizon, or a win or a loss seen at once by the
    /// game's analysis.
    pub analysis: u64,
    /// Settled by the game's bounds on their value.
    pub bounds: u64,
    /// Settled by their own table entry.
    pub table: u64,
    /// Cut off by a child's table entry (enhanced transposition cutoffs).
    pub enhanced_cutoffs: u64,
    /// Nodes whose moves were searched.
    pub searched: u64,
    /// Searched nodes that a move cut off.
    pub cut_nodes: u64,
    /// Share of the cut nodes cut off by their first move, in 0..=1.
    pub first_move_cut_rate: f64,
    /// Mean moves searched at a cut node (1 is a perfect order).
    pub moves_per_cut: f64,
    /// Mean moves searched at the searched nodes no move cut off.
    pub moves_per_other: f64,
    /// Single-move positions passed through, not counted as nodes.
    pub forced: u64,
    /// Children settled from the table by their parent without being entered, not counted
    /// as nodes.
    pub settled_by_parent: u64,
}

impl PlyRow {
    fn new(ply: Option<usize>, p: &PlyProfile) -> Self {
        let others = p.searched - p.cut_nodes;
        PlyRow {
            ply,
            nodes: p.nodes(),
            analysis: p.analysis,
            bounds: p.bounds,
            table: p.table,
            enhanced_cutoffs: p.enhanced_cutoffs,
            searched: p.searched,
            cut_nodes: p.cut_nodes,
            first_move_cut_rate: p.first_move_cut_rate(),
            moves_per_cut: p.moves_per_cut(),
            moves_per_other: if others == 0 {
                0.0
            } else {
                p.moves_at_others as f64 / others as f64
            },
            forced: p.forced,
            settled_by_parent: p.settled_by_parent,
        }
    }
}

/// A profile as reported: the plies that ended nodes, and the total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProfileReport {
    /// One row per ply from the root, the plies where nothing ended left out.
    pub plies: Vec<PlyRow>,
    /// Every ply together.
    pub total: PlyRow,
}

impl ProfileReport {
    /// The report of `profile`.
    pub fn new(profile: &Profile) -> Self {
        let empty = PlyProfile::default();
        ProfileReport {
            plies: profile
                .plies
                .iter()
                .enumerate()
                .filter(|(_, p)| **p != empty)
                .map(|(i, p)| PlyRow::new(Some(i), p))
                .collect(),
            total: PlyRow::new(None, &profile.total()),
        }
    }

    /// The profile as a table, one line a ply and the total last, ending in a newline.
    pub fn table(&self) -> String {
        let head = [
            "ply",
            "nodes",
            "analysis",
            "bounds",
            "table",
            "etc",
            "searched",
            "cut",
            "1st cut",
            "moves/cut",
            "moves/all",
            "forced",
            "by parent",
        ];
        let cells = |r: &PlyRow| -> Vec<String> {
            vec![
                r.ply.map_or("total".into(), |p| p.to_string()),
                r.nodes.to_string(),
                r.analysis.to_string(),
                r.bounds.to_string(),
                r.table.to_string(),
                r.enhanced_cutoffs.to_string(),
                r.searched.to_string(),
                r.cut_nodes.to_string(),
                format!("{:.1}%", 100.0 * r.first_move_cut_rate),
                format!("{:.3}", r.moves_per_cut),
                format!("{:.2}", r.moves_per_other),
                r.forced.to_string(),
                r.settled_by_parent.to_string(),
            ]
        };
        let mut rows: Vec<Vec<String>> = vec![head.iter().map(|h| h.to_string()).collect()];
        rows.extend(self.plies.iter().map(cells));
        rows.push(cells(&self.total));
        let widths: Vec<usize> = (0..head.len())
            .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for r in &rows {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:>w$}"))
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_skip_empty_plies_and_the_total_adds_up() {
        let profile = Profile {
            plies: vec![
                PlyProfile {
                    searched: 2,
                    cut_nodes: 1,
                    first_move_cuts: 1,
                    moves_at_cuts: 1,
                    moves_at_others: 4,
                    ..PlyProfile::default()
                },
                PlyProfile::default(),
                PlyProfile {
                    table: 3,
                    bounds: 1,
                    forced: 2,
                    ..PlyProfile::default()
                },
            ],
        };
        let r = ProfileReport::new(&profile);
        assert_eq!(r.plies.len(), 2);
        assert_eq!(r.plies[1].ply, Some(2));
        assert_eq!(r.total.nodes, 6);
        assert_eq!(r.total.forced, 2);
        assert_eq!(r.plies[0].moves_per_other, 4.0);
        let table = r.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[0].trim_start().starts_with("ply"));
        assert!(lines[3].trim_start().starts_with("total"));
        assert!(lines[1].contains("100.0%"));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["total"]["nodes"], 6);
        assert!(json["total"].get("ply").is_none());
        assert_eq!(json["plies"][1]["ply"], 2);
    }
}
