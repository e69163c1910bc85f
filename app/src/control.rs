//! How a front end runs a command's work: [`Control`] (its stop flag and progress display)
//! in, [`Outcome`] (the report as text and JSON) out.

use crate::error::AppError;
use std::sync::atomic::AtomicBool;

/// How a caller watches and stops a subcommand's work: the command's own way
/// (Ctrl-C and SIGTERM, standard error) or another front end's (the
/// Python package raises `stop` on KeyboardInterrupt and shows progress with a callback).
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Raised to stop the work early; the report then says what was done or proved.
    pub stop: &'a AtomicBool,
    /// How a search's progress is shown.
    pub display: crate::progress::Display<'a>,
    /// Told at each CFR checkpoint: the iterations run and the exploitability.
    pub checkpoint: Option<&'a (dyn Fn(u64, f64) + Sync)>,
}

impl Control<'_> {
    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Control<'static> {
    /// A control that nothing raises and nothing watches.
    pub fn none() -> Self {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Control {
            stop: &NEVER,
            display: crate::progress::Display::Off,
            checkpoint: None,
        }
    }
}

/// What a subcommand found, before it is shown: its report as text and as the JSON of
/// `--json`, and the error it ends with once the report is out (a search stopped before it
/// settled its value: the report says what it proved).
#[derive(Debug)]
pub struct Outcome {
    /// The text report, ending with a newline.
    pub text: String,
    /// The report as `--json` prints it.
    pub json: String,
    /// The error after the report, if any.
    pub after: Option<AppError>,
}
