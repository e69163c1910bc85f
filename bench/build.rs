//! Records the build in the binary: the git commit (and whether the sources differed from it)
//! and the rustc version, so that a regression run says what it measured. Everything falls back
//! to "unknown" outside a git checkout.

use std::path::PathBuf;
use std::process::Command;

/// The sources that make up the build: a change to any of them marks the build dirty.
const SOURCES: [&str; 6] = [
    "../engine",
    "../bench/src",
    "../bench/build.rs",
    "../bench/Cargo.toml",
    "../Cargo.toml",
    "../Cargo.lock",
];

fn git(args: &[&str]) -> Option<String> {
    // --no-optional-locks: never rewrite the index behind a developer's back.
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for s in SOURCES {
        println!("cargo:rerun-if-changed={s}");
    }
    // A commit moves HEAD or the branch it points to; rerun then to pick up the new hash.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let (Some(common), Some(head_ref)) = (
            git(&["rev-parse", "--git-common-dir"]),
            git(&["symbolic-ref", "-q", "HEAD"]),
        ) {
            let common = PathBuf::from(common);
            let common = if common.is_absolute() {
                common
            } else {
                std::env::current_dir().unwrap_or_default().join(common)
            };
            println!(
                "cargo:rerun-if-changed={}",
                common.join(&head_ref).display()
            );
            println!(
                "cargo:rerun-if-changed={}",
                common.join("packed-refs").display()
            );
        }
    }
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    let dirty = git(&status).is_some_and(|s| !s.is_empty());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=CUTOFF_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=CUTOFF_GIT_DIRTY={dirty}");
    println!("cargo:rustc-env=CUTOFF_RUSTC_VERSION={rustc_version}");
}
