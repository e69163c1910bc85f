//! Best-reply search (Schadd and Winands, 2011).
//!
//! Paranoid search lets every opponent move, one after the other, against the root player
//! `r`, so with many players `r`'s own moves lie deep in the tree and few of them fit in a
//! search. Best-reply search keeps only the strongest reply: between two decisions of `r`,
//! exactly one opponent acts. At an opponent layer the moves of all opponents are pooled into
//! one MIN node (each opponent taking the turn out of order through
//! [`MultiGame::pass_to`]), the one that minimises `r`'s value is chosen, and then it is `r`'s
//! turn again. The tree alternates MAX and MIN layers, so alpha-beta prunes it as a two-player
//! tree; chance nodes take the mean of their outcomes, each searched with a full window.
//!
//! # The tree, precisely
//!
//! - `r` to move: a MAX node over `r`'s moves.
//! - An opponent `q` to move, no reply made yet: the MIN layer. Its children are `q`'s moves
//!   from the position itself, then those of each other opponent `o` (in turn order after
//!   `q`) from `pass_to(pos, o)`; an opponent the game does not pass to is left out.
//! - A reply is the replying opponent's whole turn: while that opponent stays to move (Pig: a
//!   roll that keeps the turn) their decisions are MIN nodes over their own moves. Once the
//!   turn leaves them for another opponent, the position is passed to `r`
//!   (`pass_to(pos, r)`), ending the reply.
//! - Chance nodes and terminal positions as in the game.
//!
//! A game without the hook (the default `pass_to` answers `None`) keeps its own turn order:
//! every opponent decision is a MIN node over that opponent's moves, which is paranoid search,
//! and gives paranoid's value.
//!
//! The value vector returned is as paranoid's: `r` gets the value `v`, each other player
//! `-v / (n - 1)`.

use super::paranoid::coalition_split;
use super::{owner, Aborted, Ctx, Cut, MultiGame, MultiObserver, Payoffs, Turn, Window};
use crate::game::MoveBuffer;

/// Where the search stands between two decisions of the root player.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No opponent has replied since the root player's last decision.
    Open,
    /// This opponent is replying: their decisions are theirs alone, and the turn goes back to
    /// the root player when it leaves them.
    Reply(usize),
}

/// Best-reply search to `depth` plies from `root`: the vector described in the module comment
/// and the root player's best move. The root player is the one to move there (player 0 at a
/// chance root).
pub fn brs<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    let n = ctx.game.players();
    let me = owner(ctx.game.turn(root), 0);
    let inf = f64::INFINITY;
    let (v, best) = node(ctx, root, me, Phase::Open, 0, depth, Window::new(-inf, inf))?;
    Ok((coalition_split(n, me, v), best))
}

/// The best-reply value of `pos` for `me` with the window `w` (fail-soft: exact when strictly
/// inside), and the best move.
fn node<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    pos: &G::Pos,
    me: usize,
    phase: Phase,
    ply: usize,
    depth: usize,
    w: Window,
) -> Result<(f64, Option<G::Move>), Aborted> {
    let Window {
        mut alpha,
        mut beta,
    } = w;
    ctx.obs.entered(ply, pos, me, (alpha, beta));
    let n = ctx.game.players();
    let turn = ctx.game.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        let v = ctx.leaf(ply, pos, turn == Turn::Terminal)?.get(me);
        ctx.obs.settled(ply, pos, &coalition_split(n, me, v), true);
        return Ok((v, None));
    }
    let q = match turn {
        Turn::Player(q) => q,
        _ => {
            ctx.visit(ply, turn)?;
            ctx.game.outcomes(pos, &mut ctx.frames[ply].outcomes);
            let mut mean = 0.0;
            for i in 0..ctx.frames[ply].outcomes.len() {
                let o = ctx.frames[ply].outcomes.as_slice()[i];
                let child = ctx.game.play(pos, o.mv);
                let full = Window::new(-f64::INFINITY, f64::INFINITY);
                mean += o.prob * node(ctx, &child, me, phase, ply + 1, depth - 1, full)?.0;
            }
            ctx.obs
                .settled(ply, pos, &coalition_split(n, me, mean), true);
            return Ok((mean, None));
        }
    };
    if let Phase::Reply(o) = phase {
        if q != me && q != o {
            // The reply is over: the root player moves next, if the game lets the turn pass.
            return match ctx.game.pass_to(pos, me) {
                Some(back) => node(ctx, &back, me, Phase::Open, ply, depth, w),
                None => node(ctx, pos, me, Phase::Open, ply, depth, w),
            };
        }
    }
    ctx.visit(ply, turn)?;
    let (a0, b0) = (alpha, beta);
    let maximise = q == me;
    let mut best: Option<(f64, G::Move)> = None;
    // Children searched so far, over every opponent of a pooled layer (for the trace's index).
    let mut index = 0;
    let mut cut = false;
    // The players whose moves this node offers: the one to move, then, in a pooled layer,
    // every other opponent in turn order.
    let pooled = !maximise && phase == Phase::Open;
    let movers = if pooled { n } else { 1 };
    'layer: for k in 0..movers {
        let who = (q + k) % n;
        let from = if k == 0 {
            *pos
        } else if who == me {
            continue;
        } else {
            match ctx.game.pass_to(pos, who) {
                Some(p) if ctx.game.turn(&p) == Turn::Player(who) => p,
                _ => continue,
            }
        };
        let next = if maximise {
            Phase::Open
        } else {
            Phase::Reply(who)
        };
        ctx.game.moves(&from, &mut ctx.frames[ply].moves);
        let count = ctx.frames[ply].moves.len();
        for i in 0..count {
            if cut {
                // Another child remains: the cut skipped it.
                ctx.stats.cutoffs += 1;
                let window = if maximise { b0 } else { a0 };
                ctx.obs.pruned(ply, pos, index, Cut::Decision(window));
                break 'layer;
            }
            let mv = ctx.frames[ply].moves.as_slice()[i];
            let child = ctx.game.play(&from, mv);
            let w = Window::new(alpha, beta);
            let (v, _) = node(ctx, &child, me, next, ply + 1, depth - 1, w)?;
            index += 1;
            let better = match best {
                None => true,
                Some((b, _)) if maximise => v > b,
                Some((b, _)) => v < b,
            };
            if better {
                best = Some((v, mv));
            }
            let b = best.expect("a child was searched").0;
            if maximise {
                alpha = alpha.max(b);
            } else {
                beta = beta.min(b);
            }
            cut = alpha >= beta;
        }
    }
    let (v, mv) = match best {
        Some((v, mv)) => (v, Some(mv)),
        None => (ctx.game.payoffs(pos).get(me), None),
    };
    ctx.obs
        .settled(ply, pos, &coalition_split(n, me, v), a0 < v && v < b0);
    Ok((v, mv))
}
