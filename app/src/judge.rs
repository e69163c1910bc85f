//! The judge problems, in their input formats.
//!
//! - [`ural1195`]: URAL 1195 "Ouths and crosses". Three lines of three characters, `X`, `O`
//!   or `#` (empty); X and O have made three moves each and X is to move. The answer, from
//!   X's side: `Crosses win`, `Ouths win` or `Draw`. Solved by the generic alpha-beta search
//!   on a [`TicTacToe`] position.
//! - [`control`]: the control game (Node Kayles) on several boards. The first line holds the
//!   number of boards `K` (1 to [`MAX_BOARDS`]); then come `K` blocks, each a line with the
//!   number of vertices `N` (1 to 64; the judge's own limit is 30) and `N` rows of the 0/1 adjacency matrix (`0110` or
//!   `0 1 1 0`). Blocks are separated by blank lines. The answer for each board: whether the
//!   first player wins, found by [`Control::first_player_wins`].
//!
//! Both readers forgive a byte-order mark, surrounding whitespace, CRLF line ends and extra
//! blank lines; every other deviation is an error naming the line (and, for the control game,
//! the board).

use cutoff::advanced::search;
use cutoff::game::GameError;
use cutoff::games::perfect::control::{parse_row, Control, MAX_VERTICES};
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::Algorithm;
use std::iter::Peekable;

/// Most boards one control-game input may hold (the judge's own limit is 25).
pub const MAX_BOARDS: usize = 1000;

/// The input's lines, trimmed, numbered from 1, blank ones included.
fn numbered(input: &str) -> impl Iterator<Item = (usize, &str)> {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    input
        .lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
}

/// Skips blank lines; true if any were skipped.
fn skip_blank<'a, I: Iterator<Item = (usize, &'a str)>>(lines: &mut Peekable<I>) -> bool {
    let mut skipped = false;
    while lines.next_if(|(_, l)| l.is_empty()).is_some() {
        skipped = true;
    }
    skipped
}

/// Shows at most 30 characters of `text` in an error message.
fn shown(text: &str) -> String {
    let mut s: String = text
        .chars()
        .flat_map(char::escape_default)
        .take(30)
        .collect();
    if text.chars().count() > 30 {
        s.push_str("...");
    }
    s
}

/// URAL 1195: the answer for X to move on the given board (see the module comment).
pub fn ural1195(input: &str) -> Result<&'static str, GameError> {
    let rows: Vec<(usize, &str)> = numbered(input).filter(|(_, l)| !l.is_empty()).collect();
    if rows.len() != 3 {
        return Err(GameError::new(format!(
            "expected 3 lines of 3 characters, found {} non-empty lines",
            rows.len()
        )));
    }
    let (mut nx, mut no) = (0, 0);
    let mut board = String::with_capacity(11);
    for (k, &(line, text)) in rows.iter().enumerate() {
        let count = text.chars().count();
        if count != 3 {
            return Err(GameError::new(format!(
                "line {line}: expected 3 characters, found {count} ('{}')",
                shown(text)
            )));
        }
        for ch in text.chars() {
            match ch {
                'X' => nx += 1,
                'O' => no += 1,
                '#' => {}
                _ => {
                    return Err(GameError::new(format!(
                        "line {line}: invalid character '{}' (expected X, O or #)",
                        ch.escape_default()
                    )))
                }
            }
        }
        if k > 0 {
            board.push('/');
        }
        board.push_str(text);
    }
    if nx != 3 || no != 3 {
        return Err(GameError::new(format!(
            "expected 3 X and 3 O (three moves each), found {nx} X and {no} O"
        )));
    }
    // X to move with equal counts; from_board rejects a line for X (O moved last) and lines
    // for both, which no game reaches.
    let game = TicTacToe::from_board(&board)?;
    let result = search(&game, game.board(), Algorithm::AlphaBeta, None);
    Ok(match result.value {
        v if v > 0 => "Crosses win",
        v if v < 0 => "Ouths win",
        _ => "Draw",
    })
}

/// The control game judge: for each board, whether the first player wins (see the module
/// comment for the format). Errors name the board and the line at fault.
pub fn control(input: &str) -> Result<Vec<bool>, GameError> {
    let mut lines = numbered(input).peekable();
    skip_blank(&mut lines);
    let Some((kline, ktext)) = lines.next() else {
        return Err(GameError::new("empty input: expected the number of boards"));
    };
    let k = match ktext.parse::<u64>() {
        Ok(k) if (1..=MAX_BOARDS as u64).contains(&k) => k as usize,
        Ok(k) => {
            return Err(GameError::new(format!(
                "line {kline}: the number of boards must be 1 to {MAX_BOARDS}, got {k}"
            )))
        }
        Err(_) => {
            return Err(GameError::new(format!(
                "line {kline}: expected the number of boards, found '{}'",
                shown(ktext)
            )))
        }
    };
    let mut answers = Vec::with_capacity(k);
    for b in 1..=k {
        skip_blank(&mut lines);
        let Some((nline, ntext)) = lines.next() else {
            return Err(GameError::new(format!(
                "expected {k} boards, found {} (input ends before board {b})",
                b - 1
            )));
        };
        let n = match ntext.parse::<u64>() {
            Ok(n) if (1..=MAX_VERTICES as u64).contains(&n) => n as usize,
            Ok(n) => {
                return Err(GameError::new(format!(
                    "board {b}, line {nline}: the number of vertices must be 1 to {MAX_VERTICES}, got {n}"
                )))
            }
            Err(_) => {
                return Err(GameError::new(format!(
                    "board {b}, line {nline}: expected the number of vertices, found '{}'",
                    shown(ntext)
                )))
            }
        };
        let mut rows = Vec::with_capacity(n);
        for r in 1..=n {
            let after_blank = skip_blank(&mut lines);
            let Some(&(line, text)) = lines.peek() else {
                return Err(GameError::new(format!(
                    "board {b}: expected {n} rows, found {} (the input ends)",
                    r - 1
                )));
            };
            let row = match parse_row(text) {
                Ok(row) if row.len() == n => row,
                // After a blank line, a line that is no row of this board most likely starts
                // the next block: this board's rows ran out.
                _ if after_blank => {
                    return Err(GameError::new(format!(
                        "board {b}: expected {n} rows, found {} (line {line} '{}', after a blank line, is no row of {n} entries)",
                        r - 1,
                        shown(text)
                    )))
                }
                Ok(row) => {
                    return Err(GameError::new(format!(
                        "board {b}, line {line}: row {r} has {} entries, expected {n}",
                        row.len()
                    )))
                }
                Err(e) => {
                    return Err(GameError::new(format!(
                        "board {b}, line {line}: row {r}, {e}"
                    )))
                }
            };
            lines.next();
            rows.push(row);
        }
        let graph =
            Control::from_matrix(&rows).map_err(|e| GameError::new(format!("board {b}: {e}")))?;
        // The game's own theory (Sprague-Grundy, see `Control`), no tree search: the control
        // game always has it.
        let value = graph
            .exact_value(&cutoff::Game::initial(&graph))
            .ok_or_else(|| GameError::new(format!("board {b}: no exact theory for this graph")))?;
        answers.push(value > 0);
    }
    skip_blank(&mut lines);
    if let Some((line, text)) = lines.next() {
        return Err(GameError::new(format!(
            "line {line}: unexpected input after the {k} boards announced: '{}'",
            shown(text)
        )));
    }
    Ok(answers)
}
