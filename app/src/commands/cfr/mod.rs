//! `cutoff cfr GAME`: solve an imperfect-information game (Kuhn poker, Leduc hold'em) with
//! CFR, CFR+, linear or discounted CFR; print the exploitability as it falls, then the game
//! value, the exploitability and the average strategy. Runs can be saved and resumed, and
//! several algorithms compared on one log-log figure.

use crate::{AppError, CfrEvent, Control, Outcome};
use cutoff::cfr::mccfr::{self, Mccfr, MccfrState, MAX_BATCH};
use cutoff::cfr::state::{CfrState, MAX_ITERATIONS};
use cutoff::cfr::{
    expected_values, exploitability, nash_conv, Cfr, Extensive, ExtensiveTree, Variant,
};
use cutoff::games::imperfect::kuhn::Kuhn;
use cutoff::games::imperfect::leduc::Leduc;
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

mod error;

pub use error::CfrError;

/// The arguments of `cutoff cfr`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game: kuhn or leduc.
    pub game: String,
    /// The algorithm: cfr, cfr+, lcfr, dcfr or mccfr-es; several (repeated or
    /// comma-separated) to compare them.
    pub algo: Vec<String>,
    /// Iterations in all (with --resume, the saved ones included).
    pub iterations: Option<u64>,
    /// Run each algorithm for S seconds of iterating instead (evaluations not counted), the
    /// curve and --svg then against time: to compare algorithms at equal cost.
    pub seconds: Option<f64>,
    /// Threads (mccfr-es only; the other algorithms are single-threaded).
    pub threads: Option<usize>,
    /// Seed of mccfr-es's sampling (default 1; a resumed run goes on with the saved one).
    pub seed: Option<u64>,
    /// mccfr-es's iterations per batch (default 16): the results depend on the seed and the
    /// batch, not on --threads; larger batches keep more threads busy.
    pub batch: Option<usize>,
    /// mccfr-es's variance reduction: both (the default), stratify (the deals), baseline
    /// (learned baselines) or none (the textbook algorithm's sampling).
    pub variance: Option<String>,
    /// Report the exploitability every K iterations (default: at 1, 10, 100, ..., or ten
    /// points a decade with --svg) and at the end.
    pub every: Option<u64>,
    /// Save the solver's state to FILE at the end, to resume later (atomically: a failed
    /// write leaves the previous FILE as it was).
    pub save: Option<String>,
    /// Resume from a state saved with --save (same game and algorithm).
    pub resume: Option<String>,
    /// Draw exploitability against iterations, log-log, one line per algorithm, as SVG.
    pub svg: Option<String>,
}

/// One information set's average strategy.
#[derive(Clone, Debug, Serialize)]
pub struct InfosetStrategy {
    /// The information set's key.
    pub infoset: String,
    /// The player who acts there.
    pub player: usize,
    /// The actions' names.
    pub actions: Vec<String>,
    /// The average strategy's probability of each action.
    pub probabilities: Vec<f64>,
}

/// The report of one algorithm's run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// The game.
    pub game: String,
    /// The algorithm.
    pub algo: String,
    /// Iterations in all, resumed ones included.
    pub iterations: u64,
    /// Seconds this run spent iterating (evaluations left out).
    pub seconds: f64,
    /// This run's iterations per second.
    pub iterations_per_second: f64,
    /// The first player's expected payoff under the average strategy.
    pub value: f64,
    /// NashConv: the sum of the players' best-response gains.
    pub nash_conv: f64,
    /// NashConv divided by the number of players.
    pub exploitability: f64,
    /// `[iteration, exploitability]` at each report point of this run.
    pub curve: Vec<(u64, f64)>,
    /// The seconds spent iterating when each point of `curve` was reached.
    pub curve_seconds: Vec<f64>,
    /// The average strategy, information set by information set.
    pub strategy: Vec<InfosetStrategy>,
}

/// An algorithm asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Algo {
    /// One of the deterministic, full-width variants.
    Full(Variant),
    /// External-sampling Monte Carlo CFR.
    ExternalSampling,
}

