//! Plain-text tables with aligned columns, for the sweep, the game comparison and `compare`.

/// A text table: a header row and data rows, rendered with every column padded to its widest
/// cell. The first column is left-aligned (names), the others right-aligned (figures).
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Row>,
}

#[derive(Clone, Debug)]
enum Row {
    Cells(Vec<String>),
    /// A line of free text between rows (a note, a skipped cell), not aligned.
    Note(String),
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells render empty, extra ones are kept).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(Row::Cells(cells));
    }

    /// Appends a line of free text.
    pub fn note(&mut self, text: impl Into<String>) {
        self.rows.push(Row::Note(text.into()));
    }

    /// The table as text, one line per row, ending with a newline.
    pub fn render(&self) -> String {
        let ncols = self
            .rows
            .iter()
            .filter_map(|r| match r {
                Row::Cells(c) => Some(c.len()),
                Row::Note(_) => None,
            })
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut width = vec![0; ncols];
        let all = std::iter::once(&self.header).chain(self.rows.iter().filter_map(|r| match r {
            Row::Cells(c) => Some(c),
            Row::Note(_) => None,
        }));
        for cells in all {
            for (w, c) in width.iter_mut().zip(cells) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| -> String {
            let mut s = String::new();
            for (i, w) in width.iter().enumerate() {
                let c = cells.get(i).map_or("", String::as_str);
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = w - c.chars().count();
                if i == 0 {
                    s.push_str(c);
                    s.extend(std::iter::repeat_n(' ', pad));
                } else {
                    s.extend(std::iter::repeat_n(' ', pad));
                    s.push_str(c);
                }
            }
            s.trim_end().to_string()
        };
        let mut out = line(&self.header);
        out.push('\n');
        for r in &self.rows {
            match r {
                Row::Cells(c) => out.push_str(&line(c)),
                Row::Note(t) => out.push_str(t),
            }
            out.push('\n');
        }
        out
    }
}

/// `x` with about three significant digits: `0.0123`, `4.56`, `789`, `1.23e9`.
pub fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 1e7 {
        format!("{x:.2e}")
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else if a >= 1e-3 {
        let decimals = (-a.log10().floor()) as usize + 2;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.2e}")
    }
}

/// A count: exact below ten million, else in scientific notation.
pub fn count(x: f64) -> String {
    if x < 1e7 {
        format!("{x:.0}")
    } else {
        format!("{x:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(&["name", "n"]);
        t.row(vec!["a".into(), "100".into()]);
        t.note("-- a note --");
        t.row(vec!["bbb".into(), "2".into()]);
        assert_eq!(
            t.render(),
            "name    n\na     100\n-- a note --\nbbb     2\n"
        );
    }

    #[test]
    fn three_digits() {
        assert_eq!(sig3(0.012345), "0.0123");
        assert_eq!(sig3(4.567), "4.57");
        assert_eq!(sig3(45.67), "45.7");
        assert_eq!(sig3(789.4), "789");
        assert_eq!(sig3(1.234e9), "1.23e9");
        assert_eq!(count(511.0), "511");
    }
}
