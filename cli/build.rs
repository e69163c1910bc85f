//! Puts the git commit the binary was built from into `cutoff --version`: the short hash, with
//! `-dirty` when the sources that make up the binary differed from it, or `unknown` where git
//! or the repository is missing (a crates.io tarball, say). Sets `CUTOFF_GIT_VERSION`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is built from, relative to this package: a change here makes the build
/// dirty, and makes cargo run this script again.
const SOURCES: [&str; 8] = [
    "../engine/src",
    "../engine/Cargo.toml",
    "../app/src",
    "../app/Cargo.toml",
    "src",
    "build.rs",
    "Cargo.toml",
    "../Cargo.lock",
];

/// Runs git with `args` in this package's folder: its trimmed output, `None` if git is
/// missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        // Never take the index lock, so a build running beside a commit cannot spoil it.
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A path git printed, made absolute against the current folder.
fn absolute(path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    }
}

/// Asks cargo to run this script again when HEAD moves: when HEAD itself changes (a checkout)
/// and when the branch it names gets a new commit (loose or packed ref).
fn watch_head() {
    let Some(git_dir) = git(&["rev-parse", "--git-dir"]) else {
        return;
    };
    println!(
        "cargo:rerun-if-changed={}",
        absolute(&git_dir).join("HEAD").display()
    );
    let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) else {
        return; // a detached HEAD: the file HEAD holds the hash itself
    };
    // Refs live in the common folder, which differs from the git folder in a worktree.
    let common = git(&["rev-parse", "--git-common-dir"]).unwrap_or(git_dir);
    let common = absolute(&common);
    // Cargo reruns the script at every build for a path that does not exist: watch only
    // what does. A branch whose ref is packed gets a loose file at its next commit, which
    // the watch on the refs' folder sees.
    let loose = common.join(&branch);
    let watched = if loose.exists() {
        Some(loose)
    } else {
        loose.parent().map(Path::to_path_buf).filter(|p| p.exists())
    };
    let packed = Some(common.join("packed-refs")).filter(|p| p.exists());
    for path in watched.iter().chain(&packed) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The version text: the short hash, `-dirty` if the sources differ from it, or `unknown`.
fn version() -> String {
    // Outside a checkout of this very project (a tarball unpacked inside some other
    // repository), git would name that repository's commit: ask whether git tracks our
    // manifest first.
    if git(&["ls-files", "--error-unmatch", "Cargo.toml"]).is_none() {
        return "unknown".into();
    }
    let Some(hash) = git(&["rev-parse", "--short", "HEAD"]) else {
        return "unknown".into();
    };
    let mut status = vec!["status", "--porcelain", "--"];
    status.extend(SOURCES);
    match git(&status) {
        Some(changes) if !changes.is_empty() => format!("{hash}-dirty"),
        Some(_) => hash,
        // The hash is right, whether the tree is clean is not known.
        None => format!("{hash}-unknown-status"),
    }
}

fn main() {
    for s in SOURCES {
        println!("cargo:rerun-if-changed={s}");
    }
    watch_head();
    println!("cargo:rustc-env=CUTOFF_GIT_VERSION={}", version());
}
