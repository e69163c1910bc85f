//! Paranoid search (Sturtevant and Korf, 2000): the player to move at the root against the
//! coalition of all the others.
//!
//! The root player `r` assumes the worst: every other player moves to minimise `r`'s payoff,
//! as if they had teamed up; chance nodes are expectations. That is a two-player zero-sum game
//! (`r` against the coalition), so it can be pruned with alpha-beta, which max^n cannot be
//! beyond shallow pruning. The price is realism: the others do not really play against `r`,
//! so paranoid play is often too cautious.
//!
//! The reduction is literal, so the two-player engine does the work: [`ParanoidView`] is the
//! game seen as that two-player game (`r` becomes player 0, every other player player 1,
//! payoffs `(v_r, -v_r)`), and it is searched by Star1 ([`super::star`]: alpha-beta at decision
//! nodes, Ballard's bounds at chance nodes) in a context of its own that shares the caller's
//! counters, budgets and observer. The view has no table: paranoid does not use one.
//!
//! The value vector returned gives `r` the paranoid value `v` and every other player
//! `-v / (n - 1)`: the coalition's share of a zero-sum split. It is a convention, not the
//! payoffs of a particular leaf (alpha-beta proves a value, not what each member of the
//! coalition would get).

use super::star::star;
use super::{
    owner, Aborted, Ctx, Cut, MultiGame, MultiLimits, MultiObserver, Outcomes, Payoffs, Turn,
};
use crate::rng::splitmix64;

/// An n-player game seen by one player as a two-player zero-sum game against the coalition of
/// all the others: that player is player 0, everyone else player 1, and the payoffs are
/// `(v, -v)` where `v` is that player's payoff in the game.
#[derive(Clone, Copy, Debug)]
pub struct ParanoidView<'g, G> {
    game: &'g G,
    player: usize,
}

impl<'g, G: MultiGame> ParanoidView<'g, G> {
    /// `game` as `player` sees it against the coalition of the others.
    pub fn new(game: &'g G, player: usize) -> Self {
        ParanoidView { game, player }
    }

    /// The player the coalition plays against.
    pub fn player(&self) -> usize {
        self.player
    }

    /// Leaf bounds of the two-player view from those of the game: both `v` and `-v` lie in
    /// them.
    pub fn bounds((lo, hi): (f64, f64)) -> (f64, f64) {
        (lo.min(-hi), hi.max(-lo))
    }
}

impl<G: MultiGame> MultiGame for ParanoidView<'_, G> {
    type Pos = G::Pos;
    type Move = G::Move;
    type Moves = G::Moves;

    fn players(&self) -> usize {
        2
    }

    fn initial(&self) -> G::Pos {
        self.game.initial()
    }

    #[inline]
    fn turn(&self, pos: &G::Pos) -> Turn {
        match self.game.turn(pos) {
            Turn::Player(p) => Turn::Player((p != self.player) as usize),
            t => t,
        }
    }

    fn payoffs(&self, pos: &G::Pos) -> Payoffs {
        Payoffs::zero_sum2(0, self.game.payoffs(pos).get(self.player))
    }

    #[inline]
    fn moves(&self, pos: &G::Pos, out: &mut G::Moves) {
        self.game.moves(pos, out)
    }

    fn outcomes(&self, pos: &G::Pos, out: &mut Outcomes<G::Move>) {
        self.game.outcomes(pos, out)
    }

    #[inline]
    fn play(&self, pos: &G::Pos, mv: G::Move) -> G::Pos {
        self.game.play(pos, mv)
    }

    fn key(&self, pos: &G::Pos) -> u64 {
        // The value depends on whose view it is: keep the views apart in a shared table.
        self.game.key(pos) ^ splitmix64(self.player as u64)
    }

    fn max_plies(&self, pos: &G::Pos) -> usize {
        self.game.max_plies(pos)
    }

    fn payoff_bounds(&self) -> (f64, f64) {
        Self::bounds(self.game.payoff_bounds())
    }

    fn payoff_sum(&self) -> Option<f64> {
        Some(0.0)
    }

    fn evaluate(&self, pos: &G::Pos) -> Payoffs {
        Payoffs::zero_sum2(0, self.game.evaluate(pos).get(self.player))
    }

    fn move_hint(&self, pos: &G::Pos, mv: G::Move) -> i32 {
        self.game.move_hint(pos, mv)
    }

    fn format_move(&self, pos: &G::Pos, mv: G::Move) -> String {
        self.game.format_move(pos, mv)
    }

    fn name(&self) -> &'static str {
        self.game.name()
    }
}

