//! What the command's hostile-input tests share: running the binary under an address-space
//! limit and a time limit, so that a regression fails the test instead of taking the
//! machine's memory or hanging it.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd` (its arguments, environment and standard input already set; `stdin`, if given,
/// is written to a piped standard input) in at most `address_space` bytes of address space;
/// panics if it runs past `time_limit`. Standard output and error are collected.
pub fn run_limited(
    mut cmd: Command,
    stdin: Option<Vec<u8>>,
    address_space: u64,
    time_limit: Duration,
) -> Output {
    let shown: Vec<String> = cmd
        .get_args()
        .take(3)
        .map(|a| a.to_string_lossy().chars().take(40).collect())
        .collect();
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    }
    // SAFETY: between fork and exec the closure only calls `setrlimit`, which is
    // async-signal-safe, on a struct on its own stack.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: address_space as libc::rlim_t,
                rlim_max: address_space as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("run cutoff");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("piped stdin");
        // A program that stops reading early closes the pipe: that is no failure here.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for cutoff") {
            break status;
        }
        if start.elapsed() > time_limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cutoff {shown:?} ran past {time_limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}
