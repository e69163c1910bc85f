//! Best-reply search (placeholder being written).
use super::{Aborted, Ctx, MultiGame, MultiObserver, Payoffs};
/// Best-reply search to `depth` plies.
pub fn brs<G: MultiGame, O: MultiObserver<G>>(_ctx: &mut Ctx<'_, G, O>, _root: &G::Pos, _depth: usize) -> Result<(Payoffs, Option<G::Move>), Aborted> { unimplemented!() }