impl Algo {
    fn parse(s: &str) -> Result<Algo, AppError> {
        let s = s.trim();
        if s == "mccfr-es" {
            return Ok(Algo::ExternalSampling);
        }
        cutoff::cfr::state::variant_named(s)
            .map(Algo::Full)
            .ok_or_else(|| CfrError::UnknownAlgorithm(s.to_string()).into())
    }
}

/// A solver the command can drive: the full-width variants on the flat tree, or MCCFR on the
/// game's own states.
trait Iterative {
    /// Runs `n` more iterations.
    fn run(&mut self, n: u64);
    /// Iterations run so far.
    fn iterations(&self) -> u64;
    /// The average strategy on `tree`'s slots.
    fn average(&self, tree: &ExtensiveTree) -> Vec<f64>;
    /// The state as the text of a save file.
    fn save(&self) -> Result<String, AppError>;
    /// Iterations that `run` should be called in multiples of, for results that do not
    /// depend on how a run is cut up.
    fn granule(&self) -> u64;
}

impl Iterative for Cfr<'_> {
    fn run(&mut self, n: u64) {
        Cfr::run(self, n);
    }
    fn iterations(&self) -> u64 {
        Cfr::iterations(self)
    }
    fn average(&self, _tree: &ExtensiveTree) -> Vec<f64> {
        self.average_strategy()
    }
    fn save(&self) -> Result<String, AppError> {
        Ok(self.state().to_text())
    }
    fn granule(&self) -> u64 {
        1
    }
}

/// The first line of an MCCFR save file (a JSON object follows).
const MCCFR_MAGIC: &str = "cutoff-mccfr-state 2";

impl<G: Extensive + Sync + Send> Iterative for Mccfr<G> {
    fn run(&mut self, n: u64) {
        Mccfr::run(self, n);
    }
    fn iterations(&self) -> u64 {
        Mccfr::iterations(self)
    }
    fn average(&self, tree: &ExtensiveTree) -> Vec<f64> {
        self.average_strategy_for(tree)
    }
    fn save(&self) -> Result<String, AppError> {
        let json = serde_json::to_string(&self.state()).map_err(CfrError::Save)?;
        Ok(format!("{MCCFR_MAGIC}\n{json}\n"))
    }
    fn granule(&self) -> u64 {
        self.settings().batch as u64
    }
}

/// A saved state, of either kind.
enum Saved {
    /// A full-width variant's.
    Full(CfrState),
    /// MCCFR's.
    Sampled(MccfrState),
}

