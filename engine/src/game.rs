//! The game model: two-player, zero-sum, perfect-information games.
//!
//! Positions are small `Copy` values and moves produce a new position (copy-make) rather than
//! mutating one in place (make/unmake). Every game here fits its position in a few machine words
//! (two bitboards for Connect Four, a vertex mask for the control game, a node index for a
//! hand-written tree), so a copy costs less than the bookkeeping an unmake would need, undo is
//! free, and a parallel search can hand a position to another thread without sharing state.

use crate::knowledge::Knowledge;
use std::fmt::Debug;

/// A game value. Terminal utilities and evaluations stay well inside `-INF..=INF`.
pub type Value = i32;

/// A bound larger than any value a game produces; `-INF` and `INF` open the full window.
pub const INF: Value = 1 << 30;

/// The move code meaning "no move" (see [`Game::move_code`]).
pub const NO_CODE: u8 = 0xFF;

pub use crate::players::Player;

/// A bad position, move or game description: the message names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

impl GameError {
    /// A new error with the given message.
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(msg.into())
    }
}

/// At most this many bytes of a token, once escaped, appear in an error message (see
/// [`quote`]).
pub const QUOTE_BYTES: usize = 40;

/// `token` made fit to quote in an error message, as `'{}'`: control and other invisible
/// characters escaped (`\n`, `\t`, `\x1b`, `\u{feff}`), and cut after [`QUOTE_BYTES`] bytes
/// of that escaped text, with `...` and the token's length in characters, so that the
/// message stays one short line that is safe to print on a terminal whatever the input (a
/// 10 MB token, terminal escape sequences, a byte-order mark). Short printable tokens come
/// back unchanged.
///
/// ```
/// use cutoff::game::quote;
/// assert_eq!(quote("3x"), "3x");
/// assert_eq!(quote("a\u{1b}[31m\n"), r"a\x1b[31m\n");
/// assert_eq!(quote(&"7".repeat(1000)), format!("{}... (1000 characters)", "7".repeat(40)));
/// ```
pub fn quote(token: &str) -> String {
    quote_max(token, QUOTE_BYTES)
}

/// [`quote`] with at most `max` bytes of escaped text (file names, for one, say more).
pub fn quote_max(token: &str, max: usize) -> String {
    let mut out = String::with_capacity(max.min(token.len()));
    for c in token.chars() {
        let piece: String = match c {
            '\n' => "\\n".into(),
            '\r' => "\\r".into(),
            '\t' => "\\t".into(),
            ' '..='~' => c.into(),
            c if (c as u32) < 0x80 => format!("\\x{:02x}", c as u32),
            // Printable non-ASCII characters stay; the invisible ones and the controls get
            // their `\u{..}` escape.
            c => c.escape_debug().collect(),
        };
        if out.len() + piece.len() > max {
            out.push_str(&format!("... ({} characters)", token.chars().count()));
            break;
        }
        out.push_str(&piece);
    }
    out
}

/// A fixed-capacity list of moves kept inline, so generating moves never touches the heap
/// (an [`arrayvec::ArrayVec`]: a new list initialises none of its slots).
#[derive(Clone, Debug)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    items: arrayvec::ArrayVec<M, N>,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList {
            items: arrayvec::ArrayVec::new(),
        }
    }
}

/// What a search needs of a game's move list: clear, push, read and reorder in place.
pub trait MoveBuffer<M: Copy>: Default + Clone + Send + Sync {
    /// Largest number of moves the buffer can hold.
    const CAPACITY: usize;
    /// Empties the list.
    fn clear(&mut self);
    /// Appends a move. Panics only if a game generates more moves than its declared capacity,
    /// which is a bug in that game, not a reachable input error.
    fn push(&mut self, mv: M);
    /// The moves in order.
    fn as_slice(&self) -> &[M];
    /// The moves in order, mutable so a search can reorder them.
    fn as_mut_slice(&mut self) -> &mut [M];
    /// Number of moves.
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    /// True when there are no moves.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<M: Copy + Default + Send + Sync, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    const CAPACITY: usize = N;

    #[inline(always)]
    fn clear(&mut self) {
        self.items.clear();
    }

