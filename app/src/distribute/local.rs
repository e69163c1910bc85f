//! Workers as child processes of this machine, over pipes: the default transport of a live
//! run ([`super::live`]). Each child runs the front end's worker command (the command's
//! `cutoff distribute-worker`, Python's `python -m cutoff.worker`), reads the driver's
//! messages on its standard input and answers on its standard output, a line each; its
//! standard error goes to `DIR/logs/worker-I.log`.

use super::live::{Event, Transport};
use super::protocol::{decode, encode, ToWorker, MAX_LINE};
use super::DistributeError;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The program a worker process runs, and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Child processes over pipes.
pub struct Local {
    command: WorkerCommand,
    logs: PathBuf,
    children: Vec<Option<(Child, ChildStdin)>>,
    /// Each child's generation: lines of a replaced child are dropped.
    generation: Vec<u64>,
    tx: mpsc::Sender<(usize, u64, Option<String>)>,
    rx: mpsc::Receiver<(usize, u64, Option<String>)>,
    start: Instant,
}

impl Local {
    /// Starts `workers` children running `command`, their logs in `logs`.
    pub fn start(
        command: WorkerCommand,
        workers: usize,
        logs: &Path,
    ) -> Result<Local, DistributeError> {
        crate::files::create_folder(logs)?;
        let (tx, rx) = mpsc::channel();
        let mut local = Local {
            command,
            logs: logs.to_path_buf(),
            children: (0..workers).map(|_| None).collect(),
            generation: vec![0; workers],
            tx,
            rx,
            start: Instant::now(),
        };
        for w in 0..workers {
            local.spawn(w)?;
        }
        Ok(local)
    }

    fn spawn(&mut self, w: usize) -> Result<(), DistributeError> {
        let log = self.logs.join(format!("worker-{w}.log"));
        let err = crate::files::open_append(&log)?;
        let what = || self.command.program.display().to_string();
        let mut child = Command::new(&self.command.program)
            .args(&self.command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .spawn()
            .map_err(|source| DistributeError::Spawn {
                what: what(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(DistributeError::Spawn {
                what: what(),
                source: std::io::Error::other("no pipes"),
            });
        };
        self.generation[w] += 1;
        let gen = self.generation[w];
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match (&mut reader).take(MAX_LINE as u64).read_line(&mut line) {
                    Ok(n) if n > 0 && line.ends_with('\n') => {
                        if tx.send((w, gen, Some(line))).is_err() {
                            return;
                        }
                    }
                    // End of output, an overlong line or a read error: the worker is lost.
                    _ => {
                        let _ = tx.send((w, gen, None));
                        return;
                    }
                }
            }
        });
        self.children[w] = Some((child, stdin));
        Ok(())
    }

    fn kill(&mut self, w: usize) {
        if let Some((mut child, stdin)) = self.children[w].take() {
            drop(stdin);
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Transport for Local {
    fn workers(&self) -> usize {
        self.children.len()
    }

    fn send(&mut self, worker: usize, msg: &ToWorker) -> Result<(), DistributeError> {
        if let Some((_, stdin)) = &mut self.children[worker] {
            // A worker whose pipe broke is reported lost by its reader.
            let _ = writeln!(stdin, "{}", encode(msg)).and_then(|_| stdin.flush());
        }
        Ok(())
    }

    fn recv(&mut self, timeout: Duration) -> Result<Option<Event>, DistributeError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (w, gen, line) = match self.rx.recv_timeout(left) {
                Ok(m) => m,
                Err(_) => return Ok(None),
            };
            if gen != self.generation[w] {
                continue;
            }
            return Ok(Some(match line {
                Some(line) => match decode(&line, &format!("worker {w}")) {
                    Ok(msg) => Event::Message(w, msg),
                    Err(e) => {
                        self.kill(w);
                        Event::Lost(w, e.to_string())
                    }
                },
                None => {
                    let status = self.children[w]
                        .as_mut()
                        .and_then(|(c, _)| c.wait().ok())
                        .map_or_else(|| "gone".to_string(), |s| s.to_string());
                    self.kill(w);
                    Event::Lost(w, format!("the process ended ({status})"))
                }
            }));
        }
    }

    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn restart(&mut self, worker: usize) -> Result<bool, DistributeError> {
        self.kill(worker);
        self.spawn(worker)?;
        Ok(true)
    }

    fn finish(&mut self) -> Result<(), DistributeError> {
        for w in 0..self.children.len() {
            self.send(w, &ToWorker::Stop)?;
        }
        // A worker stops its search within milliseconds of `stop`; one that does not is
        // killed.
        let deadline = Instant::now() + Duration::from_secs(2);
        for w in 0..self.children.len() {
            if let Some((child, _)) = &mut self.children[w] {
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = child.try_wait() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            self.kill(w);
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "local"
    }
}

impl Drop for Local {
    fn drop(&mut self) {
        for w in 0..self.children.len() {
            self.kill(w);
        }
    }
}
