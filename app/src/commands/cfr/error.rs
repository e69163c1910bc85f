//! Why a CFR run fails ([`CfrError`]), apart from the run itself so that the application's
//! error type ([`crate::AppError`]) can hold it without depending on the command's work.

/// Why a CFR run could not start, resume, save or draw (the checks of its arguments are
/// [`crate::AppError::Invalid`]).
#[derive(Debug, thiserror::Error)]
pub enum CfrError {
    /// An algorithm `cfr` does not know.
    #[error("unknown algorithm '{}' (expected one of {ALGOS})", cutoff::game::quote(.0))]
    UnknownAlgorithm(String),
    /// A game `cfr` does not know.
    #[error("unknown game '{}' (expected one of {GAMES})", cutoff::game::quote(.0))]
    UnknownGame(String),
    /// The game's tree could not be built.
    #[error(transparent)]
    Tree(#[from] cutoff::cfr::TreeError),
    /// A full-width solver's state the solver refused.
    #[error(transparent)]
    State(#[from] cutoff::cfr::state::StateError),
    /// An MCCFR state the solver refused.
    #[error(transparent)]
    MccfrState(#[from] cutoff::cfr::mccfr::MccfrStateError),
    /// An MCCFR state that could not be written as JSON.
    #[error(transparent)]
    Save(serde_json::Error),
    /// A saved state that cannot be resumed.
    #[error("cannot resume from '{}': {source}", crate::message::shown_path(.path))]
    Resume {
        /// The file, as given.
        path: String,
        /// What is wrong with the state.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The figure could not be drawn.
    #[error("cannot draw '{}': {reason}", crate::message::shown_path(.path))]
    Draw {
        /// The file, as given.
        path: String,
        /// plotters' reason.
        reason: String,
    },
}

/// The games `cfr` knows.
const GAMES: &str = "kuhn, leduc";

/// The algorithms `--algo` accepts.
const ALGOS: &str = "cfr, cfr+, lcfr, dcfr, mccfr-es";
