//! `cutoff serve`: the page and its API over real HTTP, against the command line's answers;
//! bad requests get a 4xx with a one-line reason; a request whose client goes away frees its
//! search slot.

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the address line");
        let url = line.trim().strip_prefix("cutoff serve: ").expect(&line);
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        assert!(
            addr.starts_with("127.0.0.1:"),
            "loopback by default: {addr}"
        );
        Server { child, addr }
    }

    /// GET `path`: status, headers and body.
    fn get(&self, path: &str) -> (u16, String, String) {
        self.request(&format!(
            "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        ))
    }

    fn request(&self, raw: &str) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("the server listens");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(raw.as_bytes()).unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).expect("a response");
        let (head, body) = text.split_once("\r\n\r\n").expect("headers and body");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status code");
        (status, head.to_lowercase(), body.to_string())
    }

    fn json(&self, path: &str) -> (u16, Json) {
        let (status, _, body) = self.get(path);
        (status, serde_json::from_str(&body).expect("a JSON body"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cli_json(args: &[&str]) -> Json {
    let out = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn the_page_is_served_from_the_binary_and_keeps_to_its_origin() {
    let s = Server::start();
    let (status, head, body) = s.get("/");
    assert_eq!(status, 200);
    assert!(body.contains("<title>cutoff"), "{body}");
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    // No resource from anywhere else: no http(s) URL in any of the page's files (the SVG
    // namespace is a name, not a resource).
    for path in ["/", "/app.js", "/style.css"] {
        let (status, _, body) = s.get(path);
        assert_eq!(status, 200, "{path}");
        let body = body.replace("\"http://www.w3.org/2000/svg\"", "");
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "{path}"
        );
    }
}

#[test]
fn analyse_and_solve_answer_as_the_command_line_does() {
    let s = Server::start();
    let (status, j) = s.json("/api/analyse?game=connect4&pos=4453");
    assert_eq!(status, 200, "{j}");
    let cli = cli_json(&["analyse", "connect4", "4453", "--json"]);
    assert_eq!(j["moves"], cli["moves"]);
    assert_eq!(j["value"], cli["value"]);
    let (status, j) = s.json("/api/solve?game=tictactoe");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["value"], 0);
    assert_eq!(j["exact"], true);
    let (status, j) = s.json("/api/analyse?game=tictactoe&pos=XX./OO./...");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["best_move"], "3");
    let (status, j) = s.json("/api/health");
    assert_eq!((status, j["ok"].clone()), (200, Json::Bool(true)));
}

#[test]
fn bad_requests_get_a_4xx_and_one_line() {
    let s = Server::start();
    for (path, status, words) in [
        ("/api/analyse?game=chess", 400, "unknown game"),
        ("/api/analyse", 400, "missing game"),
        ("/api/analyse?game=connect4&pos=4444444", 400, "full"),
        ("/api/analyse?game=connect4&pos=8", 400, "8"),
        ("/api/solve?game=tree&pos=/etc/passwd", 400, "unknown game"),
        ("/api/analyse?game=connect4&pos=%1b%5b31m", 400, "bad move"),
        ("/api/nothing", 404, "no such API call"),
        ("/secret", 404, "no such page"),
    ] {
        let (got, j) = s.json(path);
        assert_eq!(got, status, "{path}: {j}");
        let e = j["error"].as_str().expect("an error line");
        assert!(e.contains(words), "{path}: {e}");
        assert!(!e.contains('\n') && e.len() <= 200 && !e.chars().any(char::is_control));
    }
    let long = format!("/api/analyse?game=connect4&pos={}", "4".repeat(5000));
    let (got, _) = s.json(&long);
    assert_eq!(got, 400);
    let (got, _, _) = s.request(
        "POST /api/analyse?game=connect4 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    assert_eq!(got, 405);
}

#[test]
fn a_request_whose_client_leaves_stops_its_search() {
    let s = Server::start();
    // Two searches of the empty board (minutes of work each) take both slots; their clients
    // hang up at once.
    for _ in 0..2 {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        c.write_all(
            b"GET /api/analyse?game=connect4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        drop(c);
    }
    // A small request then finds a slot well before the queue's 5 s and the searches' 20 s.
    let t = Instant::now();
    let (status, j) = s.json("/api/analyse?game=tictactoe");
    assert_eq!(status, 200, "{j}");
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
}
