//! `cutoff serve` against clients that misbehave, over real loopback sockets: clients that
//! leave before their answer is written. The server must stay up and keep `/api/health`
//! answering.
//!
//! `CUTOFF_BIN=/path/to/cutoff` runs these tests against another build (to see them fail on
//! the code before a fix).

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
        let mut child = Command::new(binary())
            .args(["serve", "--port", "0"])
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
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
