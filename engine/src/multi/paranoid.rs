//! Paranoid search (placeholder being written).
use super::{Aborted, Ctx, MultiGame, MultiObserver, Payoffs};
/// Paranoid search to `depth` plies.
pub fn paranoid<G: MultiGame, O: MultiObserver<G>>(_ctx: &mut Ctx<'_, G, O>, _root: &G::Pos, _depth: usize) -> Result<(Payoffs, Option<G::Move>), Aborted> { unimplemented!() }
