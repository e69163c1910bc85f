//! `cutoff serve` against clients that misbehave, over real loopback sockets: clients that
//! leave before their answer is written, requests the API does not take, and traces enough to
//! fill the server. The server must stay up, answer every error as `{"error": "one line"}`,
//! and keep `/api/health` answering.
//!
//! Clients that hold connections (idle, slow, or never reading) run against shorter timeouts
//! than the server's, through its test hooks `CUTOFF_SERVE_HEADER_TIMEOUT_MS` and
//! `CUTOFF_SERVE_WRITE_STALL_MS`; the cap on connections is the server's own constant.
//!
//! `CUTOFF_BIN=/path/to/cutoff` runs these tests against another build (to see them fail on
//! the code before a fix).
#![cfg(feature = "serve")]

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
fn binary() -> String {
    std::env::var("CUTOFF_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_cutoff").to_string())
}

/// An answer: status, headers (lower case) and body.
type Answer = (u16, String, Vec<u8>);

/// A server on a free port, killed when dropped.
struct Server {
    child: Child,
    client: Client,
}

/// Requests to a server's address.
#[derive(Clone)]
struct Client {
    addr: String,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server with these environment variables (the test hooks that shorten its timeouts).
    fn start_with(env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(binary())
            .args(["serve", "--port", "0"])
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        // Standard output is closed once the address is read: the server must not mind.
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the address line");
        let addr = line
            .trim()
            .strip_prefix("cutoff serve: http://")
            .expect(&line)
            .trim_end_matches('/')
            .to_string();
        Server {
            child,
            client: Client { addr },
        }
    }

    /// Asserts the process is still running and `/api/health` answers within `limit`.
    fn assert_healthy(&mut self, limit: Duration) {
        assert_eq!(
            self.child.try_wait().expect("the process can be asked"),
            None,
            "the server exited"
        );
        let t = Instant::now();
        let (status, _, body) = self.client.get("/api/health");
        let took = t.elapsed();
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert!(took < limit, "/api/health took {took:?}");
    }
}

impl std::ops::Deref for Server {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Client {
    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).expect("the server listens");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s
    }

    /// Sends `raw` and reads the whole answer: status, headers (lower case) and body.
    fn request(&self, raw: &[u8]) -> Answer {
        let mut s = self.connect();
        // The server may answer (a 413) and close before reading all of a long body.
        let _ = s.write_all(raw);
        let mut bytes = Vec::new();
        let _ = s.read_to_end(&mut bytes);
        let split = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no answer: {:?}", String::from_utf8_lossy(&bytes)));
        let head = String::from_utf8_lossy(&bytes[..split]).to_lowercase();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status code");
        (status, head, bytes[split + 4..].to_vec())
    }

    fn get(&self, path: &str) -> Answer {
        self.request(
            format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    fn post(&self, path: &str, body: &[u8]) -> Answer {
        let mut raw = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        raw.extend_from_slice(body);
        self.request(&raw)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asserts an answer is an error in the API's form: JSON `{"error": one line}`.
fn assert_json_error(what: &str, head: &str, body: &[u8]) -> String {
    assert!(
        head.contains("content-type: application/json"),
        "{what}: {head}"
    );
    let j: Json = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "{what}: not JSON ({e}): {:?}",
            String::from_utf8_lossy(body)
        )
    });
    let e = j["error"].as_str().unwrap_or_else(|| panic!("{what}: {j}"));
    assert!(
        !e.is_empty() && e.len() <= 200 && !e.chars().any(char::is_control),
        "{what}: {e:?}"
    );
    e.to_string()
}

const LARGE: &str = "/api/trace?tree=random&b=8&d=4&algo=minimax";

