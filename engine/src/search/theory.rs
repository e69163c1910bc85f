//! The game's own theory instead of a tree search: [`theory`] asks [`Knowledge::theory_value`] for
//! the root's value and for the value of each child, and follows a move that keeps the value
//! to the end of the game (the Sprague-Grundy solver for the control game, a table of heap
//! sizes for the take-away games).

use crate::game::{Game, MoveBuffer, Value};
use crate::knowledge::Knowledge;

/// Solves `root` by the game's theory: `None` if the game has none at `root`; else the root's
/// value (from its side to move), a best move (the first legal move, in [`Game::moves`]
/// order, whose child's exact value is the negation of the root's; `None` at a terminal root)
/// and the principal variation, which follows best moves to the end of the game (it stops
/// early only where the theory has no value for a child).
#[allow(clippy::type_complexity)]
pub fn theory<G: Game>(game: &G, root: G::Pos) -> Option<(Value, Option<G::Move>, Vec<G::Move>)> {
    let value = G::Knowledge::theory_value(game, &root)?;
    let mut pv = Vec::new();
    let mut moves = G::Moves::default();
    let mut pos = root;
    let mut v = value;
    while game.outcome(&pos).is_none() {
        game.moves(&pos, &mut moves);
        let next = moves.as_slice().iter().find_map(|&mv| {
            let child = game.play(&pos, mv);
            (G::Knowledge::theory_value(game, &child)? == -v).then_some((mv, child))
        });
        let Some((mv, child)) = next else {
            break;
        };
        pv.push(mv);
        pos = child;
        v = -v;
    }
    Some((value, pv.first().copied(), pv))
}
