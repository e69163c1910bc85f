//! Ctrl-C (SIGINT) and SIGTERM during a search: the first signal raises a flag that every
//! search polls, so the command stops promptly and reports what it finished or proved; a
//! second one ends the program at once, with the shell's status for that signal. Where
//! there are no signals (WebAssembly) the flag is never raised.

#[cfg(unix)]
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// The raised flag and the signal that raised it.
struct Flags {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

/// Installs the handlers (once) and returns the flag they raise. If they cannot be installed
/// the flag is still returned and simply never raised: the signals keep their default
/// meaning.
pub fn install() -> &'static AtomicBool {
    let flags = FLAGS.get_or_init(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        #[cfg(unix)]
        for sig in [SIGINT, SIGTERM] {
            // The conditional shutdown goes first: it fires only when the flag is already
            // up, that is on the second signal; the first one raises the flag below.
            let _ =
                signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&stop));
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize);
            let _ = signal_hook::flag::register(sig, Arc::clone(&stop));
        }
        Flags { stop, which }
    });
    &flags.stop
}

/// True once SIGINT or SIGTERM arrived.
pub fn interrupted() -> bool {
    FLAGS.get().is_some_and(|f| f.stop.load(Relaxed))
}

/// The exit status of a command stopped by a signal: 128 + the signal's number (130 for
/// Ctrl-C, 143 for SIGTERM), the shell's convention.
pub fn exit_status() -> u8 {
    let sig = FLAGS.get().map_or(0, |f| f.which.load(Relaxed));
    if sig == 0 {
        EXIT_INTERRUPTED
    } else {
        (128 + sig).min(255) as u8
    }
}

/// Exit status of a command stopped by Ctrl-C (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;
