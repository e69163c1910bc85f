//! `cutoff cfr`: its arguments, converted into
//! [`cutoff_app::commands::cfr`]'s options, and its printing.

use cutoff_app::commands::cfr;
use cutoff_app::{CfrEvent, Control};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

/// The arguments of `cutoff cfr`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: kuhn or leduc.
    pub game: String,
    /// The algorithm: cfr, cfr+, lcfr, dcfr or mccfr-es; several (repeated or
    /// comma-separated) to compare them.
    #[arg(
        long,
        value_name = "ALGO",
        value_delimiter = ',',
        default_value = "cfr+"
    )]
    pub algo: Vec<String>,
    /// Iterations in all (with --resume, the saved ones included).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Run each algorithm for S seconds of iterating instead (evaluations not counted), the
    /// curve and --svg then against time: to compare algorithms at equal cost.
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,
    /// Threads (mccfr-es only; the other algorithms are single-threaded).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Seed of mccfr-es's sampling (default 1; a resumed run goes on with the saved one).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// mccfr-es's iterations per batch (default 16): the results depend on the seed and the
    /// batch, not on --threads; larger batches keep more threads busy.
    #[arg(long, value_name = "N")]
    pub batch: Option<usize>,
    /// mccfr-es's variance reduction: both (the default), stratify (the deals), baseline
    /// (learned baselines) or none (the textbook algorithm's sampling).
    #[arg(long, value_name = "WHICH")]
    pub variance: Option<String>,
    /// Report the exploitability every K iterations (default: at 1, 10, 100, ..., or ten
    /// points a decade with --svg) and at the end.
    #[arg(long, value_name = "K")]
    pub every: Option<u64>,
    /// Save the solver's state to FILE at the end, to resume later (atomically: a failed
    /// write leaves the previous FILE as it was).
    #[arg(long, value_name = "FILE")]
    pub save: Option<String>,
    /// Resume from a state saved with --save (same game and algorithm).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// Print one JSON object (an array of them for several algorithms) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Draw exploitability against iterations, log-log, one line per algorithm, as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl Args {
    /// The options these arguments ask for.
    pub fn options(&self) -> cfr::Options {
        cfr::Options {
            game: self.game.clone(),
            algo: self.algo.clone(),
            iterations: self.iterations,
            seconds: self.seconds,
            threads: self.threads,
            seed: self.seed,
            batch: self.batch,
            variance: self.variance.clone(),
            every: self.every,
            save: self.save.clone(),
            resume: self.resume.clone(),
            svg: self.svg.clone(),
        }
    }
}

/// Runs `cutoff cfr`.
pub fn run(args: &Args) -> super::CliResult {
    // A bar only for a person watching a terminal; the checkpoints' lines on standard
    // output unless it carries the JSON.
    let watched = !args.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar: Mutex<Option<ProgressBar>> = Mutex::new(None);
    let on_event = |event: CfrEvent<'_>| {
        let mut bar = bar.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            CfrEvent::Start { total, seconds, at } if watched => {
                let template = if seconds {
                    "{bar:30} {msg}"
                } else {
                    "{bar:30} {pos}/{len} iterations {msg}"
                };
                let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                b.set_style(
                    ProgressStyle::with_template(template)
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                if !seconds {
                    b.set_position(at);
                }
                *bar = Some(b);
            }
            CfrEvent::Start { .. } => {}
            CfrEvent::Step(at) => {
                if let Some(b) = bar.as_ref() {
                    b.set_position(at);
                }
            }
            CfrEvent::Point {
                iterations,
                exploitability,
                line,
            } => match bar.as_ref() {
                Some(b) => {
                    b.set_message(format!(
                        "{iterations} iterations, exploitability {exploitability:.3e}"
                    ));
                    if !args.json {
                        b.println(line);
                    }
                }
                None if !args.json => println!("{line}"),
                None => {}
            },
            CfrEvent::End => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
            }
        }
    };
    // Ctrl-C ends the command at once, as it always has: nothing raises the stop flag.
    let control = Control {
        cfr: Some(&on_event),
        ..Control::none()
    };
    super::print(cfr::compute(&args.options(), control)?, args.json)
}
