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

pub use crate::game::{Assessment, Knowledge, NoKnowledge};

use crate::game::{Game, MoveBuffer, Value};

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