/// What `cutoff cfr` finds, under `control`: raising its stop flag ends each run at its next
/// progress step, with the report of the iterations done; its checkpoint hook is told each
/// point of the exploitability curve.
pub fn compute(args: &Options, control: Control<'_>) -> Result<Outcome, AppError> {
    let tree = tree_of(&args.game)?;
    let algos = args
        .algo
        .iter()
        .map(|s| Algo::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let budget = match (args.iterations, args.seconds) {
        (Some(_), Some(_)) => {
            return Err(AppError::invalid(
                "give \u{1}iterations\u{2} N or \u{1}seconds\u{2} S, not both",
            ))
        }
        (Some(0), _) => return Err(AppError::invalid("\u{1}iterations\u{2} must be at least 1")),
        (Some(n), _) if n > MAX_ITERATIONS => {
            return Err(AppError::invalid(format!(
                "\u{1}iterations\u{2} {n} is more than the {MAX_ITERATIONS} a solver runs"
            )))
        }
        (Some(n), _) => Budget::Iterations(n),
        // At most a day: a bound that no mistyped figure can turn into a run without end.
        (None, Some(s)) if s > 0.0 && s <= 86_400.0 => Budget::Seconds(s),
        (None, Some(s)) => {
            return Err(AppError::invalid(format!(
                "\u{1}seconds\u{2} must be more than 0 and at most 86400, not {s}"
            )))
        }
        (None, None) => {
            return Err(AppError::invalid(
                "give \u{1}iterations\u{2} N or \u{1}seconds\u{2} S",
            ))
        }
    };
    if args.every == Some(0) {
        return Err(AppError::invalid("\u{1}every\u{2} must be at least 1"));
    }

    if algos.len() > 1 && (args.save.is_some() || args.resume.is_some()) {
        return Err(AppError::invalid(
            "\u{1}save\u{2} and \u{1}resume\u{2} take a single \u{1}algo\u{2}",
        ));
    }
    for a in &algos {
        if let (Algo::Full(v), Some(t)) = (a, args.threads) {
            if t != 1 {
                return Err(AppError::invalid(format!(
                    "\u{1}threads\u{2} {t}: {} is single-threaded (\u{1}threads\u{2} applies to mccfr-es only)",
                    v.name()
                )));
            }
        }
        if let Algo::Full(v) = a {
            if args.seed.is_some() || args.batch.is_some() || args.variance.is_some() {
                return Err(AppError::invalid(format!(
                    "\u{1}seed\u{2}, \u{1}batch\u{2} and \u{1}variance\u{2} apply to mccfr-es only, not to {}",
                    v.name()
                )));
            }
        }
    }
    let sampling = Sampling::parse(args)?;
    let threads = crate::options::threads(args.threads)?;
    // The files written at the end, checked before the run rather than after it.
    if let Some(path) = &args.save {
        crate::files::check_writable(Path::new(path))?;
        ignore_file_size_signal();
    }
    if let Some(path) = &args.svg {
        crate::files::check_writable(Path::new(path))?;
    }
    let mut resumed = match &args.resume {
        Some(path) => Some(load(path, &tree, &algos[0])?),
        None => None,
    };
    check_budget(args, budget, saved_iterations(resumed.as_ref()))?;
    let mut runs = Vec::new();
    for &algo in &algos {
        let (mut solver, name) = start(&tree, algo, resumed.take(), threads, sampling)?;
        if args.save.is_some()
            && matches!(budget, Budget::Iterations(n) if !n.is_multiple_of(solver.granule()))
        {
            return Err(AppError::invalid(format!(
                "\u{1}save\u{2} with mccfr-es needs \u{1}iterations\u{2} a multiple of its batch of {} (so that the resumed run equals the straight one)",
                solver.granule()
            )));
        }
        let run = solve(
            &tree,
            solver.as_mut(),
            name,
            args,
            budget,
            algos.len() > 1,
            control,
        )?;
        if let Some(path) = &args.save {
            crate::files::write_atomic(Path::new(path), solver.save()?.as_bytes())?;
        }
        runs.push(run);
    }
    if let Some(path) = &args.svg {
        write_svg(&tree, &runs, path, args.seconds.is_some())?;
    }
    let json = if runs.len() == 1 {
        serde_json::to_string_pretty(&runs[0])
    } else {
        serde_json::to_string_pretty(&runs)
    }
    .map_err(AppError::Json)?;
    let text: Vec<String> = runs.iter().map(|r| text(&tree, r) + "\n").collect();
    let stopped = control.stopped();
    Ok(Outcome {
        text: text.join("\n"),
        json,
        after: stopped.then(|| {
            AppError::InterruptedWhile(format!(
                "running {} (the report holds the iterations done)",
                runs.last().map_or("cfr", |r| r.algo.as_str())
            ))
        }),
    })
}

/// What `cutoff cfr GAME --algo ALGO --resume FILE --iterations N --json --save FILE2` does,
/// with FILE's contents given as `text` and `N` its saved iterations plus `more` (at most
/// [`MAX_ITERATIONS`]): the state read and checked, the solver made from it and run, the
/// report, and the text written to FILE2. Every step is the command's own; the fuzz target
/// `cfr_resume` runs it on fuzzed states.
pub fn resume(
    tree: &ExtensiveTree,
    algo: &str,
    text: &str,
    more: u64,
) -> Result<(Run, String), AppError> {
    let algo = Algo::parse(algo)?;
    let saved = load_text(text, "fuzz.state", tree, &algo)?;
    let done = saved_iterations(Some(&saved));
    let n = done.saturating_add(more).clamp(1, MAX_ITERATIONS);
    let args = Options {
        game: tree.name().to_string(),
        algo: vec![algo_name(algo).to_string()],
        iterations: Some(n),
        seconds: None,
        threads: None,
        seed: None,
        batch: None,
        variance: None,
        every: None,
        save: None,
        resume: None,
        svg: None,
    };
    let budget = Budget::Iterations(n);
    check_budget(&args, budget, done)?;
    let sampling = Sampling::parse(&args)?;
    let (mut solver, name) = start(tree, algo, Some(saved), 1, sampling)?;
    let run = solve(
        tree,
        solver.as_mut(),
        name,
        &args,
        budget,
        false,
        Control::none(),
    )?;
    Ok((run, solver.save()?))
}

/// The tree of the game named `game`.
fn tree_of(game: &str) -> Result<ExtensiveTree, AppError> {
    match game {
        "kuhn" => ExtensiveTree::build(&Kuhn),
        "leduc" => ExtensiveTree::build(&Leduc),
        other => return Err(CfrError::UnknownGame(other.to_string()).into()),
    }
    .map_err(|e| CfrError::from(e).into())
}

/// The iterations of a saved state (0 for none).
fn saved_iterations(saved: Option<&Saved>) -> u64 {
    match saved {
        Some(Saved::Full(s)) => s.iterations,
        Some(Saved::Sampled(s)) => s.iterations,
        None => 0,
    }
}

/// Checks `budget` against the `done` iterations of the resumed state: not fewer, and not
/// more report points than [`MAX_POINTS`].
fn check_budget(args: &Options, budget: Budget, done: u64) -> Result<(), AppError> {
    if let (Some(k), Budget::Iterations(n)) = (args.every, budget) {
        let points = (n / k).saturating_sub(done / k);
        if points > MAX_POINTS {
            return Err(AppError::invalid(format!(
                "\u{1}every\u{2} {k} would report {points} times; at most {MAX_POINTS} (the curve is kept in memory)"
            )));
        }
    }
    if let Budget::Iterations(n) = budget {
        if done > n {
            return Err(AppError::invalid(format!(
                "\u{1}iterations\u{2} {n} is fewer than the {done} iterations of the saved state"
            )));
        }
    }
    Ok(())
}

/// The solver of `algo` on `tree`, new or from `saved`, and the name it is reported under.
fn start<'t>(
    tree: &'t ExtensiveTree,
    algo: Algo,
    saved: Option<Saved>,
    threads: usize,
    sampling: Sampling,
) -> Result<(Box<dyn Iterative + 't>, &'static str), AppError> {
    Ok(match (algo, saved) {
        (Algo::Full(_), Some(Saved::Full(state))) => (
            Box::new(Cfr::from_state(tree, &state).map_err(CfrError::from)?),
            algo_name(algo),
        ),
        (Algo::Full(v), _) => (Box::new(Cfr::new(tree).variant(v)), v.name()),
        (Algo::ExternalSampling, saved) => {
            let state = match saved {
                Some(Saved::Sampled(s)) => Some(s),
                _ => None,
            };
            (sampled(tree.name(), state, threads, sampling)?, "mccfr-es")
        }
    })
}

