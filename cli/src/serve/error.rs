//! Why `cutoff serve` could not start.

use std::net::SocketAddr;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The async runtime would not start.
    #[error("cannot start the server's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The address listened on could not be read back.
    #[error("cannot read the address listened on: {0}")]
    LocalAddr(#[source] std::io::Error),
    /// A test hook's variable that is not a time.
    #[error("{var} must be a whole number of milliseconds above 0, not {value:?}")]
    Timeout {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
    },
    /// The analyses' threads would not start.
    #[error(transparent)]
    Pool(#[from] cutoff_app::analysis::PoolError),
}

impl From<ServeError> for crate::cmd::CliError {
    fn from(e: ServeError) -> Self {
        crate::cmd::CliError(e.to_string())
    }
}
