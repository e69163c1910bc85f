//! The build a run measured: git commit, whether the sources differed from it, the compiler
//! and the allocator. Recorded by `build.rs` at compile time, so a binary built from another
//! revision reports that revision wherever it runs.

use serde::{Deserialize, Serialize};

/// Which build produced a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// The git commit the binary was built from ("unknown" outside a git checkout).
    pub commit: String,
    /// Whether the engine or bench sources differed from that commit.
    pub dirty: bool,
    /// `rustc --version` of the compiler that built it.
    pub rustc: String,
    /// The global allocator of the process: "system" or "mimalloc".
    #[serde(default = "unknown")]
    pub allocator: String,
}

fn unknown() -> String {
    "unknown".into()
}

impl BuildInfo {
    /// This binary's build.
    pub fn current() -> BuildInfo {
        BuildInfo {
            commit: env!("CUTOFF_GIT_COMMIT").to_string(),
            dirty: env!("CUTOFF_GIT_DIRTY") == "true",
            rustc: env!("CUTOFF_RUSTC_VERSION").to_string(),
            allocator: if cfg!(feature = "mimalloc") {
                "mimalloc"
            } else {
                "system"
            }
            .to_string(),
        }
    }

    /// A short description: the commit's first 12 digits, "+dirty" if it applies.
    pub fn short(&self) -> String {
        let c: String = self.commit.chars().take(12).collect();
        if self.dirty {
            format!("{c}+dirty")
        } else {
            c
        }
    }
}