/// Makes a write past the file-size limit (`ulimit -f`) fail with an error, which the atomic
/// save reports, removing its temporary file, rather than kill the process with SIGXFSZ in
/// the middle of the write.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" touches no memory of ours, and no
    // handler of ours exists for SIGXFSZ that this would race with.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The name `--algo` gives `algo`.
fn algo_name(algo: Algo) -> &'static str {
    match algo {
        Algo::Full(v) => v.name(),
        Algo::ExternalSampling => "mccfr-es",
    }
}

/// MCCFR on the game named `game`, new or from `state`.
fn sampled(
    game: &str,
    state: Option<MccfrState>,
    threads: usize,
    sampling: Sampling,
) -> Result<Box<dyn Iterative>, AppError> {
    fn make<G: Extensive + Sync + Send + 'static>(
        g: G,
        state: Option<MccfrState>,
        threads: usize,
        sampling: Sampling,
    ) -> Result<Box<dyn Iterative>, AppError> {
        Ok(match state {
            Some(s) => {
                let m = Mccfr::from_state(g, s)
                    .map_err(CfrError::from)?
                    .threads(threads);
                let set = m.settings();
                if sampling.seed.is_some_and(|s| s != set.seed) {
                    return Err(AppError::invalid(format!(
                        "\u{1}seed\u{2}: the saved state goes on with its seed {}",
                        set.seed
                    )));
                }
                if sampling.batch.is_some_and(|b| b != set.batch) {
                    return Err(AppError::invalid(format!(
                        "\u{1}batch\u{2}: the saved state runs batches of {}, and must go on with them",
                        set.batch
                    )));
                }
                if sampling
                    .reduction
                    .is_some_and(|r| r != (set.stratified, set.baseline.is_some()))
                {
                    return Err(AppError::invalid(
                        "\u{1}variance\u{2}: the saved state was made with another variance reduction",
                    ));
                }
                Box::new(m)
            }
            None => {
                let (stratify, baseline) = sampling
                    .reduction
                    .unwrap_or((mccfr::DEFAULT_STRATIFIED, mccfr::DEFAULT_BASELINE.is_some()));
                Box::new(
                    Mccfr::new(g)
                        .seed(sampling.seed.unwrap_or(1))
                        .threads(threads)
                        .batch(sampling.batch.unwrap_or(mccfr::DEFAULT_BATCH))
                        .stratified(stratify)
                        .baseline(if baseline {
                            mccfr::DEFAULT_BASELINE
                        } else {
                            None
                        }),
                )
            }
        })
    }
    match game {
        "kuhn" => make(Kuhn, state, threads, sampling),
        _ => make(Leduc, state, threads, sampling),
    }
}

