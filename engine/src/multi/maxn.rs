//! max^n (Luckhardt and Irani, 1986): the n-player generalisation of minimax, with Korf's
//! shallow pruning (1991).
//!
//! # The rule
//!
//! A node's value is a vector, one payoff per player. A leaf's vector is its payoffs (or the
//! evaluation at the depth limit). The player to move takes the child vector best for
//! themself, keeping the first child unless a later one is strictly better: the tie rule makes
//! the value well defined, as the other players' payoffs in tied children may differ. A chance
//! node takes the probability-weighted mean of its children's vectors.
//!
//! # Shallow pruning
//!
//! Let every payoff be at least `L` and the payoffs sum to the constant `S`. At a node of
//! player `p` whose parent is a decision node of another player `q` that already holds the
//! value `b` for itself, suppose `p`'s best so far is `x`. Whatever the node ends up picking
//! gives `p` at least `x` and each of the `n - 2` others at least `L`, so it leaves `q` at most
//! `S - x - (n - 2) L`. Once that is at most `b`, the parent cannot prefer this node (it keeps
//! its earlier child unless a later one is strictly better, so equality prunes too), and the
//! rest of the node's children are skipped. The pruned node's vector is only a bound, but the
//! parent never takes it, so the search returns exactly the plain max^n vector.
//!
//! The bound comes from the parent alone. A chance node passes none down (its value is a mean,
//! so one child's vector says nothing that bounds the others), and a node of the parent's own
//! player has none (more moves only raise its value for that player).
//!
//! # Why not deep pruning
//!
//! Alpha-beta also prunes with bounds from grandparents and above. For max^n that is unsound
//! (Korf 1991): a bound from the grandparent `g` says the node cannot be better for `g` than
//! what `g` has, but the node's value also decides what its parent picks among its siblings,
//! and a sibling the parent would then take may be better for `g`. The tests show a tree where
//! deep pruning returns a wrong vector.

use super::{Aborted, Ctx, Cut, MultiGame, MultiObserver, Payoffs, Turn};
use crate::game::MoveBuffer;

/// What shallow pruning needs of the game: the constant sum and the floor of the other
/// players' payoffs.
#[derive(Clone, Copy)]
struct Shallow {
    /// `S`, the sum of every payoff vector.
    sum: f64,
    /// `(n - 2) L`: the least the players other than the node's and its parent's get.
    others: f64,
}

/// max^n to `depth` plies from `root`: the root's vector and best move (`None` at a chance or
/// terminal root). `shallow` turns on shallow pruning with `ctx.bounds.0` as the floor `L` and
/// [`MultiGame::payoff_sum`] as `S`; a game with no constant sum is searched without pruning.
pub fn maxn<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
    shallow: bool,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    let n = ctx.game.players();
    let floor = ctx.bounds.0;
    let prune = match ctx.game.payoff_sum() {
        // With two players nobody else is left, and 0 times an infinite floor would be NaN.
        Some(sum) if shallow => Some(Shallow {
            sum,
            others: if n > 2 { (n - 2) as f64 * floor } else { 0.0 },
        }),
        _ => None,
    };
    mx(ctx, root, 0, depth, prune, None)
}

/// The max^n vector of `pos` and its best move. `bound` is `(q, b)`: the parent is a decision
/// node of player `q` that already has `b` (only given when pruning).
fn mx<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    pos: &G::Pos,
    ply: usize,
    depth: usize,
    prune: Option<Shallow>,
    bound: Option<(usize, f64)>,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    match bound {
        // The node matters to its parent's player only above what that player already has.
        Some((q, b)) => ctx.obs.entered(ply, pos, q, (b, f64::INFINITY)),
        None => ctx
            .obs
            .entered(ply, pos, 0, (f64::NEG_INFINITY, f64::INFINITY)),
    }
    let turn = ctx.game.turn(pos);
    if turn == Turn::Terminal || depth == 0 {
        let v = ctx.leaf(ply, pos, turn == Turn::Terminal)?;
        ctx.obs.settled(ply, pos, &v, true);
        return Ok((v, None));
    }
    ctx.visit(ply, turn)?;
    let Turn::Player(p) = turn else {
        ctx.game.outcomes(pos, &mut ctx.frames[ply].outcomes);
        let mut mean = Payoffs::zeros(ctx.game.players());
        for i in 0..ctx.frames[ply].outcomes.len() {
            let o = ctx.frames[ply].outcomes.as_slice()[i];
            let child = ctx.game.play(pos, o.mv);
            let (v, _) = mx(ctx, &child, ply + 1, depth - 1, prune, None)?;
            mean.add_scaled(o.prob, &v);
        }
        ctx.obs.settled(ply, pos, &mean, true);
        return Ok((mean, None));
    };
    // The parent's bound applies only when the parent is another player's decision node.
    let cap = match (prune, bound) {
        (Some(s), Some((q, b))) if q != p => Some((s, b)),
        _ => None,
    };
    ctx.game.moves(pos, &mut ctx.frames[ply].moves);
    let count = ctx.frames[ply].moves.len();
    let mut best: Option<(Payoffs, G::Move)> = None;
    for i in 0..count {
        let mv = ctx.frames[ply].moves.as_slice()[i];
        let child = ctx.game.play(pos, mv);
        let down = match (prune, &best) {
            (Some(_), Some((v, _))) => Some((p, v.get(p))),
            _ => None,
        };
        let (v, _) = mx(ctx, &child, ply + 1, depth - 1, prune, down)?;
        let x = match best {
            Some((b, _)) if v.get(p) <= b.get(p) => b.get(p),
            _ => {
                best = Some((v, mv));
                v.get(p)
            }
        };
        if let Some((s, b)) = cap {
            if i + 1 < count && s.sum - x - s.others <= b {
                ctx.stats.cutoffs += 1;
                ctx.obs.pruned(ply, pos, i + 1, Cut::Decision(b));
                let (v, mv) = best.expect("a child was searched");
                ctx.obs.settled(ply, pos, &v, false);
                return Ok((v, Some(mv)));
            }
        }
    }
    let (v, mv) = match best {
        Some((v, mv)) => (v, Some(mv)),
        // A player with no move: the game scores the position as it stands.
        None => (ctx.game.payoffs(pos), None),
    };
    ctx.obs.settled(ply, pos, &v, true);
    Ok((v, mv))
}
