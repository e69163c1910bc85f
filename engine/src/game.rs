//! The game model: two-player, zero-sum, perfect-information games.
//!
//! Positions are small `Copy` values and moves produce a new position (copy-make) rather than
//! mutating one in place (make/unmake). Every game here fits its position in a few machine words
//! (two bitboards for Connect Four, a vertex mask for the control game, a node index for a
//! hand-written tree), so a copy costs less than the bookkeeping an unmake would need, undo is
//! free, and a parallel search can hand a position to another thread without sharing state.

use std::fmt::Debug;

/// The move code meaning "no move" (see [`Game::move_code`]).
pub const NO_CODE: u8 = 0xFF;

pub use crate::players::{Player, Value, INF};

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
    /// [`crate::knowledge`]): [`NoKnowledge`] for a game
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

    /// The bounds on `pos`'s game-theoretic value that a finished depth-limited search of
    /// `depth` plies from it proves by returning `value`, where the game can tell (`None`,
    /// the default, proves nothing: right for any game whose [`Game::evaluate`] estimates).
    ///
    /// A game whose horizon evaluation is 0 ("unknown") and whose values say when the game
    /// ends can: a value of at least 0 means the opponent forces no win within `depth`
    /// plies, at most 0 that the side to move forces none, and one above (below) 0 is a win
    /// (loss) worth at least (at most) that (docs/design/node-routine.md, "What a
    /// depth-limited value proves").
    fn horizon_bounds(
        &self,
        _pos: &Self::Pos,
        _depth: usize,
        _value: Value,
    ) -> Option<(Value, Value)> {
        None
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

// The knowledge a game names lives beside `Game`, which names it (the two traits refer to each
// other); `crate::knowledge` re-exports it.

/// What [`Knowledge::analyse`] (or [`Knowledge::analyse_moves`]) found out about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assessment {
    /// The exact value, from the side to move: the position needs no search.
    Value(Value),
    /// Bounds `(lo, hi)` on the value; the moves to search are listed.
    Bounds(Value, Value),
}

/// What a solver may know about the game `G`, each hook with a default that knows nothing.
///
/// One layer: the searches ask [`Knowledge::analyse`] (and, at a node with a choice of moves,
/// [`Knowledge::analyse_moves`]) for everything about a node at once, so a game can share its
/// work between the parts; the other hooks answer questions the searches ask elsewhere (the
/// table key, the first probe, the ordering to use).
pub trait Knowledge<G: Game + ?Sized> {
    /// What the analysis of a node leaves for the later hooks at the same node
    /// ([`Knowledge::analyse_moves`], [`Knowledge::play_analysed`]): one per ply of the search,
    /// untouched by the search between the calls. `()` for knowledge that needs none; Connect
    /// Four keeps the opponent's winning cells and each move's new threats here.
    type Scratch: Copy + Default + Send + Sync + Debug;

    /// The exact value of `pos`, from the side to move and in the scale of [`Game::outcome`],
    /// worked out by the game's own theory rather than by a tree search (the Sprague-Grundy
    /// theory of an impartial game, a table of heap sizes); `None` (the default) where the
    /// game has no such theory. When it answers, it answers for every position, terminal ones
    /// included, and agrees with a full search. No search calls it: it backs
    /// [`Algorithm::Theory`](crate::search::Algorithm) only.
    fn theory_value(_game: &G, _pos: &G::Pos) -> Option<Value> {
        None
    }

    /// Everything the table-driven searches ask before searching a position: either its exact
    /// value, or bounds on it with the moves to try written into `moves` and an ordering hint
    /// for move `i` into `hints[i]` (`hints` has at least [`MoveBuffer::CAPACITY`] slots). The
    /// game may leave out moves it can prove no better than one it keeps (at least one stays).
    ///
    /// The terminal test is part of the analysis: the searches test [`Game::outcome`]
    /// themselves only at their root and at the horizon. Below the root, `pos` is always
    /// reached by a move this function listed, so a game whose listed moves never end the game
    /// (Connect Four lists no winning move: it answers "win" instead) may skip the test.
    ///
    /// The default: the outcome if the game is over, else every legal move, each hinted by
    /// [`Knowledge::move_hint`], within [`Game::value_range`].
    #[inline(always)]
    fn analyse(
        game: &G,
        pos: &G::Pos,
        moves: &mut G::Moves,
        hints: &mut [i32],
        _scratch: &mut Self::Scratch,
    ) -> Assessment {
        if let Some(v) = game.outcome(pos) {
            return Assessment::Value(v);
        }
        game.moves(pos, moves);
        for (h, &mv) in hints.iter_mut().zip(moves.as_slice()) {
            *h = Self::move_hint(game, pos, mv);
        }
        let (lo, hi) = game.value_range();
        Assessment::Bounds(lo, hi)
    }

    /// The per-move half of the analysis, asked only of a node that [`Knowledge::analyse`] left
    /// with bounds and at least two moves (a forced move is passed through without it, see
    /// [`Knowledge::forced_lines_static`]): the work that looks at each move (Connect Four plays
    /// every listed move to find a double threat and to score it). Either the exact value, or
    /// bounds with the ordering hint for move `i` written into `hints[i]`. `hints` and `scratch`
    /// are as [`Knowledge::analyse`] left them. The default adds nothing.
    #[inline(always)]
    fn analyse_moves(
        game: &G,
        _pos: &G::Pos,
        _moves: &G::Moves,
        _hints: &mut [i32],
        _scratch: &mut Self::Scratch,
    ) -> Assessment {
        let (lo, hi) = game.value_range();
        Assessment::Bounds(lo, hi)
    }