/// mccfr-es's `--seed`, `--batch` and `--variance`, as given.
#[derive(Clone, Copy, Debug)]
struct Sampling {
    seed: Option<u64>,
    batch: Option<usize>,
    /// (stratified deals, learned baselines).
    reduction: Option<(bool, bool)>,
}

impl Sampling {
    fn parse(args: &Options) -> Result<Sampling, AppError> {
        // Bounded: a batch's changes are held in memory until it ends.
        let batch = match args.batch {
            Some(b) if !(1..=MAX_BATCH).contains(&b) => {
                return Err(AppError::invalid(format!(
                    "\u{1}batch\u{2} must be between 1 and {MAX_BATCH}"
                )))
            }
            b => b,
        };
        let reduction = match args.variance.as_deref() {
            None => None,
            Some("both") => Some((true, true)),
            Some("stratify") => Some((true, false)),
            Some("baseline") => Some((false, true)),
            Some("none") => Some((false, false)),
            Some(other) => {
                return Err(AppError::invalid(format!(
                    "unknown \u{1}variance\u{2} '{}' (expected both, stratify, baseline or none)",
                    cutoff::game::quote(other)
                )))
            }
        };
        Ok(Sampling {
            seed: args.seed,
            batch,
            reduction,
        })
    }
}

/// Reads the state saved in `path` for `algo` on `tree` (at most
/// [`INPUT_LIMIT`](crate::files::INPUT_LIMIT) bytes: any file the user names, a FIFO included).
fn load(path: &str, tree: &ExtensiveTree, algo: &Algo) -> Result<Saved, AppError> {
    let text = crate::files::read_file(path)?;
    load_text(&text, path, tree, algo)
}

