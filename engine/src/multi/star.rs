//! Star1 and Star2 (placeholder being written).
use super::{Aborted, Ctx, MultiGame, MultiObserver, Payoffs};
/// Star1 (`probe` false) or Star2 (`probe` true) to `depth` plies.
pub fn star<G: MultiGame, O: MultiObserver<G>>(_ctx: &mut Ctx<'_, G, O>, _root: &G::Pos, _depth: usize, _probe: bool) -> Result<(Payoffs, Option<G::Move>), Aborted> { unimplemented!() }
