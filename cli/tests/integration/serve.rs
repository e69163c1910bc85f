//! `cutoff serve`: the page and its API over real HTTP, against the command line's answers;
//! bad requests get a 4xx with a one-line reason; a request whose client goes away frees its
//! search slot.
#![cfg(feature = "serve")]

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
    // Eight stones: about 1.5 s here, far inside the server's 20 s limit on a loaded machine
    // (4453 took 16 s and once ran past it at load 7).
    let (status, j) = s.json("/api/analyse?game=connect4&pos=44536734");
    assert_eq!(status, 200, "{j}");
    let cli = cli_json(&["analyse", "connect4", "44536734", "--json"]);
    assert_eq!(j["moves"], cli["moves"]);
    assert_eq!(j["value"], cli["value"]);
    let (status, j) = s.json("/api/solve?game=tictactoe");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["value"], 0);
    assert_eq!(j["exact"], true);
    let (status, j) = s.json("/api/analyse?game=tictactoe&pos=XX./OO./...");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["best_move"], "3");
    // With a time budget the solver answers early in the game too. Where the opening book
    // values every move (at most 3 stones), exactly from it: one of the moves analyse scores
    // best, nothing searched.
    let (status, j) = s.json("/api/solve?game=connect4&pos=4&time_ms=300");
    assert_eq!(status, 200, "{j}");
    assert_eq!(
        (j["exact"].clone(), j["algo"].clone(), j["nodes"].clone()),
        (Json::Bool(true), Json::from("book"), Json::from(0)),
        "{j}"
    );
    let cli = cli_json(&["analyse", "connect4", "4", "--json", "--book", "builtin"]);
    assert_eq!(j["value"], cli["value"]);
    let best: Vec<&Json> = cli["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == cli["value"])
        .map(|m| &m["move"])
        .collect();
    assert!(best.contains(&&j["best_move"]), "{j}");
    // Beyond the book: the best move of the deepest search finished, a depth-limited value.
    let (status, j) = s.json("/api/solve?game=connect4&pos=4444&time_ms=300");
    assert_eq!(status, 200, "{j}");
    assert!(j["best_move"].is_string(), "{j}");
    assert_eq!(j["exact"], false);
    let (status, _) = s.json("/api/solve?game=connect4&time_ms=0");
    assert_eq!(status, 400);
    // Analyse within a budget: every move of an 8x7 opening with what was proved of it.
    let (status, j) = s.json("/api/analyse?game=connect4&board=8x7&pos=1,2&nodes=200000");
    assert_eq!(status, 200, "{j}");
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8, "{j}");
    for m in moves {
        let (lo, v, hi) = (&m["lo"], &m["value"], &m["hi"]);
        assert!(
            lo.as_i64() <= v.as_i64() && v.as_i64() <= hi.as_i64(),
            "{m}"
        );
    }
    assert_eq!(j["exact"], false, "{j}");
    for bad in ["nodes=0", "time_ms=0", "time_ms=20001", "nodes=-1"] {
        let (status, j) = s.json(&format!("/api/analyse?game=connect4&{bad}"));
        assert_eq!(status, 400, "{bad}: {j}");
    }
    let (status, j) = s.json("/api/health");
    assert_eq!((status, j["ok"].clone()), (200, Json::Bool(true)));
    // Other boards, as the page's links give them: the scores are the command line's.
    let (status, j) = s.json("/api/analyse?game=connect4&board=5x4&pos=3");
    assert_eq!(status, 200, "{j}");
    let cli = cli_json(&["analyse", "connect4", "3", "--board", "5x4", "--json"]);
    assert_eq!(
        (j["moves"].clone(), j["value"].clone()),
        (cli["moves"].clone(), cli["value"].clone())
    );
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(5));
    let (status, j) = s.json("/api/analyse?game=connect4&board=10x4%2F3&pos=10%2C1");
    assert_eq!(status, 200, "{j}");
    let cli = cli_json(&[
        "analyse",
        "connect4",
        "10,1",
        "--board",
        "10x4",
        "--connect",
        "3",
        "--json",
    ]);
    assert_eq!(j["moves"], cli["moves"]);
}

