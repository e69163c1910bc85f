#!/usr/bin/env python3
"""Soak test of `cutoff serve` over loopback: hostile and ordinary clients for a while, then
checks that the server never exited, answers /api/health at once, has its search slots back,
and holds no more memory than a bound.

    cargo build --release -p cutoff-cli
    python3 scripts/soak.py [--seconds 600] [--cutoff target/release/cutoff] [--clients 8]
        [--seed N] [--rss-bound-mib 64]

Each client loops until the time is up, picking one of:
  health     GET /api/health;
  analyse    an analysis or a budgeted solve of a small position (200, or 503 when busy);
  stream     an analysis's event stream read to its result;
  trace      a trace of a built-in, random or posted tree (200; 400 past the step budget);
  bad        a request the API refuses (wrong types, not UTF-8, over the size limit, wrong
             method, unknown path): the right status and {"error": "one line"};
  leave      any of those, or pipelined ones, with the connection closed (or reset) at a
             random point: mid-request, before the answer, partway through it or a stream;
  unread     large answers asked for and never read, the connection held up to 3 s;
  cancel     an exact solve of the empty Connect Four board (minutes of work), left after
             up to 2 s.
Once the clients are gone, besides the checks: idle connections, 20 past the server's cap
(MAX_CONNECTIONS), sending nothing; /api/health must still answer, within two of its header
timeouts (HEADER_TIMEOUT), as the server closes them.
A sampler reads the server's VmRSS from /proc every 0.2 s and watches that it is alive.

Bounds: loopback only (the server's default address, checked); --clients connections at a
time (each request at most 4 sockets, each with a 60 s timeout; once, at the end, the idle
connections above), at most 20 actions a second per client, and the run stops at --seconds
(plus at most 90 s for the last actions and the checks).

The memory bound (--rss-bound-mib, default 64 MiB), checked once the clients are gone: an
idle server holds about 6 MiB. Each search's table (64 MiB) is unmapped when it ends, and a
stopped search ends within a poll, so none is left; buffers of 1 MiB or more (a trace's
answer and steps, up to 12 MB each) go back to the system when freed (serve's mallopt). What
remains is malloc's free small chunks and the arenas of the threads that ran searches: 14
MiB after 120 s, 16 MiB after 600 s (peak 157 MiB, two searches' tables at once). 64 MiB is
less than idle plus one table, so a table left allocated, or answers kept after their
clients left, fail it.

Prints a summary (actions by kind, failures, peak and final RSS); exit status 0 when nothing
failed, 1 otherwise, 2 when the server cannot be started.
"""

import argparse
import collections
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 60.0
MAX_RATE = 20.0

# Positions quick to analyse (a second or two at most on two cores).
ANALYSE = [
    "/api/analyse?game=tictactoe",
    "/api/analyse?game=tictactoe&pos=X../.O./...",
    "/api/analyse?game=tictactoe&pos=XX./OO./...",
    "/api/analyse?game=connect4&pos=4453452",
    "/api/analyse?game=connect4&pos=44",
    "/api/solve?game=tictactoe",
    "/api/solve?game=connect4&pos=4444&time_ms=300",
    "/api/solve?game=connect4&pos=4&time_ms=50",
    "/api/solve?game=connect4&pos=2345432&time_ms=500",
]
STREAM = [
    "/api/analyse/stream?game=connect4&pos=4453452",
    "/api/analyse/stream?game=tictactoe",
    "/api/analyse/stream?game=connect4&pos=44",
]
PLAIN_ALGOS = ["minimax", "negamax", "alphabeta", "alphabeta-hard", "veb", "ab", "pvs", "mtdf"]
ORDERS = ["natural", "best-first", "worst-first"]

def serve_constant(name, default):
    """A constant of cli/src/serve/mod.rs (`pub const NAME: ... = N;` or `from_secs(N)`)."""
    import re
    try:
        with open(os.path.join(os.path.dirname(__file__), "..", "cli", "src", "serve",
                               "mod.rs")) as f:
            m = re.search(r"pub const %s: [^=]+= (?:Duration::from_secs\()?(\d+)" % name, f.read())
        return int(m.group(1)) if m else default
    except OSError:
        return default


MAX_CONNECTIONS = serve_constant("MAX_CONNECTIONS", 32)
HEADER_TIMEOUT = serve_constant("HEADER_TIMEOUT", 10)
LARGE = "/api/trace?tree=random&b=8&d=4&algo=minimax"  # about 800 KB of answer


