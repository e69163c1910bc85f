//! max^n (placeholder being written).
use super::{Aborted, Ctx, MultiGame, MultiObserver, Payoffs};
/// max^n to `depth` plies; `shallow` turns on shallow pruning.
pub fn maxn<G: MultiGame, O: MultiObserver<G>>(_ctx: &mut Ctx<'_, G, O>, _root: &G::Pos, _depth: usize, _shallow: bool) -> Result<(Payoffs, Option<G::Move>), Aborted> { unimplemented!() }