/// Reads and checks `text`, the state saved in `path`, for `algo` on `tree`: a state that
/// passes runs on without overflow (see [`cutoff::cfr::state`]).
fn load_text(text: &str, path: &str, tree: &ExtensiveTree, algo: &Algo) -> Result<Saved, AppError> {
    let text = crate::files::strip_bom(text);
    let fail = |source: Box<dyn std::error::Error + Send + Sync>| CfrError::Resume {
        path: path.to_string(),
        source,
    };
    let asked = algo_name(*algo);
    let (saved, algo) = if let Some(json) = text.strip_prefix(MCCFR_MAGIC) {
        let state: MccfrState = serde_json::from_str(json)
            .map_err(|e| fail(format!("not a saved MCCFR state ({e})").into()))?;
        if state.game != tree.name() {
            return Err(fail(
                format!(
                    "the saved state is of game {}, not {}",
                    cutoff::game::quote(&state.game),
                    tree.name()
                )
                .into(),
            )
            .into());
        }
        state.check(tree).map_err(|e| fail(e.into()))?;
        (Saved::Sampled(state), "mccfr-es".to_string())
    } else {
        let state = CfrState::from_text(text).map_err(|e| fail(e.into()))?;
        state.check(tree).map_err(|e| fail(e.into()))?;
        // The label must name the parameters the solver will run with.
        let algo = match cutoff::cfr::state::variant_for(state.params) {
            Some(v) if v.name() == state.algo => state.algo.clone(),
            _ => {
                return Err(fail(
                    format!(
                        "the saved state's parameters are not those of algorithm {}",
                        cutoff::game::quote(&state.algo)
                    )
                    .into(),
                )
                .into())
            }
        };
        (Saved::Full(state), algo)
    };
    if algo != asked {
        return Err(fail(
            format!(
                "the saved state is of algorithm {}, not {asked}",
                cutoff::game::quote(&algo)
            )
            .into(),
        )
        .into());
    }
    Ok(saved)
}

/// The iterations at which the exploitability is reported, after `from` and up to `to`
/// (always included).
fn checkpoints(from: u64, to: u64, every: Option<u64>, dense: bool, granule: u64) -> Vec<u64> {
    let mut out: Vec<u64> = report_points(from, every, dense, granule)
        .take_while(|&t| t < to)
        .collect();
    if to > from {
        out.push(to);
    }
    out
}

/// The most report points a run keeps: the curve is held in memory, and each point costs an
/// evaluation. A run against the clock stops when it has this many.
const MAX_POINTS: u64 = 100_000;

/// How long each algorithm runs.
#[derive(Clone, Copy, Debug)]
enum Budget {
    /// To this many iterations in all.
    Iterations(u64),
    /// For this many seconds of iterating.
    Seconds(f64),
}

/// The report points after `from`: every `K`-th iteration with `--every K`, else powers of
/// ten (ten points a decade when `dense`), rounded up to whole granules so that how the run
/// is cut up changes nothing, up to [`MAX_ITERATIONS`]. A run against the clock takes them
/// until its time is spent; a run to `N` iterations up to `N` ([`checkpoints`]).
fn report_points(
    from: u64,
    every: Option<u64>,
    dense: bool,
    granule: u64,
) -> impl Iterator<Item = u64> {
    let per_decade = if dense { 10.0 } else { 1.0 };
    let mut last = from;
    // The first index whose point can lie past `from`, so that a resumed run does not count
    // its way up from 1.
    let start = match every {
        Some(k) => (from / k).saturating_add(1),
        None if from == 0 => 1,
        None => ((from as f64).log10() * per_decade).floor().max(1.0) as u64,
    };
    // The last point: as far as a solver runs, in whole granules. The points end there, so
    // that a run against the clock goes on to it and no further, and the iterator ends
    // whatever `from` and `every` are.
    let end = MAX_ITERATIONS / granule * granule;
    (start..=u64::MAX)
        .map_while(move |i| match every {
            Some(k) => i.checked_mul(k),
            None => {
                let t = 10f64.powf((i - 1) as f64 / per_decade).round();
                (t < 1e18).then_some(t as u64)
            }
        })
        .map(move |t| t.div_ceil(granule).saturating_mul(granule))
        .take_while(move |&t| t < end)
        .chain(std::iter::once(end))
        .filter(move |&t| {
            let new = t > last;
            last = last.max(t);
            new
        })
}