/// The vector reported for a value `v` of `player` against the coalition: `v` for the player,
/// `-v / (n - 1)` for each of the others.
pub(super) fn coalition_split(n: usize, player: usize, v: f64) -> Payoffs {
    let mut p = Payoffs::zeros(n);
    let rest = -v / (n.max(2) - 1) as f64;
    for i in 0..p.len() {
        p.set(i, if i == player { v } else { rest });
    }
    p
}

/// Hands the view's events to the caller's observer, with the vectors of the whole game.
struct Relay<'o, O> {
    obs: &'o mut O,
    player: usize,
    n: usize,
}

impl<G: MultiGame, O: MultiObserver<G>> MultiObserver<ParanoidView<'_, G>> for Relay<'_, O> {
    fn settled(&mut self, ply: usize, pos: &G::Pos, value: &Payoffs, exact: bool) {
        let v = coalition_split(self.n, self.player, value.get(0));
        <O as MultiObserver<G>>::settled(self.obs, ply, pos, &v, exact);
    }

    fn pruned(&mut self, ply: usize, parent: &G::Pos, from: usize, cut: Cut) {
        <O as MultiObserver<G>>::pruned(self.obs, ply, parent, from, cut);
    }

    fn entered(&mut self, ply: usize, pos: &G::Pos, player: usize, (a, b): (f64, f64)) {
        // The view's player 1 is the coalition: its window, negated, is the root player's.
        let window = if player == 0 { (a, b) } else { (-b, -a) };
        <O as MultiObserver<G>>::entered(self.obs, ply, pos, self.player, window);
    }
}

/// Paranoid search to `depth` plies from `root`: the vector described in the module comment
/// and the root player's best move. The root player is the one to move there (player 0 at a
/// chance root). The nodes are counted into `ctx.stats` and the budgets are `ctx`'s.
pub fn paranoid<G: MultiGame, O: MultiObserver<G>>(
    ctx: &mut Ctx<'_, G, O>,
    root: &G::Pos,
    depth: usize,
) -> Result<(Payoffs, Option<G::Move>), Aborted> {
    let game = ctx.game;
    let n = game.players();
    let me = owner(game.turn(root), 0);
    let view = ParanoidView::new(game, me);
    let limits = MultiLimits {
        depth: Some(depth),
        ..MultiLimits::default()
    };
    let relay = Relay {
        obs: &mut ctx.obs,
        player: me,
        n,
    };
    let mut inner = Ctx::new(&view, root, &limits, None, relay);
    // The view's search goes on with the caller's counters and budgets, as if it were the
    // caller's own.
    inner.bounds = ParanoidView::<G>::bounds(ctx.bounds);
    inner.stats = ctx.stats;
    inner.node_budget = ctx.node_budget;
    inner.deadline = ctx.deadline;
    inner.stop = ctx.stop;
    inner.next_check = ctx.next_check;
    inner.progress = ctx.progress;
    inner.published = ctx.published;
    // The root player is the view's player 0 (at a chance root too), so Star1's pair is
    // `(v, -v)` with `v` the root player's value.
    let run = star(&mut inner, root, depth, false).map(|(v, mv)| (v.get(0), mv));
    let (stats, next_check, horizon_hit) = (inner.stats, inner.next_check, inner.horizon_hit);
    let published = inner.published;
    drop(inner);
    ctx.stats = stats;
    ctx.published = published;
    ctx.next_check = next_check;
    ctx.horizon_hit |= horizon_hit;
    let (v, best) = run?;
    Ok((coalition_split(n, me, v), best))
}