def named_trace(rng):
    tree = rng.choice(["exercise", "three", "chance", "maxn3", "random"])
    if tree == "chance":
        return "/api/trace?tree=chance&algo=" + rng.choice(
            ["expectiminimax", "expectinegamax", "star1", "star2"])
    if tree == "maxn3":
        return "/api/trace?tree=maxn3&algo=" + rng.choice(["maxn", "maxn-plain", "paranoid", "brs"])
    q = "/api/trace?tree=%s&algo=%s&order=%s" % (tree, rng.choice(PLAIN_ALGOS), rng.choice(ORDERS))
    if tree == "random":
        b = rng.randint(1, 8)
        d = rng.randint(0, 8)
        while b ** d > 4096 or (b ** (d + 1) - 1) // max(b - 1, 1) > 5000:
            d -= 1
        q += "&b=%d&d=%d&seed=%d" % (b, d, rng.randint(0, 1 << 40))
    return q


def wide_tree(rng, b):
    """b MIN nodes of b leaves spread over a billion each way: MTD(f) makes many passes."""
    return " ".join(
        "(" + " ".join(str(rng.randint(-10 ** 9, 10 ** 9)) for _ in range(b)) + ")"
        for _ in range(b))


def get(path):
    return ("GET %s HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n" % path).encode()


def post(path, body, keep_alive=False):
    head = "POST %s HTTP/1.1\r\nHost: soak\r\n%sContent-Length: %d\r\n\r\n" % (
        path, "" if keep_alive else "Connection: close\r\n", len(body))
    return head.encode() + body


class Failure(Exception):
    pass