/// Runs `solver` for `budget`, reporting the exploitability at the checkpoints.
fn solve(
    tree: &ExtensiveTree,
    solver: &mut dyn Iterative,
    name: &str,
    args: &Options,
    budget: Budget,
    several: bool,
    control: Control<'_>,
) -> Result<Run, AppError> {
    let start_iter = solver.iterations();
    let granule = solver.granule();
    let points: Box<dyn Iterator<Item = u64>> = match budget {
        Budget::Iterations(n) => Box::new(
            checkpoints(start_iter, n, args.every, args.svg.is_some(), granule).into_iter(),
        ),
        Budget::Seconds(_) => Box::new(report_points(start_iter, args.every, true, granule)),
    };
    if let Some(tell) = control.cfr {
        tell(match budget {
            Budget::Iterations(n) => CfrEvent::Start {
                total: n,
                seconds: false,
                at: start_iter,
            },
            Budget::Seconds(s) => CfrEvent::Start {
                total: (s * 1000.0) as u64,
                seconds: true,
                at: 0,
            },
        });
    }
    let mut spent = Duration::ZERO;
    let mut curve = Vec::new();
    let mut curve_seconds = Vec::new();
    let mut avg;
    for point in points {
        // A bar step: about 200 of them in a run, so that drawing costs nothing; against
        // the clock, also the granularity at which the budget is checked.
        let (target, step) = match budget {
            Budget::Iterations(n) => (point, (n / 200).max(1)),
            Budget::Seconds(limit) => {
                let ran = solver.iterations() - start_iter;
                let rate = ran as f64 / spent.as_secs_f64().max(1e-9);
                let step = if ran == 0 {
                    1
                } else {
                    (rate * limit / 200.0) as u64
                };
                (point, step.max(1))
            }
        };
        let step = step.div_ceil(granule).saturating_mul(granule);
        while solver.iterations() < target {
            if control.stopped() {
                break;
            }
            if let Budget::Seconds(limit) = budget {
                if spent.as_secs_f64() >= limit {
                    break;
                }
            }
            let n = (target - solver.iterations()).min(step);
            let before = solver.iterations();
            let t0 = Instant::now();
            solver.run(n);
            spent += t0.elapsed();
            if solver.iterations() == before {
                // At MAX_ITERATIONS: the solver runs no further.
                break;
            }
            if let Some(tell) = control.cfr {
                tell(CfrEvent::Step(match budget {
                    Budget::Iterations(_) => solver.iterations(),
                    Budget::Seconds(_) => spent.as_millis() as u64,
                }));
            }
        }
        let point = solver.iterations();
        if curve.last().is_some_and(|&(t, _)| t == point) {
            break;
        }
        avg = solver.average(tree);
        let expl = exploitability(tree, &avg);
        curve.push((point, expl));
        curve_seconds.push(spent.as_secs_f64());
        let line = if several {
            format!("{name:<5} iteration {point:>9}  exploitability {expl:.6e}")
        } else {
            format!("iteration {point:>9}  exploitability {expl:.6e}")
        };
        if let Some(tell) = control.cfr {
            tell(CfrEvent::Point {
                iterations: point,
                exploitability: expl,
                line: &line,
            });
        }
        if let Budget::Seconds(limit) = budget {
            if spent.as_secs_f64() >= limit || curve.len() as u64 >= MAX_POINTS {
                break;
            }
        }
        if control.stopped() {
            break;
        }
    }
    if let Some(tell) = control.cfr {
        tell(CfrEvent::End);
    }
    // Again, for a resumed run with no iteration left to run.
    avg = solver.average(tree);
    let nc = nash_conv(tree, &avg);
    let seconds = spent.as_secs_f64();
    let ran = solver.iterations() - start_iter;
    let strategy = tree
        .infosets()
        .iter()
        .map(|set| {
            let f = set.first_slot as usize;
            let n = set.actions as usize;
            InfosetStrategy {
                infoset: set.key.clone(),
                player: set.player,
                actions: (f..f + n)
                    .map(|s| tree.action_name(s).to_string())
                    .collect(),
                probabilities: avg[f..f + n].to_vec(),
            }
        })
        .collect();
    Ok(Run {
        game: tree.name().to_string(),
        algo: name.to_string(),
        iterations: solver.iterations(),
        seconds,
        iterations_per_second: if seconds > 0.0 {
            ran as f64 / seconds
        } else {
            0.0
        },
        value: expected_values(tree, &avg)[0],
        nash_conv: nc,
        exploitability: nc / tree.players() as f64,
        curve,
        curve_seconds,
        strategy,
    })
}