#[test]
fn clients_that_leave_before_their_answer_do_not_end_the_server() {
    let mut s = Server::start();
    let large = format!("GET {LARGE} HTTP/1.1\r\nHost: t\r\n\r\n");
    let page = "GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n";
    for i in 0..30 {
        let mut c = s.connect();
        match i % 6 {
            // Several requests on one connection, then gone: the server writes the later
            // answers to a connection the client has closed (SIGPIPE, before the fix).
            0 => c.write_all(page.repeat(3).as_bytes()).unwrap(),
            // Large answers (800 KB each), never read.
            1 => c.write_all(large.repeat(2).as_bytes()).unwrap(),
            // A large answer, a few bytes of it read.
            2 => {
                c.write_all(large.as_bytes()).unwrap();
                let mut some = [0u8; 100];
                let _ = c.read(&mut some);
            }
            // Only the writing side closed: the answers come, and are never read.
            3 => {
                c.write_all(large.repeat(2).as_bytes()).unwrap();
                c.shutdown(Shutdown::Write).unwrap();
                std::thread::sleep(Duration::from_millis(50));
            }
            // An analysis's event stream, left at once.
            4 => c
                .write_all(
                    b"GET /api/analyse/stream?game=tictactoe HTTP/1.1\r\nHost: t\r\n\r\n\
                      GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n",
                )
                .unwrap(),
            // Half a request.
            _ => c.write_all(b"GET /api/health HTTP/1.1\r\nHo").unwrap(),
        }
        drop(c);
        // Give the server the time to write to the closed connections.
        std::thread::sleep(Duration::from_millis(30));
        if let Some(status) = s.child.try_wait().expect("the process can be asked") {
            panic!("the server exited after {} clients: {status:?}", i + 1);
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    s.assert_healthy(Duration::from_secs(2));
}

#[test]
fn the_server_outlives_a_closed_standard_output() {
    // Standard output closed before the server writes its address: it says so on standard
    // error and serves on.
    let mut child = Command::new(binary())
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    std::thread::sleep(Duration::from_millis(500));
    let alive = child
        .try_wait()
        .expect("the process can be asked")
        .is_none();
    let _ = child.kill();
    let out = child.wait_with_output().expect("the process ends");
    assert!(
        alive,
        "the server exited ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_error_is_json_with_its_status() {
    let s = Server::start();
    let not_utf8 = b"(3 \xff\xfe 5)".to_vec();
    let too_long = vec![b'1'; 70_000];
    let cases: Vec<(&str, Answer, u16, &str)> = vec![
        (
            "a number that is not one",
            s.get("/api/solve?game=connect4&time_ms=abc"),
            400,
            "time_ms=abc",
        ),
        (
            "a negative size",
            s.get("/api/trace?tree=random&b=-1&d=2"),
            400,
            "b=-1",
        ),
        (
            "a streamed analysis's wrong type",
            s.get("/api/analyse/stream?game=connect4&time_ms=1e99"),
            400,
            "time_ms",
        ),
        (
            "a parameter given twice",
            s.get("/api/analyse?game=connect4&game=tictactoe"),
            400,
            "game",
        ),
        (
            "a body that is not UTF-8",
            s.post("/api/trace?algo=minimax", &not_utf8),
            400,
            "UTF-8",
        ),
        (
            "a body over the limit",
            s.post("/api/trace?algo=minimax", &too_long),
            413,
            "65536",
        ),
        (
            "a method the API call does not take",
            s.post("/api/analyse?game=connect4", b"{}"),
            405,
            "POST",
        ),
        (
            "a method the page does not take",
            s.request(b"DELETE / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"),
            405,
            "DELETE",
        ),
        (
            "a method no path takes",
            s.request(b"PUT /api/trace HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
            405,
            "PUT",
        ),
    ];
    for (what, (status, head, body), want, words) in cases {
        assert_eq!(status, want, "{what}: {}", String::from_utf8_lossy(&body));
        let e = assert_json_error(what, &head, &body);
        assert!(e.contains(words), "{what}: {e}");
        if status == 405 {
            assert!(head.contains("\r\nallow: "), "{what}: {head}");
        }
    }
}

/// A tree of `b` MIN nodes of `b` leaves each (`b * b + b + 1` nodes), the leaves spread
/// over a billion each way: MTD(f) makes a pass for nearly every distinct value it meets.
fn wide_tree(b: usize, seed: u64) -> String {
    let mut x = seed;
    let mut next = || {
        // xorshift64
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 2_000_000_001) as i64 - 1_000_000_000
    };
    let mut s = String::new();
    for _ in 0..b {
        s.push('(');
        let leaves: Vec<String> = (0..b).map(|_| next().to_string()).collect();
        s.push_str(&leaves.join(" "));
        s.push_str(") ");
    }
    s
}

#[test]
fn traces_fill_the_search_slots_not_the_server() {
    let mut s = Server::start();
    // Twenty traces at once, each of 173008 steps (just under the budget) and 12 MB of
    // answer. Before the fix each ran on one of the server's two async workers, and
    // /api/health waited behind them all: 3 s on two cores (4.5 s for thirty). Now they take
    // turns in the two search slots, off the workers, and it answers in a millisecond. 2 s
    // is a hang guard with room for a loaded machine, not a timing claim.
    let tree = wide_tree(42, 2);
    let traces: Vec<_> = (0..20)
        .map(|_| {
            let (tree, client) = (tree.clone(), s.client.clone());
            std::thread::spawn(move || client.post("/api/trace?algo=mtdf", tree.as_bytes()))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    s.assert_healthy(Duration::from_secs(2));
    let mut values = Vec::new();
    for t in traces {
        let (status, head, body) = t.join().expect("the client thread");
        if status == 200 {
            let j: Json = serde_json::from_slice(&body).expect("a JSON trace");
            assert!(j["steps"].as_array().is_some_and(|s| !s.is_empty()));
            values.push(j["value"].clone());
        } else {
            // Only "busy": a trace that waited its turn past the queue's limit.
            assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
            let e = assert_json_error("a trace", &head, &body);
            assert!(e.contains("busy"), "{e}");
        }
    }
    assert!(!values.is_empty(), "no trace finished");
    assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
    s.assert_healthy(Duration::from_secs(2));
}

#[test]
fn a_trace_waits_for_a_search_slot() {
    let mut s = Server::start();
    // Two exact solves of the empty Connect Four board (minutes of work, stopped at the
    // server's 20 s) take both slots.
    let holders: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut c = s.connect();
            c.write_all(b"GET /api/solve?game=connect4 HTTP/1.1\r\nHost: t\r\n\r\n")
                .unwrap();
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A trace waits its turn like any search, and is told the server is busy once the
    // queue's 5 s are up; the server answers its health check all the while.
    let t = Instant::now();
    let (status, head, body) = s.get("/api/trace?tree=exercise&algo=alphabeta");
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
    assert!(assert_json_error("a trace", &head, &body).contains("busy"));
    assert!(t.elapsed() >= Duration::from_secs(4), "{:?}", t.elapsed());
    s.assert_healthy(Duration::from_secs(2));
    // The solves' clients leave: their slots come back and the trace runs.
    drop(holders);
    let t = Instant::now();
    let (status, _, body) = s.get("/api/trace?tree=exercise&algo=alphabeta");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
}

#[test]
fn a_trace_too_long_to_show_is_refused_at_once() {
    let s = Server::start();
    // 64 MIN nodes of 64 leaves, all distinct: MTD(f) takes over a million steps (41 MB of
    // answer and 7 s, before the fix); the trace stops at its step budget instead.
    let t = Instant::now();
    let (status, head, body) = s.post("/api/trace?algo=mtdf", wide_tree(64, 7).as_bytes());
    assert_eq!(status, 400, "{}", body.len());
    let e = assert_json_error("a long trace", &head, &body);
    assert!(e.contains("more than 200000 steps"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // PVS on the same tree is a few thousand steps.
    let (status, _, body) = s.post("/api/trace?algo=pvs", wide_tree(64, 7).as_bytes());
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
}

/// The test hooks' timeouts: short, so that the cases below take seconds, not minutes.
const HEADER_MS: u64 = 1000;
const STALL_MS: u64 = 1000;

fn quick_server() -> Server {
    Server::start_with(&[
        ("CUTOFF_SERVE_HEADER_TIMEOUT_MS", &HEADER_MS.to_string()),
        ("CUTOFF_SERVE_WRITE_STALL_MS", &STALL_MS.to_string()),
    ])
}

/// Reads a connection until the server closes it, for at most `limit`: true if it did.
fn closed_within(c: &mut TcpStream, limit: Duration) -> bool {
    c.set_read_timeout(Some(limit)).unwrap();
    let mut sink = Vec::new();
    match c.read_to_end(&mut sink) {
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

/// The server's open sockets (Linux), or None where that cannot be seen.
fn sockets(s: &Server) -> Option<usize> {
    let dir = std::fs::read_dir(format!("/proc/{}/fd", s.child.id())).ok()?;
    Some(
        dir.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
            .filter(|l| l.to_string_lossy().starts_with("socket:"))
            .count(),
    )
}

#[test]
fn idle_connections_past_the_cap_neither_pile_up_nor_shut_the_server_out() {
    let max = cutoff_cli::serve::MAX_CONNECTIONS;
    let mut s = quick_server();
    s.assert_healthy(Duration::from_secs(2));
    let at_rest = sockets(&s);
    // Twenty more connections than the server serves at once, sending nothing. Before the
    // fix all were accepted and held for ever.
    let mut idle: Vec<TcpStream> = (0..max + 20).map(|_| s.connect()).collect();
    if let Some(rest) = at_rest {
        // However long it has had to accept them, the server holds no more than its cap.
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(100));
            let now = sockets(&s).expect("the server's sockets");
            assert!(
                now <= rest + max,
                "{now} sockets open, {rest} at rest, cap {max}"
            );
        }
    }
    // The health check waits behind them (the idle ones are closed after the header
    // timeout, then those that waited), two timeouts at most; the limit is a hang guard.
    s.assert_healthy(Duration::from_millis(3 * HEADER_MS + 2000));
    for (i, c) in idle.iter_mut().enumerate() {
        assert!(
            closed_within(c, Duration::from_millis(3 * HEADER_MS + 2000)),
            "idle connection {i} is still open"
        );
    }
}

#[test]
fn a_request_head_that_never_ends_is_cut_off() {
    let mut s = quick_server();
    // Slowloris: half a request head, then nothing; and a keep-alive connection that goes
    // idle after its answer. Before the fix both were held for ever.
    let mut half = s.connect();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: t\r\n")
        .unwrap();
    let mut kept = s.connect();
    kept.write_all(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
        .unwrap();
    let limit = Duration::from_millis(HEADER_MS + 5000);
    assert!(closed_within(&mut half, limit), "half a head is still held");
    assert!(
        closed_within(&mut kept, limit),
        "an idle connection is still held"
    );
    s.assert_healthy(Duration::from_secs(2));
}

#[test]
fn a_client_that_never_reads_its_answer_is_dropped() {
    let mut s = quick_server();
    // Thousands of pipelined requests for the page's script, 80 MB of answers, more than the
    // system's socket buffers hold, and the client reads none of them: the server's writes
    // wait. Before the fix it waited for ever, holding the answer; now it drops the
    // connection once its writes have made no progress for the stall timeout.
    let (status, _, script) = s.get("/app.js");
    assert_eq!(status, 200);
    let n = (80 << 20) / script.len() + 1;
    let mut c = s.connect();
    let one = b"GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n";
    let mut raw = one.repeat(n - 1);
    raw.extend_from_slice(b"GET /app.js HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    let writer = {
        let mut c = c.try_clone().unwrap();
        // The server stops reading requests once its writes wait: write from a thread.
        std::thread::spawn(move || {
            let _ = c.write_all(&raw);
        })
    };
    std::thread::sleep(Duration::from_millis(3 * STALL_MS));
    // Now read: the answers end early, cut off with the connection.
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut got = Vec::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match c.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => got.extend_from_slice(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("reading the answers: {e}"),
        }
    }
    drop(c);
    writer.join().unwrap();
    assert!(
        got.len() < n * script.len(),
        "all {n} answers arrived ({} bytes): the connection was held",
        got.len()
    );
    s.assert_healthy(Duration::from_secs(2));
}

#[cfg(unix)]
#[test]
fn sigterm_ends_the_server_despite_a_half_sent_head() {
    let mut s = quick_server();
    let mut half = s.connect();
    half.write_all(b"GET /api/health HTTP/1.1\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: kill only sends a signal to our own child, whose id is live until waited for.
    assert_eq!(
        unsafe { libc::kill(s.child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    // The server finishes its connections' answers before it exits; before the fix it waited
    // for ever for the rest of this head. Now the header timeout ends it. A hang guard:
    let t = Instant::now();
    while s.child.try_wait().unwrap().is_none() {
        assert!(
            t.elapsed() < Duration::from_millis(HEADER_MS + 5000),
            "the server is still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
