//! What a solver may know about a game beyond its rules.
//!
//! [`Game`] holds the rules; this module holds the knowledge the table-driven searches (PVS,
//! MTD(f), the null-window solver and the parallel searches built on them) may use to search
//! less: an exact value found without search, bounds, the moves worth trying, ordering hints,
//! a symmetric table key, where to probe first. A game names its knowledge in
//! [`Game::Knowledge`]; [`NoKnowledge`] knows nothing and changes nothing, so a game written
//! against [`Game`] alone is searched exactly by its rules. The plain searches (minimax,
//! negamax, alpha-beta and their course variants) never consult knowledge, so their node
//! counts stay the textbook figures.
//!
//! The hooks are associated functions given the game, not methods of a separate object:
//! knowledge is a property of the game type (Connect Four's threat analysis reads the board
//! from the position and the rules from the game), so a search needs no second value to carry
//! and a call costs nothing more than the game's own methods. See docs/design/game-models.md.

use crate::game::{Game, MoveBuffer, Value};
use crate::ordering::OrderingConfig;
use std::fmt::Debug;

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

/// The analysis of a game whose knowledge is an exact value found without search and a pruned
/// move list (Sim, the control game): the outcome if the game is over, else what `quick`
/// finds, else the moves `list` writes, unhinted, within [`Game::value_range`].
#[inline(always)]
pub fn quick_or_listed<G: Game + ?Sized>(
    game: &G,
    pos: &G::Pos,
    moves: &mut G::Moves,
    hints: &mut [i32],
    quick: impl FnOnce() -> Option<Value>,
    list: impl FnOnce(&mut G::Moves),
) -> Assessment {
    if let Some(v) = game.outcome(pos) {
        return Assessment::Value(v);
    }
    if let Some(v) = quick() {
        return Assessment::Value(v);
    }
    list(moves);
    hints[..moves.len()].fill(0);
    let (lo, hi) = game.value_range();
    Assessment::Bounds(lo, hi)
}