#[test]
fn bad_requests_get_a_4xx_and_one_line() {
    let s = Server::start();
    for (path, status, words) in [
        ("/api/analyse?game=chess", 400, "unknown game"),
        ("/api/analyse", 400, "missing game"),
        ("/api/analyse?game=connect4&pos=4444444", 400, "full"),
        ("/api/analyse?game=connect4&pos=8", 400, "8"),
        (
            "/api/analyse?game=connect4&board=7by6",
            400,
            "invalid board",
        ),
        ("/api/analyse?game=connect4&board=10x12", 400, "128 bits"),
        (
            "/api/analyse?game=tictactoe&board=5x4",
            400,
            "board is for connect4",
        ),
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
    // One plain, one streamed (the page's).
    for path in ["/api/analyse", "/api/analyse/stream"] {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        c.write_all(
            format!("GET {path}?game=connect4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                .as_bytes(),
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

/// The names of the subtrees a trace pruned, with their cut kind and bound.
fn pruned(j: &Json) -> Vec<(String, String, i64)> {
    let names: Vec<&str> = j["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    j["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "prune")
        .map(|s| {
            (
                names[s["node"].as_u64().unwrap() as usize].to_string(),
                s["cut"].as_str().unwrap().to_string(),
                s["bound"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_exercise_tree_traced_step_by_step() {
    let s = Server::start();
    let (status, j) = s.json("/api/trace?tree=exercise&algo=alphabeta");
    assert_eq!(status, 200, "{j}");
    assert_eq!(j["value"], 11);
    assert_eq!(j["leaves"], 12);
    assert_eq!(j["leaves_evaluated"], 7);
    // The smallest proof: 1.1's two leaves, 1.2's 13, 2.1's three (alpha-beta also needs 2).
    assert_eq!(j["minimal_leaves"], 6);
    // The walk-through in app/assets/trees/exercise.tree: a beta cut on 11 at 1.2 prunes its
    // last three leaves, an alpha cut on 11 at 2 prunes 2.2.
    assert_eq!(
        pruned(&j),
        [
            ("1.2.3".to_string(), "beta".to_string(), 11),
            ("1.2.4".to_string(), "beta".to_string(), 11),
            ("1.2.5".to_string(), "beta".to_string(), 11),
            ("2.2".to_string(), "alpha".to_string(), 11),
        ]
    );
    let steps = j["steps"].as_array().unwrap();
    // The root is entered first, with no bound; node 2 (a MIN node, id of "2") with alpha 11.
    assert_eq!(steps[0]["kind"], "enter");
    assert_eq!(
        (steps[0]["alpha"].clone(), steps[0]["beta"].clone()),
        (Json::Null, Json::Null)
    );
    let id_of = |name: &str| {
        j["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["name"] == name)
            .unwrap() as u64
    };
    let enter2 = steps
        .iter()
        .find(|s| s["kind"] == "enter" && s["node"] == id_of("2"))
        .unwrap();
    assert_eq!(enter2["alpha"], 11, "{enter2}");
    // Minimax evaluates every leaf.
    let (_, m) = s.json("/api/trace?tree=exercise&algo=minimax");
    assert_eq!(m["leaves_evaluated"], 12);
    assert!(pruned(&m).is_empty());
    // Every algorithm finds the value.
    for a in ["negamax", "alphabeta-hard", "veb", "ab", "pvs", "mtdf"] {
        let (status, t) = s.json(&format!("/api/trace?tree=exercise&algo={a}"));
        assert_eq!((status, t["value"].clone()), (200, Json::from(11)), "{a}");
    }
}

#[test]
fn traces_chance_and_three_player_trees() {
    let s = Server::start();
    let name_of = |t: &Json, id: &Json| t["nodes"][id.as_u64().unwrap() as usize]["name"].clone();
    // app/assets/trees/expectiminimax.tree with Star1: 3.5; B is cut after its first outcome
    // (0.8 * 1 + 0.2 * 10 = 2.8 cannot beat 3.5), its first outcome's MIN node after its
    // first leaf, and C's second outcome after its first leaf.
    let (status, t) = s.json("/api/trace?tree=chance&algo=star1");
    assert_eq!(status, 200, "{t}");
    assert_eq!(
        (t["value"].clone(), t["value_text"].clone()),
        (Json::from(3.5), Json::from("3.5"))
    );
    assert_eq!(
        (t["leaves_evaluated"].clone(), t["leaves"].clone()),
        (Json::from(8), Json::from(12))
    );
    assert_eq!(t["minimal_leaves"], Json::Null);
    let kinds: Vec<&str> = t["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|&&k| k == "chance").count(), 3);
    assert_eq!(kinds.iter().filter(|&&k| k == "min").count(), 6);
    let probs: Vec<&str> = t["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["prob"].as_str())
        .collect();
    assert_eq!(probs, ["0.5", "0.5", "0.8", "0.2", "1/3", "2/3"]);
    let steps = t["steps"].as_array().unwrap();
    let prunes: Vec<(Json, Json, Json)> = steps
        .iter()
        .filter(|st| st["kind"] == "prune")
        .map(|st| {
            (
                name_of(&t, &st["node"]),
                st["cut"].clone(),
                st["bound"].clone(),
            )
        })
        .collect();
    assert_eq!(
        prunes,
        [
            (Json::from("2.1.2"), Json::from("decision"), Json::from("1")),
            (Json::from("2.2"), Json::from("chance"), Json::from("2.8")),
            (Json::from("3.2.2"), Json::from("decision"), Json::from("5")),
        ]
    );
    // B (node 2) is entered with A's 3.5 as alpha; every window is Star1's, inside [0, 10]
    // for MAX, shown from MAX's view.
    let b = steps
        .iter()
        .find(|st| st["kind"] == "enter" && st["node"] == 2)
        .unwrap();
    assert_eq!(
        (b["alpha"].clone(), b["beta"].clone()),
        (Json::from(3.5), Json::from(10.0))
    );
    // Star2 probes: 7 leaves, the same value. Expectiminimax: every leaf, no cut.
    let (_, t2) = s.json("/api/trace?tree=chance&algo=star2");
    assert_eq!(
        (t2["value"].clone(), t2["leaves_evaluated"].clone()),
        (Json::from(3.5), Json::from(7))
    );
    assert!(t2["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|st| st["cut"] == "probe"));
    let (_, e) = s.json("/api/trace?tree=chance&algo=expectiminimax");
    assert_eq!(
        (e["value"].clone(), e["leaves_evaluated"].clone()),
        (Json::from(3.5), Json::from(12))
    );
    // app/assets/trees/maxn3.tree: max^n gives (3, 3, 4), player 0's 3; no algorithm named
    // takes the default, max^n.
    for q in ["/api/trace?tree=maxn3&algo=maxn", "/api/trace?tree=maxn3"] {
        let (status, m) = s.json(q);
        assert_eq!(status, 200, "{m}");
        assert_eq!(
            (m["value_text"].clone(), m["value"].clone()),
            (Json::from("(3, 3, 4)"), Json::from(3.0)),
            "{q}"
        );
        assert_eq!(
            (m["algo"].clone(), m["players"].clone()),
            (Json::from("maxn"), Json::from(3))
        );
    }
    // Paranoid: the root player against the others, 2 (A gives it 1, B 2), with cuts named
    // for player 0.
    let (_, p) = s.json("/api/trace?tree=maxn3&algo=paranoid");
    assert_eq!(p["value"], 2.0);
    // A chance tree posted in the body.
    let body = "[0.5 (3 5) 0.5 (1 9)] [0.25 2 0.75 4]";
    let (status, _, text) = s.request(&format!(
        "POST /api/trace?algo=star1 HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    assert_eq!(status, 200, "{text}");
    let t: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(t["value"], 3.5);
    for (path, words) in [
        (
            "/api/trace?tree=chance&algo=alphabeta",
            "searches plain two-player trees",
        ),
        ("/api/trace?tree=maxn3&algo=star1", "two players"),
        (
            "/api/trace?tree=chance&order=best-first",
            "plain two-player trees only",
        ),
    ] {
        let (status, j) = s.json(path);
        assert_eq!(status, 400, "{path}: {j}");
        assert!(j["error"].as_str().unwrap().contains(words), "{path}: {j}");
    }
}

#[test]
fn orders_random_trees_and_posted_trees() {
    let s = Server::start();
    let q = "/api/trace?tree=random&b=3&d=4&seed=7&algo=alphabeta";
    let (_, natural) = s.json(q);
    let (_, best) = s.json(&format!("{q}&order=best-first"));
    let (_, worst) = s.json(&format!("{q}&order=worst-first"));
    assert_eq!(natural["leaves"], 81);
    assert_eq!(best["minimal_leaves"], 17);
    for t in [&natural, &best, &worst] {
        assert_eq!(t["value"], natural["value"]);
    }
    let leaves = |t: &Json| t["leaves_evaluated"].as_u64().unwrap();
    // Best first: exactly the minimal tree, which no order can beat; worst first: the most.
    assert_eq!(leaves(&best), 17);
    for t in [&natural, &worst] {
        assert!(leaves(t) >= 17 && t["minimal_leaves"] == 17, "{t}");
    }
    assert!(leaves(&worst) >= leaves(&natural) && leaves(&natural) >= leaves(&best));
    let body = "(3 5 1) (2 9) (0 8)";
    let (status, _, text) = s.request(&format!(
        "POST /api/trace?algo=alphabeta HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    assert_eq!(status, 200, "{text}");
    let t: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(t["value"], 2);
    for (path, words) in [
        ("/api/trace?tree=exercise&algo=solve", "unknown algorithm"),
        ("/api/trace?tree=exercise&order=sideways", "unknown order"),
        ("/api/trace?tree=../../etc/passwd", "unknown tree"),
        ("/api/trace?tree=random&b=9&d=2", "random trees"),
        ("/api/trace?tree=random&b=8&d=8", "random trees"),
        // 4096 leaves but 5,461 nodes: refused by the same count as every trace.
        ("/api/trace?tree=random&b=4&d=6", "makes 5461"),
    ] {
        let (status, j) = s.json(path);
        assert_eq!(status, 400, "{path}: {j}");
        assert!(j["error"].as_str().unwrap().contains(words), "{path}: {j}");
    }
    let (status, _, _) = s.request(
        "POST /api/trace HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nConnection: close\r\n\r\n((((x",
    );
    assert_eq!(status, 400);
}

#[test]
fn the_analysis_streams_progress_then_the_scores() {
    let s = Server::start();
    let (status, head, body) = s.get("/api/analyse/stream?game=connect4&pos=4453");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    // Progress events while the seven moves are solved (about a second), then the result.
    let events: Vec<(&str, Json)> = body
        .split("\n\n")
        .filter_map(|block| {
            let kind = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((kind, serde_json::from_str(data).expect("JSON data")))
        })
        .collect();
    let (last, result) = events.last().expect("events");
    assert_eq!(*last, "result");
    let cli = cli_json(&["analyse", "connect4", "4453", "--json"]);
    assert_eq!(result["moves"], cli["moves"]);
    let progress: Vec<&Json> = events
        .iter()
        .filter(|(k, _)| *k == "progress")
        .map(|(_, j)| j)
        .collect();
    assert!(!progress.is_empty(), "no progress event");
    for p in &progress {
        assert!(
            p["nodes"].as_u64().is_some() && p["window"].is_array(),
            "{p}"
        );
        assert_eq!(p["moves"], 7);
    }
    // Nodes only grow.
    let nodes: Vec<u64> = progress
        .iter()
        .map(|p| p["nodes"].as_u64().unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    let (status, j) = s.json("/api/analyse/stream?game=connect4&pos=9");
    assert_eq!(status, 400, "{j}");
}