    #[inline(always)]
    fn push(&mut self, mv: M) {
        // Not `ArrayVec::push`: its panic path made it big enough that the compiler stopped
        // inlining it into the search once the CLI compiled in more Connect Four shapes (1.7%
        // more instructions on 7x6, docs/measurements/connect4-sizes.md).
        if self.items.try_push(mv).is_err() {
            move_list_overflow(N);
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[M] {
        &self.items
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.items
    }
}

/// The panic of [`MoveBuffer::push`] on a full [`MoveList`], out of the search's way.
#[cold]
#[inline(never)]
fn move_list_overflow(capacity: usize) -> ! {
    panic!("a game generated more than the {capacity} moves its move list holds")
}

/// A two-player, zero-sum, perfect-information game (the classic formulation: initial state,
/// player to move, legal moves, result of a move, terminal test and utility).
///
/// Values follow the negamax convention: a terminal utility or an evaluation is seen from the
/// side to move in that position.
///
/// The trait holds the rules: the seven required methods, [`Game::evaluate`] for depth-limited
/// searches, and two facts that describe the game's moves and values ([`Game::move_code`],
/// [`Game::value_range`]). What a solver may know beyond the rules lives apart, in the
/// [`Knowledge`] the game names.
pub trait Game: Sync {
    /// A position: small and `Copy` (see the module comment for why copy-make).
    type Pos: Copy + Send + Sync + Debug;
    /// A move.
    type Move: Copy + Eq + Send + Sync + Debug + Default;
    /// The inline move list this game fills.
    type Moves: MoveBuffer<Self::Move>;
    /// What the table-driven searches may know of this game beyond its rules (see
    /// [`crate::knowledge`]): [`NoKnowledge`](crate::knowledge::NoKnowledge) for a game
    /// searched by its rules alone.
    type Knowledge: Knowledge<Self>;

    /// The starting position this game object was set up with.
    fn initial(&self) -> Self::Pos;

    /// The player to move in `pos`.
    fn to_move(&self, pos: &Self::Pos) -> Player;

    /// Terminal test and utility in one call, because most games find both at once:
    /// `Some(utility)` from the side to move if the game is over, else `None`.
    fn outcome(&self, pos: &Self::Pos) -> Option<Value>;

    /// Writes the legal moves of a non-terminal position into `out` (cleared first), in the
    /// game's preferred order.
    fn moves(&self, pos: &Self::Pos, out: &mut Self::Moves);

    /// The position after `mv`, which must be legal in `pos`.
    fn play(&self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;

    /// A 64-bit key identifying the position (for transposition tables): equal positions, with
    /// the same side to move, have equal keys.
    fn key(&self, pos: &Self::Pos) -> u64;

    /// Static evaluation from the side to move, used at the horizon of a depth-limited search.
    /// The default knows nothing and calls every unfinished position even.
    fn evaluate(&self, _pos: &Self::Pos) -> Value {
        0
    }

    /// An upper bound on the number of plies left from `pos` to the end of the game; searches
    /// size their per-ply stack with it.
    ///
    /// A promise: every line of play from `pos` reaches a position with an [`Game::outcome`]
    /// within this many plies. A search to the end of the game (no depth, or one at least
    /// this) stops there, so a game whose moves can cycle, or whose bound is too small, has
    /// lines the search cannot finish: it stops at the first position it meets at the cap
    /// without an outcome, and reports the line
    /// ([`SolveError::Unfinished`](crate::solver::SolveError::Unfinished),
    /// [`Searcher::unfinished`](crate::advanced::Searcher::unfinished)) instead of a value. A
    /// game that can repeat a position needs a move counter in its position (bounding the
    /// plies, with an outcome when it runs out) or an outcome on repetition. Searches to a
    /// smaller depth evaluate their horizon as usual; their table entries trust the bound
    /// (a subtree searched `max_plies(pos)` plies deep counts as searched to the end).
    fn max_plies(&self, pos: &Self::Pos) -> usize;

    /// A compact code for `mv` (0..=254), stored as the best move in the transposition
    /// table; [`NO_CODE`] (the default) means this game's moves are not stored.
    fn move_code(&self, _mv: Self::Move) -> u8 {
        NO_CODE
    }

    /// The range every value of this game lies in (terminal utilities and evaluations); the
    /// null-window solver bisects it.
    fn value_range(&self) -> (Value, Value) {
        (-INF + 1, INF - 1)
    }
}

/// How people name a game and write its moves: what a front end (the command line, a test
/// file, a log) needs and the search never does, kept apart from [`Game`] so that a game used
/// only as a library need not have a notation.
pub trait Notation: Game {
    /// The game's name as the command line spells it.
    fn name(&self) -> &'static str;

    /// The move in the game's notation.
    fn format_move(&self, pos: &Self::Pos, mv: Self::Move) -> String;

    /// Reads a move in the game's notation, checking that it is legal in `pos`.
    fn parse_move(&self, pos: &Self::Pos, text: &str) -> Result<Self::Move, GameError>;

    /// What `value` (from the side to move in `pos`, as the searches return it) means, in
    /// words for a person. The default suits win/draw/loss games, whose values are -1, 0 and
    /// +1 ([`Game::value_range`] is `(-1, 1)`): "win", "draw" or "loss"; for any other game it
    /// is the number itself. Games whose scores say more (Connect Four's count the winner's
    /// stones) explain them here.
    fn explain_value(&self, _pos: &Self::Pos, value: Value) -> String {
        if self.value_range() == (-1, 1) {
            match value.signum() {
                1 => "win".into(),
                -1 => "loss".into(),
                _ => "draw".into(),
            }
        } else {
            value.to_string()
        }
    }

    /// A picture of `pos` for a terminal, several lines without a final newline, or `None`
    /// (the default) for a game that has none.
    fn diagram(&self, _pos: &Self::Pos) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_control_and_invisible_characters() {
        assert_eq!(quote(""), "");
        assert_eq!(quote("bad token"), "bad token");
        assert_eq!(quote("\u{1b}[2J\r\n\t\u{7f}"), r"\x1b[2J\r\n\t\x7f");
        assert_eq!(quote("\u{feff}1"), r"\u{feff}1");
        assert_eq!(quote("\u{202e}x\u{85}"), r"\u{202e}x\u{85}");
        // Printable non-ASCII text stays readable.
        assert_eq!(quote("é±中"), "é±中");
        assert!(quote("\0").chars().all(|c| !c.is_control()));
    }

    #[test]
    fn quote_cuts_long_tokens_and_gives_their_length() {
        let long = "x".repeat(10 << 20);
        assert_eq!(
            quote(&long),
            format!("{}... (10485760 characters)", "x".repeat(QUOTE_BYTES))
        );
        // Exactly the limit: nothing cut.
        let fits = "y".repeat(QUOTE_BYTES);
        assert_eq!(quote(&fits), fits);
        // Escapes count at their escaped length, and are never split.
        assert_eq!(
            quote(&"\u{1b}".repeat(100)),
            format!("{}... (100 characters)", r"\x1b".repeat(QUOTE_BYTES / 4))
        );
        let q = quote(&"中".repeat(100));
        assert!(q.len() <= QUOTE_BYTES + 30, "{q}");
        assert!(q.ends_with("... (100 characters)"), "{q}");
        assert_eq!(quote_max("abcdef", 3), "abc... (6 characters)");
    }
}
