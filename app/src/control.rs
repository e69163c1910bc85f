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
    /// Told how a CFR run goes: its budget, its steps and each checkpoint ([`CfrEvent`]).
    pub cfr: Option<&'a (dyn Fn(CfrEvent<'_>) + Sync)>,
    /// Told a line for the person running the work, beside the report (a shard skipped, a
    /// line solved); options in it are marked as in errors ([`crate::opt`]).
    pub note: Option<Note<'a>>,
}

/// A front end's way to show a line of the work's log ([`Control::note`]).
pub type Note<'a> = &'a (dyn Fn(&str) + Sync);

impl<'a> Control<'a> {
    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Hands `msg` to the front end's [`Control::note`], if it takes notes.
    pub fn note(&self, msg: &str) {
        if let Some(f) = self.note {
            f(msg);
        }
    }

    /// The front end's note, or one that drops the line.
    pub fn notes(&self) -> Note<'a> {
        self.note.unwrap_or(&|_| {})
    }
}

impl Control<'static> {
    /// A control that nothing raises and nothing watches.
    pub fn none() -> Self {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Control {
            stop: &NEVER,
            display: crate::progress::Display::Off,
            cfr: None,
            note: None,
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

/// What a CFR run tells its front end as it goes ([`Control::cfr`]), so that the front end
/// draws its own progress and prints its own lines.
#[derive(Clone, Copy, Debug)]
pub enum CfrEvent<'a> {
    /// A run starts: its budget, `total` iterations (or milliseconds if `seconds`), of which
    /// `at` are done (a resumed run).
    Start {
        /// The budget: iterations, or milliseconds of solving.
        total: u64,
        /// Whether the budget is time.
        seconds: bool,
        /// Where the run starts on that scale.
        at: u64,
    },
    /// A step of the run: where it is now on the budget's scale.
    Step(u64),
    /// A checkpoint of the exploitability curve, and its line as the command prints it.
    Point {
        /// Iterations run.
        iterations: u64,
        /// The average strategy's exploitability.
        exploitability: f64,
        /// `iteration N  exploitability E`, with the algorithm's name first when several run.
        line: &'a str,
    },
    /// The run is over.
    End,
}
