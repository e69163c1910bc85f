//! Ctrl-C during a search: the first press raises a flag that every search polls, so the
//! command stops promptly and reports what it finished; a second press ends it at once.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_signal: libc::c_int) {
    INTERRUPTED.store(true, Relaxed);
    // SAFETY: `signal` is async-signal-safe (POSIX), and restoring the default disposition
    // touches no memory of ours: the next Ctrl-C terminates the process as usual.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Installs the Ctrl-C handler and returns the flag it raises.
pub fn install() -> &'static AtomicBool {
    #[cfg(unix)]
    // SAFETY: the handler only stores to a static atomic and calls `signal`, both
    // async-signal-safe; it stays valid for the whole program (a plain `fn` item).
    unsafe {
        let handler: extern "C" fn(libc::c_int) = on_interrupt;
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
    &INTERRUPTED
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Relaxed)
}

/// Exit status of a command stopped by Ctrl-C (128 + SIGINT, the shell's convention).
pub const EXIT_INTERRUPTED: u8 = 130;