class Soak:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.statuses = collections.Counter()
        self.failures = []
        self.stop = threading.Event()
        self.peak_rss = 0
        self.exited = None
        self.flood_wait = None

    # -- the server --------------------------------------------------------------------
    def start(self):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([self.args.cutoff, "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        line = self.proc.stdout.readline().decode(errors="replace").strip()
        prefix = "cutoff serve: http://"
        if not line.startswith(prefix):
            raise SystemExit("soak: the server did not print its address: %r" % line)
        host, port = line[len(prefix):].rstrip("/").rsplit(":", 1)
        if host != "127.0.0.1":
            raise SystemExit("soak: the server listens on %s, not loopback" % host)
        self.addr = (host, int(port))

    def rss_kib(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def sampler(self):
        while not self.stop.is_set():
            code = self.proc.poll()
            if code is not None:
                self.exited = code
                self.fail("sampler", "the server exited with status %s" % code)
                self.stop.set()
                return
            rss = self.rss_kib()
            if rss is not None:
                self.peak_rss = max(self.peak_rss, rss)
            time.sleep(0.2)

    def server_stderr(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-2000:]

    # -- bookkeeping -------------------------------------------------------------------
    def fail(self, kind, msg):
        with self.lock:
            self.counts[kind + " failed"] += 1
            if len(self.failures) < 50:
                self.failures.append("%s: %s" % (kind, msg))

    def note(self, kind, status=None):
        with self.lock:
            self.counts[kind] += 1
            if status is not None:
                self.statuses[status] += 1

    # -- one connection ----------------------------------------------------------------
    def connect(self):
        s = socket.create_connection(self.addr, timeout=TIMEOUT)
        s.settimeout(TIMEOUT)
        return s

    def exchange(self, raw):
        """Sends raw, reads the whole answer: (status, headers, body)."""
        s = self.connect()
        try:
            try:
                s.sendall(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may answer (a 413) before the whole body is sent
            chunks = []
            while True:
                try:
                    c = s.recv(1 << 16)
                except ConnectionResetError:
                    break
                if not c:
                    break
                chunks.append(c)
        except socket.timeout:
            raise Failure("no answer within %d s" % TIMEOUT)
        finally:
            s.close()
        data = b"".join(chunks)
        head, sep, body = data.partition(b"\r\n\r\n")
        if not sep:
            raise Failure("no complete answer (%d bytes)" % len(data))
        lines = head.decode(errors="replace").split("\r\n")
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            raise Failure("no status line: %r" % lines[0][:80])
        headers = {}
        for l in lines[1:]:
            k, _, v = l.partition(":")
            headers[k.strip().lower()] = v.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = dechunk(body)
        return status, headers, body

    def expect_json(self, what, raw, ok=(200,), busy_ok=True):
        status, headers, body = self.exchange(raw)
        allowed = set(ok) | ({503} if busy_ok else set())
        if status not in allowed:
            raise Failure("%s: status %d: %r" % (what, status, body[:120]))
        if not headers.get("content-type", "").startswith("application/json"):
            raise Failure("%s: content-type %r" % (what, headers.get("content-type")))
        try:
            j = json.loads(body)
        except ValueError:
            raise Failure("%s: not JSON: %r" % (what, body[:120]))
        if status >= 400:
            e = j.get("error")
            if not isinstance(e, str) or not e or "\n" in e or len(e) > 200:
                raise Failure("%s: bad error line %r" % (what, e))
            if status == 503 and "busy" not in e and "did not finish" not in e:
                raise Failure("%s: 503 %r" % (what, e))
        return status, j

    # -- the actions -------------------------------------------------------------------
    def health(self, rng):
        status, j = self.expect_json("health", get("/api/health"), busy_ok=False)
        if j.get("ok") is not True:
            raise Failure("health: %r" % j)
        return status

    def analyse(self, rng):
        path = rng.choice(ANALYSE)
        status, j = self.expect_json(path, get(path))
        if status == 200 and "value" not in j:
            raise Failure("%s: no value: %r" % (path, str(j)[:120]))
        return status

    def stream(self, rng):
        path = rng.choice(STREAM)
        status, headers, body = self.exchange(get(path))
        if status == 503:
            return status
        if status != 200 or not headers.get("content-type", "").startswith("text/event-stream"):
            raise Failure("%s: status %d %r" % (path, status, headers.get("content-type")))
        events = [b for b in body.decode(errors="replace").split("\n\n") if "event:" in b]
        if not events or "event: result" not in events[-1]:
            raise Failure("%s: the stream ended without a result: %r" % (path, body[-200:]))
        return status

    def trace(self, rng):
        if rng.random() < 0.7:
            path = named_trace(rng)
            status, j = self.expect_json(path, get(path))
        else:
            b = rng.randint(4, 64)
            algo = rng.choice(["mtdf", "pvs", "alphabeta", "minimax"])
            path = "/api/trace?algo=%s (posted, b=%d)" % (algo, b)
            status, j = self.expect_json(
                path, post("/api/trace?algo=" + algo, wide_tree(rng, b).encode()), ok=(200, 400))
            if status == 400 and "steps" not in j["error"]:
                raise Failure("%s: %r" % (path, j["error"]))
        if status == 200 and not j.get("steps"):
            raise Failure("%s: no steps" % path)
        return status

    BAD = [
        ("bad type", lambda: get("/api/solve?game=connect4&time_ms=abc"), 400),
        ("bad type", lambda: get("/api/trace?tree=random&b=-3"), 400),
        ("bad type", lambda: get("/api/analyse/stream?game=tictactoe&time_ms=x"), 400),
        ("twice", lambda: get("/api/analyse?game=connect4&game=chess"), 400),
        ("bad game", lambda: get("/api/analyse?game=chess"), 400),
        ("bad move", lambda: get("/api/analyse?game=connect4&pos=4444444"), 400),
        ("not utf-8", lambda: post("/api/trace", b"(1 \xff\xfe 2)"), 400),
        ("bad tree", lambda: post("/api/trace", b"((((x"), 400),
        ("too large", lambda: post("/api/trace", b"1" * 70000), 413),
        ("method", lambda: post("/api/analyse?game=connect4", b"{}"), 405),
        ("method", lambda: b"DELETE / HTTP/1.1\r\nHost: s\r\nConnection: close\r\n\r\n", 405),
        ("method", lambda: b"PUT /api/trace HTTP/1.1\r\nHost: s\r\nContent-Length: 0\r\n"
                           b"Connection: close\r\n\r\n", 405),
        ("unknown", lambda: get("/api/nothing"), 404),
        ("unknown", lambda: get("/../../etc/passwd"), 404),
    ]

    def bad(self, rng):
        what, raw, want = rng.choice(self.BAD)
        status, _ = self.expect_json(what, raw(), ok=(want,), busy_ok=False)
        return status

    def leave(self, rng):
        """A request (or several) on a connection closed at a random point."""
        pick = rng.random()
        if pick < 0.25:
            raw = get(LARGE)
        elif pick < 0.45:
            raw = get(rng.choice(STREAM))
        elif pick < 0.6:
            raw = post("/api/trace?algo=pvs", wide_tree(rng, rng.randint(8, 40)).encode())
        elif pick < 0.8:
            # Pipelined: the later answers are written after the client is gone.
            one = rng.choice(["/app.js", "/", LARGE, "/api/health", rng.choice(ANALYSE)])
            raw = ("GET %s HTTP/1.1\r\nHost: soak\r\n\r\n" % one).encode() * rng.randint(1, 3)
            raw += get(one)
        else:
            raw = get(rng.choice(ANALYSE + [named_trace(rng)]))
        s = self.connect()
        # A partial read waits no longer than this for the rest of an answer.
        s.settimeout(5)
        try:
            if rng.random() < 0.3:
                # Reset, not closed: SO_LINGER 0.
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            when = rng.random()
            if when < 0.2:
                s.sendall(raw[:rng.randint(0, len(raw) - 1)])
            else:
                s.sendall(raw)
                if when > 0.5:
                    want = rng.randint(1, 1 << 20)
                    got = 0
                    while got < want:
                        c = s.recv(min(1 << 16, want - got))
                        if not c:
                            break
                        got += len(c)
        except (OSError, socket.timeout):
            pass  # the server may close first (a refused request): that is fine
        finally:
            s.close()
        return None

    def unread(self, rng):
        """Large answers asked for, never read, the connection held a while."""
        s = self.connect()
        try:
            s.sendall(("GET %s HTTP/1.1\r\nHost: soak\r\n\r\n" % LARGE).encode() * rng.randint(1, 3))
            if rng.random() < 0.5:
                s.shutdown(socket.SHUT_WR)
            self.stop.wait(rng.uniform(0, 3))
        except OSError:
            pass
        finally:
            s.close()
        return None

    def cancel(self, rng):
        """A search of minutes, left: its slot must come back."""
        s = self.connect()
        try:
            s.sendall(get("/api/solve?game=connect4"))
            self.stop.wait(rng.uniform(0, 2))
        except OSError:
            pass
        finally:
            s.close()
        return None

    ACTIONS = [("health", 3), ("analyse", 3), ("stream", 2), ("trace", 4), ("bad", 3),
               ("leave", 5), ("unread", 1), ("cancel", 1)]

    def client(self, seed, deadline):
        rng = random.Random(seed)
        kinds = [k for k, w in self.ACTIONS for _ in range(w)]
        while not self.stop.is_set() and time.time() < deadline:
            kind = rng.choice(kinds)
            started = time.time()
            try:
                status = getattr(self, kind)(rng)
                self.note(kind, status)
            except Failure as e:
                self.fail(kind, str(e))
            except OSError as e:
                self.fail(kind, "connection error: %s" % e)
            with self.lock:
                total = sum(v for k, v in self.counts.items())
            if total >= self.args.max_actions:
                self.stop.set()
            # At most MAX_RATE actions a second per client.
            pause = 1.0 / MAX_RATE - (time.time() - started)
            if pause > 0:
                time.sleep(pause)

    # -- the run -----------------------------------------------------------------------
    def run(self):
        a = self.args
        try:
            self.start()
        except OSError as e:
            print("soak: cannot start %s: %s" % (a.cutoff, e), file=sys.stderr)
            return 2
        idle = None
        time.sleep(0.3)
        idle = self.rss_kib()
        print("soak: %s on %s:%d, pid %d, %d clients for %d s, seed %d, idle RSS %s KiB"
              % (a.cutoff, self.addr[0], self.addr[1], self.proc.pid, a.clients, a.seconds,
                 a.seed, idle), flush=True)
        sampler = threading.Thread(target=self.sampler, daemon=True)
        sampler.start()
        started = time.time()
        deadline = started + a.seconds
        workers = [threading.Thread(target=self.client, args=(a.seed * 1000 + i, deadline),
                                    daemon=True) for i in range(a.clients)]
        for w in workers:
            w.start()
        last = started
        while any(w.is_alive() for w in workers) and time.time() < deadline + 70:
            time.sleep(0.5)
            if a.progress and time.time() - last >= a.progress:
                last = time.time()
                with self.lock:
                    done = sum(v for k, v in self.counts.items())
                    failed = sum(v for k, v in self.counts.items() if k.endswith("failed"))
                print("soak: %4d s, %d actions, %d failed, RSS %s KiB (peak %d)"
                      % (last - started, done, failed, self.rss_kib(), self.peak_rss),
                      flush=True)
        if any(w.is_alive() for w in workers):
            self.fail("run", "clients still busy 70 s after the end")
        self.stop.set()
        sampler.join(1)
        elapsed = time.time() - started
        final = self.checks_after()
        return self.summary(elapsed, idle, final)

    def checks_after(self):
        """Once the clients are gone: alive, /api/health at once, the slots back, memory down."""
        if self.proc.poll() is not None:
            self.fail("after", "the server exited with status %s" % self.proc.poll())
            return None
        t = time.time()
        try:
            self.health(None)
            took = time.time() - t
            if took > 1.0:
                self.fail("after", "/api/health took %.2f s" % took)
        except (Failure, OSError) as e:
            self.fail("after", "/api/health: %s" % e)
        # Idle connections past the cap: the server holds only its cap of them, closes each
        # after the header timeout, and answers a health check in turn.
        flood = []
        try:
            for _ in range(MAX_CONNECTIONS + 20):
                flood.append(self.connect())
            t = time.time()
            self.health(None)
            took = time.time() - t
            if took > 2 * HEADER_TIMEOUT + 5:
                self.fail("after", "/api/health took %.1f s past %d idle connections"
                          % (took, len(flood)))
            self.note("idle-flood", 200)
            with self.lock:
                self.flood_wait = took
        except (Failure, OSError) as e:
            self.fail("after", "/api/health past %d idle connections: %s" % (len(flood), e))
        finally:
            for c in flood:
                c.close()
        # Both slots free again: two analyses at once, neither told the server is busy.
        results = []

        def one():
            try:
                results.append(self.expect_json("after", get("/api/analyse?game=tictactoe"),
                                                busy_ok=False)[0])
            except (Failure, OSError) as e:
                results.append(str(e))
        ts = [threading.Thread(target=one) for _ in range(2)]
        for x in ts:
            x.start()
        for x in ts:
            x.join()
        if results != [200, 200]:
            self.fail("after", "the search slots are not all back: %r" % results)
        # Memory: the searches the clients left stop within a poll; wait up to 20 s.
        bound = self.args.rss_bound_mib * 1024
        until = time.time() + 20
        rss = self.rss_kib()
        while rss is not None and rss > bound and time.time() < until:
            time.sleep(0.5)
            rss = self.rss_kib()
        if rss is None or rss > bound:
            self.fail("after", "VmRSS %s KiB over the bound of %d KiB" % (rss, bound))
        # A clean stop on SIGTERM.
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(10)
            if code != 0:
                self.fail("after", "exit status %d on SIGTERM" % code)
        except subprocess.TimeoutExpired:
            self.fail("after", "no exit within 10 s of SIGTERM")
            self.proc.kill()
        return rss

    def summary(self, elapsed, idle, final):
        print()
        print("soak: %.0f s" % elapsed)
        print("actions:")
        for k, v in sorted(self.counts.items()):
            print("  %-16s %d" % (k, v))
        print("statuses: " + ", ".join("%s: %d" % kv for kv in sorted(self.statuses.items())))
        if self.flood_wait is not None:
            print("idle flood: /api/health answered in %.1f s past %d idle connections"
                  % (self.flood_wait, MAX_CONNECTIONS + 20))
        print("RSS: idle %s KiB, peak %d KiB, final %s KiB (bound %d KiB)"
              % (idle, self.peak_rss, final, self.args.rss_bound_mib * 1024))
        if self.failures:
            failed = sum(v for k, v in self.counts.items() if k.endswith("failed"))
            print("%d failures (the first %d):" % (failed, len(self.failures)))
            for f in self.failures:
                print("  FAIL " + f)
            print("server's standard error (end):\n" + self.server_stderr())
            return 1
        print("no failure")
        return 0


def dechunk(body):
    out = bytearray()
    while body:
        size, _, rest = body.partition(b"\r\n")
        try:
            n = int(size.split(b";")[0], 16)
        except ValueError:
            break
        if n == 0:
            break
        out += rest[:n]
        body = rest[n + 2:]
    return bytes(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--seconds", type=int, default=600, help="how long the clients run (600)")
    p.add_argument("--cutoff", default=os.environ.get("CUTOFF",
                                                      os.path.join(root, "target/release/cutoff")))
    p.add_argument("--clients", type=int, default=8, help="clients at once (8)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--rss-bound-mib", type=int, default=64)
    p.add_argument("--max-actions", type=int, default=1_000_000)
    p.add_argument("--progress", type=float, default=60, help="a line every this many s (0: none)")
    a = p.parse_args()
    if not 1 <= a.seconds <= 86400 or not 1 <= a.clients <= 64:
        p.error("--seconds from 1 to 86400, --clients from 1 to 64")
    if a.seed is None:
        a.seed = random.randrange(1 << 30)
    sys.exit(Soak(a).run())


if __name__ == "__main__":
    main()
