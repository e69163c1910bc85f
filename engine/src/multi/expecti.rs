//! Expectiminimax: the value of a two-player game with chance nodes, by full search.
//!
//! Two forms, for the textbook and for the engine:
//!
//! - [`expectiminimax`]: explicit levels. At a node where player 0 moves (MAX) the value is the
//!   largest child value, where player 1 moves (MIN) the smallest, at a chance node the
//!   probability-weighted mean; every value is player 0's.
//! - [`expectinegamax`]: one rule for both players. A node's value is for its owner (the player
//!   to move; at a chance node, the player who moved into it), and a child owned by the other
//!   player is negated on the way up. Zero-sum games only.
//!
//! Neither prunes nor uses the table: they are the oracle Star1 and Star2 are tested against,
//! and on a whole game they visit every node of the tree.

use super::{owner, Aborted, Ctx, MultiGame, MultiObserver, Payoffs, Turn};
use crate::game::MoveBuffer;

/// Expectiminimax with explicit MAX, MIN and CHANCE levels, `depth` plies deep: the root's
/// payoffs (the zero-sum pair) and best move.
pub fn expectiminimax<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    let (v, best) = emm(ctx, root, 0, depth)?;
    Ok((Payoffs::zero_sum2(0, v), best))
}

/// Player 0's value of `pos`, and the best move when a player is to move.
fn emm<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    pos: &G::Pos,
    ply: usize,
    depth: usize,
) -> Result<(f64, Option<G::Move>), Aborted> {
    ctx.obs
        .entered(ply, pos, 0, (f64::NEG_INFINITY, f64::INFINITY));
    let turn = ctx.game.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        let v = ctx.leaf(ply, pos, turn == Turn::Terminal)?.get(0);
        ctx.obs.settled(ply, pos, &Payoffs::zero_sum2(0, v), true);
        return Ok((v, None));
    }
    ctx.visit(ply, turn)?;
    let (v, best) = match turn {
        Turn::Player(p) => {
            ctx.game.moves(pos, &mut ctx.frames[ply].moves);
            let maximise = p == 0;
            let mut best: Option<(f64, G::Move)> = None;
            for i in 0..ctx.frames[ply].moves.len() {
                let mv = ctx.frames[ply].moves.as_slice()[i];
                let child = ctx.game.play(pos, mv);
                let (v, _) = emm(ctx, &child, ply + 1, depth - 1)?;
                let better = match best {
                    None => true,
                    Some((b, _)) => (maximise && v > b) || (!maximise && v < b),
                };
                if better {
                    best = Some((v, mv));
                }
            }
            match best {
                Some((v, mv)) => (v, Some(mv)),
                None => (ctx.game.payoffs(pos).get(0), None),
            }
        }
        _ => {
            ctx.game.outcomes(pos, &mut ctx.frames[ply].outcomes);
            let mut sum = 0.0;
            for i in 0..ctx.frames[ply].outcomes.len() {
                let o = ctx.frames[ply].outcomes.as_slice()[i];
                let child = ctx.game.play(pos, o.mv);
                sum += o.prob * emm(ctx, &child, ply + 1, depth - 1)?.0;
            }
            (sum, None)
        }
    };
    ctx.obs.settled(ply, pos, &Payoffs::zero_sum2(0, v), true);
    Ok((v, best))
}

/// Expectiminimax in negamax form, `depth` plies deep: the root's payoffs (the zero-sum pair)
/// and best move.
pub fn expectinegamax<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    let me = owner(ctx.game.turn(root), 0);
    let (v, best) = enm(ctx, root, me, 0, depth)?;
    Ok((Payoffs::zero_sum2(me, v), best))
}

/// The value of `pos` for its owner (`me`: the player to move, or at a chance node the player
/// who moved into it), and the best move when a player is to move.
fn enm<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    pos: &G::Pos,
    me: usize,
    ply: usize,
    depth: usize,
) -> Result<(f64, Option<G::Move>), Aborted> {
    ctx.obs
        .entered(ply, pos, me, (f64::NEG_INFINITY, f64::INFINITY));
    let turn = ctx.game.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        let v = ctx.leaf(ply, pos, turn == Turn::Terminal)?.get(me);
        ctx.obs.settled(ply, pos, &Payoffs::zero_sum2(me, v), true);
        return Ok((v, None));
    }
    ctx.visit(ply, turn)?;
    let mut best = None;
    let v = match turn {
        Turn::Player(_) => {
            ctx.game.moves(pos, &mut ctx.frames[ply].moves);
            let mut value = f64::NEG_INFINITY;
            for i in 0..ctx.frames[ply].moves.len() {
                let mv = ctx.frames[ply].moves.as_slice()[i];
                let child = ctx.game.play(pos, mv);
                let v = child_value(ctx, &child, me, ply, depth)?;
                if v > value {
                    value = v;
                    best = Some(mv);
                }
            }
            if best.is_none() {
                value = ctx.game.payoffs(pos).get(me);
            }
            value
        }
        _ => {
            ctx.game.outcomes(pos, &mut ctx.frames[ply].outcomes);
            let mut sum = 0.0;
            for i in 0..ctx.frames[ply].outcomes.len() {
                let o = ctx.frames[ply].outcomes.as_slice()[i];
                let child = ctx.game.play(pos, o.mv);
                sum += o.prob * child_value(ctx, &child, me, ply, depth)?;
            }
            sum
        }
    };
    ctx.obs.settled(ply, pos, &Payoffs::zero_sum2(me, v), true);
    Ok((v, best))
}

/// The value of `child` for `me`: its own value, negated when the other player owns it.
#[inline]
fn child_value<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    child: &G::Pos,
    me: usize,
    ply: usize,
    depth: usize,
) -> Result<f64, Aborted> {
    let them = owner(ctx.game.turn(child), me);
    let v = enm(ctx, child, them, ply + 1, depth - 1)?.0;
    Ok(if them == me { v } else { -v })
}