    /// The position after `mv` at a node the search has analysed, with the `scratch` the
    /// analysis left there, so that a game can reuse what it worked out for this move (Connect
    /// Four keeps each move's new winning cells). The default plays the move.
    #[inline(always)]
    fn play_analysed(game: &G, pos: &G::Pos, mv: G::Move, _scratch: &Self::Scratch) -> G::Pos {
        game.play(pos, mv)
    }

    /// Whether a position left with a single move by [`Knowledge::analyse`] is passed through
    /// statically: no node of its own, no table probe or store, its move played at once (a
    /// forced line costs one node however long it is). Off by default: a game whose single
    /// moves are rare gains nothing and its node counts stay as they were.
    fn forced_lines_static(_game: &G) -> bool {
        false
    }

    /// The key the transposition table files `pos` under, and whether `pos` had to be
    /// mirrored to reach it: a game with a symmetry gives both mirror images one key, so a
    /// position found once serves for its image. Move codes stored under a mirrored key go
    /// through [`Knowledge::mirror_code`]. The default is [`Game::key`], never mirrored.
    #[inline(always)]
    fn table_key(game: &G, pos: &G::Pos) -> (u64, bool) {
        (game.key(pos), false)
    }

    /// The move code of the mirror image of the move with `code` (see
    /// [`Knowledge::table_key`]); must be its own inverse.
    fn mirror_code(_game: &G, code: u8) -> u8 {
        code
    }

    /// A null window worth probing first when solving `pos` exactly: where its value most
    /// likely lies. The bisection otherwise starts far from zero, where probes are cheap; a
    /// game whose early positions are nearly always decided by a small margin saves work by
    /// settling the sign first (default: no guess).
    fn first_probe(_game: &G, _pos: &G::Pos) -> Option<Value> {
        None
    }

    /// Whether an exact solve of `pos`, after its first probe, steps its null window to the
    /// bound each probe returned (MTD(f)'s way) rather than bisecting what is left of the
    /// range: where values lie close to the first probe, each step is one cheap probe, where
    /// a bisection's probes far out cost more (default: bisect).
    fn probe_steps(_game: &G, _pos: &G::Pos) -> bool {
        false
    }

    /// Whether the node at `pos` looks up each younger child's table entry before entering
    /// it, and takes a child that its entry settles under the window as its value without a
    /// node of its own: the child would have spent its analysis before reaching the same
    /// entry. The eldest is entered at once: its entry, prefetched as the moves were
    /// ordered, is rarely in cache yet, and waiting for it would stall what the child's own
    /// analysis otherwise hides (default: never).
    fn settle_children_from_table(_game: &G, _pos: &G::Pos) -> bool {
        false
    }

    /// Whether enhanced transposition cutoffs pay at `pos`: before searching its moves, the
    /// table is probed for every child, and a child whose stored bound already refutes the
    /// window cuts the node off. Each probe is a likely cache miss, so a game turns this on only
    /// near the root, where a cutoff saves a large subtree (default: never).
    fn enhanced_cutoffs(_game: &G, _pos: &G::Pos) -> bool {
        false
    }

    /// A static ordering hint for any legal move: moves with higher hints are tried earlier
    /// (after the table move and the killers). The default keeps the generation order.
    fn move_hint(_game: &G, _pos: &G::Pos, _mv: G::Move) -> i32 {
        0
    }

    /// The ordering heuristics that suit this game (all of them by default). Connect Four, for
    /// one, orders best by threats and centre alone: killers and history only get in the way.
    fn default_ordering(_game: &G) -> OrderingConfig {
        OrderingConfig::default()
    }
}

/// Knowledge of nothing: every hook at its default, so the searches go by the rules alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoKnowledge;

impl<G: Game + ?Sized> Knowledge<G> for NoKnowledge {
    type Scratch = ();
}

/// Which ordering heuristics are on (all by default), so their worth can be measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderingConfig {
    /// Try the table's best move first.
    pub table_move: bool,
    /// Try the ply's killer moves next.
    pub killers: bool,
    /// Use the game's static hint.
    pub hint: bool,
    /// Use the history heuristic.
    pub history: bool,
    /// Non-zero: shuffle the root's moves, and break ties between equal scores two plies and
    /// more below the root, pseudo-randomly from this seed (Lazy SMP's helpers diverge this
    /// way).
    pub jitter: u64,
    /// After a move fails to cut a node off, try next the move that refuted it (see
    /// [`Refutation`]); `None`: off (the default).
    pub refutation: Option<Refutation>,
}

/// The refutation move: when a move of a node the table-driven searches are searching fails
/// to cut it off, and the opponent's move that cut the child off is among the node's moves
/// still to try, that move is tried next: the cell the opponent wanted is worth taking first.
/// Only where a misordering is cheap and the hint allows it (see the fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// Only at nodes at least this many plies below the root: near it a move tried too early
    /// costs a subtree too large to risk on this guess.
    pub min_ply: usize,
    /// Only if the refutation's hint is at most this much below the hint of the move it
    /// would go before (the game's hint scale: see [`Knowledge::analyse`]).
    pub slack: i32,
}

impl Default for OrderingConfig {
    fn default() -> Self {
        OrderingConfig {
            table_move: true,
            killers: true,
            hint: true,
            history: true,
            jitter: 0,
            refutation: None,
        }
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