/// The text report of one run: aligned figures, then the strategy table.
fn text(tree: &ExtensiveTree, r: &Run) -> String {
    let rows = [
        ("game", r.game.clone()),
        ("algo", r.algo.clone()),
        ("iterations", r.iterations.to_string()),
        ("seconds", format!("{:.4}", r.seconds)),
        (
            "iterations/s",
            crate::progress::group(r.iterations_per_second.round() as u64),
        ),
        ("value", format!("{:.6}", r.value)),
        ("exploitability", format!("{:.6e}", r.exploitability)),
        ("nash_conv", format!("{:.6e}", r.nash_conv)),
    ];
    let mut out = crate::output::aligned(&rows);
    out.push_str("\nstrategy (average; player: information set: action probability ...)");
    // `strategy` lists the tree's information sets in the tree's order.
    let mut avg = vec![0.0; tree.slots()];
    for (set, s) in tree.infosets().iter().zip(&r.strategy) {
        let f = set.first_slot as usize;
        avg[f..f + s.probabilities.len()].copy_from_slice(&s.probabilities);
    }
    for (i, s) in r.strategy.iter().enumerate() {
        out.push_str(&format!(
            "\n  {}: {}",
            s.player,
            tree.format_infoset(&avg, i)
        ));
    }
    out
}

/// Draws exploitability against iterations, log-log, one line per run, into `path`.
fn write_svg(
    tree: &ExtensiveTree,
    runs: &[Run],
    path: &str,
    by_time: bool,
) -> Result<(), AppError> {
    // Drawn in memory, then written through the one write path (crate::files): plotters'
    // own file backend would write through a FIFO or over a device.
    let mut svg = String::new();
    draw_svg(&mut svg, tree, runs, path, by_time)?;
    crate::files::write_atomic(Path::new(path), svg.as_bytes())?;
    Ok(())
}

/// The figure of [`write_svg`], as SVG text into `svg`; `path` names it in errors.
fn draw_svg(
    svg: &mut String,
    tree: &ExtensiveTree,
    runs: &[Run],
    path: &str,
    by_time: bool,
) -> Result<(), AppError> {
    use plotters::prelude::*;
    const COLOURS: [RGBColor; 6] = [
        RGBColor(214, 39, 40),
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(90, 90, 90),
    ];
    let err = |e: &dyn std::fmt::Display| CfrError::Draw {
        path: path.to_string(),
        reason: e.to_string(),
    };
    // (x, exploitability) of one run: x the iterations, or the seconds with `by_time`.
    let series = |r: &Run| -> Vec<(f64, f64)> {
        r.curve
            .iter()
            .zip(&r.curve_seconds)
            .map(|(&(t, e), &sec)| (if by_time { sec } else { t as f64 }, e))
            .filter(|p| p.0 > 0.0 && p.1 > 0.0)
            .collect()
    };
    let all: Vec<(f64, f64)> = runs.iter().flat_map(series).collect();
    let points = || all.iter();
    let floor = if by_time { 1e-6 } else { 1.0 };
    let x_max = points().map(|p| p.0).fold(floor * 2.0, f64::max);
    let x_min = points().map(|p| p.0).fold(x_max, f64::min).max(floor);
    let y_max = points().map(|p| p.1).fold(f64::MIN_POSITIVE, f64::max);
    let y_min = points().map(|p| p.1).fold(f64::MAX, f64::min).min(y_max);
    let root = SVGBackend::with_string(svg, (720, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Exploitability of the average strategy: {}", tree.name()),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (x_min..x_max * 1.2).log_scale(),
            (y_min / 2.0..y_max * 2.0).log_scale(),
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(if by_time { "seconds" } else { "iterations" })
        .y_desc("exploitability")
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 14))
        .x_label_formatter(&|x| {
            if by_time {
                format!("{x:.0e}")
            } else {
                format!("{x:.0}")
            }
        })
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, r) in runs.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let pts = series(r);
        chart
            .draw_series(LineSeries::new(pts, c.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(r.algo.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
