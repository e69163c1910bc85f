// The page: a board, the exact score of every move (from /api/analyse), play against the
// solver or another person, undo, and a link to the position (?game=...&pos=...).
//
// One page, two engines: served by `cutoff serve`, it asks the server's API; from a static
// host (scripts/web/build.sh), where api/health does not answer, it asks the same API
// compiled to WebAssembly, run in a Web Worker (worker.js) so that the page stays live.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const state = { game: "connect4", moves: [], scores: null, busy: false, request: null };
// Connect Four's board: width, height and the stones in a winning line (?board=WxH or WxH/K).
const STANDARD = { w: 7, h: 6, k: 4 };
state.shape = STANDARD;

// `WxH` or `WxH/K` as the command line's --board takes it, within its limits; null if not.
function parseShape(text) {
  const m = /^(\d{1,3})x(\d{1,3})(?:\/(\d))?$/.exec(text || "");
  if (!m) return null;
  const [w, h, k] = [Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : 4];
  return w >= 4 && h >= 4 && w * (h + 1) <= 128 && k >= 3 && k <= 6 ? { w, h, k } : null;
}

function standard() {
  const s = state.shape;
  return s.w === 7 && s.h === 6 && s.k === 4;
}

function shapeText() {
  const s = state.shape;
  return `${s.w}x${s.h}` + (s.k === 4 ? "" : `/${s.k}`);
}

// The time budget of an analysis or a solver's move, in ms (`null`: exact): the one chosen,
// or by default exact up to 7x6's 42 cells and 3 s beyond, as `cutoff play` does.
function budgetMs() {
  const v = $("budget").value;
  if (v === "exact") return null;
  if (v !== "auto") return Number(v);
  const cells = state.game === "connect4" ? state.shape.w * state.shape.h : 9;
  return cells > 42 ? 3000 : null;
}

// The budget's part of an API request.
function budgetParam() {
  const ms = budgetMs();
  return ms === null ? "" : `&time_ms=${ms}`;
}

// The board's part of a link or an API request: nothing on the standard board.
function boardParam() {
  return state.game === "connect4" && !standard() ? `&board=${encodeURIComponent(shapeText())}` : "";
}

// Connect Four: the position is the columns played (1 to the width). Tic-tac-toe: the cells
// (1-9).
function board() {
  if (state.game === "connect4") {
    const cols = Array.from({ length: state.shape.w }, () => []);
    state.moves.forEach((m, i) => cols[m - 1].push(i % 2 === 0 ? "x" : "o"));
    return cols;
  }
  const cells = Array(9).fill(null);
  state.moves.forEach((m, i) => { cells[m - 1] = i % 2 === 0 ? "x" : "o"; });
  return cells;
}

// The position as the API takes it: the move string, or the tic-tac-toe board.
function posText() {
  // Columns past 9 need commas between them, as on the command line.
  if (state.game === "connect4") return state.moves.join(state.shape.w > 9 ? "," : "");
  const cells = board();
  let s = "";
  for (let i = 0; i < 9; i++) {
    if (i > 0 && i % 3 === 0) s += "/";
    s += cells[i] === "x" ? "X" : cells[i] === "o" ? "O" : ".";
  }
  return s;
}

// ---- The engine: the server's API, or the same API in the browser ----

// "server" or "browser", once known (see `detect`).
let backend = null;

async function detect() {
  try {
    const r = await fetch("api/health");
    const j = await r.json();
    if (r.ok && j.ok === true) return "server";
  } catch (e) {
    // No server behind this page (a 404 page, or no answer): the engine runs here.
  }
  return "browser";
}

// The in-browser engine: one worker, answering one call at a time; a call cancelled while
// pending ends the worker (a search cannot be stopped otherwise) and a fresh one takes the
// calls still waiting. A worker that failed (the engine panicked) is replaced the same way.
const local = { worker: null, seq: 0, pending: new Map() };

function localWorker() {
  if (local.worker) return local.worker;
  const w = new Worker("worker.js", { type: "module" });
  w.onmessage = (e) => {
    const call = local.pending.get(e.data.id);
    if (e.data.fatal) restartWorker();
    if (!call) return;
    local.pending.delete(e.data.id);
    call.resolve({ ok: e.data.status === 200, status: e.data.status, json: JSON.parse(e.data.body) });
  };
  w.onerror = (e) => {
    e.preventDefault();
    const error = { ok: false, status: 500, json: { error: `the engine failed to start: ${e.message || "no WebAssembly?"}` } };
    for (const call of local.pending.values()) call.resolve(error);
    local.pending.clear();
    restartWorker();
  };
  local.worker = w;
  return w;
}

function restartWorker() {
  if (local.worker) local.worker.terminate();
  local.worker = null;
  if (local.pending.size === 0) return;
  const w = localWorker();
  for (const call of local.pending.values()) w.postMessage(call.message);
}

// Calls the API at `url` (`api/solve?...`) with `init` (method, body); a handle: `promise`
// gives {ok, status, json}, `cancel()` drops the call (and stops its search in the browser).
function call(url, init = {}) {
  if (backend === "server") {
    const ctl = new AbortController();
    const promise = fetch(url, { ...init, signal: ctl.signal }).then(async (r) => ({ ok: r.ok, status: r.status, json: await r.json() }));
    return { promise, cancel: () => ctl.abort() };
  }
  const id = ++local.seq;
  const message = { id, method: init.method || "GET", target: url.replace(/^api/, ""), body: init.body ?? null };
  const promise = new Promise((resolve) => local.pending.set(id, { resolve, message }));
  localWorker().postMessage(message);
  return {
    promise,
    cancel: () => { if (local.pending.delete(id)) restartWorker(); },
  };
}

// The JSON of a call that succeeded; an Error with the API's one line otherwise.
async function answer(url, init) {
  const r = await call(url, init).promise;
  if (!r.ok) throw new Error(r.json.error || `status ${r.status}`);
  return r.json;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function scoreOf(move) {
  if (!state.scores) return null;
  return state.scores.moves.find((m) => m.move === String(move)) || null;
}

function kind(v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }

function draw() {
  const host = $("board");
  host.textContent = "";
  if (state.game === "connect4") {
    const { w, h } = state.shape;
    const [width, height] = [w * 100, h * 100 + 60];
    // 70 pixels a column, at most 700 wide and 560 high.
    const px = Math.min(70 * w, 700, (560 * width) / height);
    const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: px, role: "img" }, host);
    el("rect", { x: 0, y: 40, width, height: height - 40, rx: 16, class: "frame" }, svg);
    const cols = board();
    for (let c = 0; c < w; c++) {
      const g = el("g", { class: "cell", "data-col": c + 1 }, svg);
      el("rect", { x: c * 100, y: 0, width: 100, height, fill: "transparent" }, g);
      for (let r = 0; r < h; r++) {
        const stone = cols[c][r];
        el("circle", { cx: c * 100 + 50, cy: height - 50 - r * 100, r: 40, class: stone || "hole" }, g);
      }
      const s = scoreOf(c + 1);
      if (s) {
        const t = el("text", { x: c * 100 + 50, y: 28, class: "score " + kind(s.value) }, g);
        // A guess (not proved within the budget) is marked with a tilde.
        t.textContent = (s.exact ? "" : "~") + (s.value > 0 ? "+" : "") + s.value;
        // The words, shown when the pointer rests on the column.
        el("title", {}, g).textContent = `column ${c + 1}: ${proved(s)}`;
      }
      g.addEventListener("click", () => play(c + 1));
    }
  } else {
    const svg = el("svg", { viewBox: "0 0 330 330", width: 330, role: "img" }, host);
    const cells = board();
    for (let i = 0; i < 9; i++) {
      const x = (i % 3) * 110, y = Math.floor(i / 3) * 110;
      const g = el("g", { class: "cell", "data-cell": i + 1 }, svg);
      el("rect", { x: x + 2, y: y + 2, width: 106, height: 106, class: "ttt" }, g);
      if (cells[i]) {
        const t = el("text", { x: x + 55, y: y + 55, class: "mark " + cells[i] }, g);
        t.textContent = cells[i].toUpperCase();
      } else {
        const s = scoreOf(i + 1);
        if (s) {
          const t = el("text", { x: x + 55, y: y + 90, class: "score " + kind(s.value) }, g);
          t.textContent = s.explain;
        }
      }
      g.addEventListener("click", () => play(i + 1));
    }
  }
  const pos = posText();
  $("pos").textContent = (pos || "(start)") + (boardParam() ? ` on ${shapeText()}` : "");
  const link = `?game=${state.game}${boardParam()}&pos=${encodeURIComponent(pos)}`;
  $("share").href = link;
  history.replaceState(null, "", link);
  const body = $("scores").querySelector("tbody");
  body.textContent = "";
  if (state.scores) {
    for (const m of state.scores.moves) {
      const tr = document.createElement("tr");
      if (m.value === state.scores.value) tr.className = "best";
      for (const text of [m.move, (m.exact ? "" : "~") + m.value, m.exact ? "exact" : `${m.lo} to ${m.hi}`, m.explain]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const who = state.scores.to_move;
    const sc = state.scores;
    $("value").textContent = sc.terminal
      ? `Game over: ${sc.explain} for ${who}.`
      : sc.exact
        ? `${who} to move: ${sc.explain} (score ${sc.value}).`
        : `${who} to move: not proved within ${sc.budget}; the score is between ${sc.lo} and ${sc.hi}, best guess ${sc.value} (${sc.explain}).`;
  }
}

// A move may be played while a search runs: the search is dropped (its request aborted,
// which stops it on the server) and the new position searched instead.
// True once the position on the page is over: four (three) in a row, or a full board. The
// page knows it before any answer from the server, so no move is taken after the end.
function over() {
  const b = board();
  const { w, h, k: need } = state.game === "connect4" ? state.shape : { w: 3, h: 3, k: 3 };
  const cell = state.game === "connect4"
    ? (c, r) => (c >= 0 && c < w && r >= 0 && r < h ? b[c][r] || null : null)
    : (c, r) => (c >= 0 && c < 3 && r >= 0 && r < 3 ? b[r * 3 + c] : null);
  for (let c = 0; c < w; c++) {
    for (let r = 0; r < h; r++) {
      const who = cell(c, r);
      if (!who) continue;
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        let k = 1;
        while (k < need && cell(c + k * dc, r + k * dr) === who) k++;
        if (k === need) return true;
      }
    }
  }
  return state.moves.length === w * h;
}

function legal(move) {
  // Until the engine is known (see `detect`), the page takes no move.
  if (backend === null || over() || (state.scores && state.scores.terminal)) return false;
  if (state.game === "connect4") return board()[move - 1].length < state.shape.h;
  return board()[move - 1] === null;
}

// The human's move; against the solver, its reply first (a solve of at most 3 s: exact from
// the opening book at first and late in the game, the best move of the deepest search
// finished in between), then the scores.
async function play(move) {
  if (!legal(move)) return;
  if (state.request) state.request.close();
  state.request = null;
  state.moves.push(move);
  if ($("opponent").value !== "solver" || over()) {
    analyse();
    return;
  }
  const before = state.moves.length;
  state.scores = null;
  draw();
  $("status").textContent = "The solver is thinking...";
  try {
    const j = await answer(`api/solve?game=${state.game}${boardParam()}&pos=${encodeURIComponent(posText())}&time_ms=${budgetMs() || 3000}`);
    // Unless the human moved on meanwhile (undo, new game), the solver plays.
    if (state.moves.length === before && j.best_move) state.moves.push(Number(j.best_move));
  } catch (e) {
    $("status").textContent = "Error: " + e.message;
    return;
  }
  analyse();
}

// A move's score in words: exact, or the bounds proved and the guess.
function proved(s) {
  return s.exact ? s.explain : `between ${s.lo} and ${s.hi}, best guess ${s.explain}` + (s.depth ? ` (depth ${s.depth})` : "");
}

// The scores of the position, once found.
function showScores(j) {
  state.scores = j;
  $("status").textContent = "";
  // No node searched for a position with moves: every score came from the opening book.
  $("progress").textContent = j.nodes === 0 && !j.terminal
    ? "scores from the opening book (every position of at most 4 stones, solved once)"
    : `${j.nodes.toLocaleString()} nodes in ${j.time_ms.toFixed(0)} ms (${(j.nodes / Math.max(j.time_ms, 1e-3) / 1000).toFixed(2)} M nodes/s)`;
  draw();
}

// Scores the position (from the server, server-sent events: progress while the searches
// run, then the scores; in the browser, the scores alone).
function analyse() {
  if (backend === null) return;
  if (state.request) state.request.close();
  const query = `game=${state.game}${boardParam()}&pos=${encodeURIComponent(posText())}${budgetParam()}`;
  state.busy = true;
  state.scores = null;
  draw();
  const ms = budgetMs();
  $("status").textContent = ms === null ? "Solving every move..." : `Scoring every move within ${ms / 1000} s...`;
  $("progress").textContent = backend === "browser" ? "in this browser, on one thread" : "";
  if (backend === "browser") {
    const c = call(`api/analyse?${query}`);
    const request = { close: c.cancel };
    state.request = request;
    c.promise.then((r) => {
      if (state.request !== request) return;
      state.busy = false;
      state.request = null;
      if (r.ok) showScores(r.json);
      else $("status").textContent = "Error: " + r.json.error;
    });
    return;
  }
  const url = `api/analyse/stream?${query}`;
  const es = new EventSource(url);
  state.request = es;
  const finish = () => {
    es.close();
    if (state.request === es) {
      state.busy = false;
      state.request = null;
    }
  };
  es.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    const w = p.window ? ` value of move ${p.move + 1} proven in [${-p.window[1]}, ${-p.window[0]}] for the mover;` : "";
    $("progress").textContent = `move ${Math.min(p.move + 1, p.moves)} of ${p.moves}:${w} ${p.nodes.toLocaleString()} nodes, ${(p.nodes_per_second / 1e6).toFixed(2)} M nodes/s, ${p.seconds.toFixed(1)} s`;
  });
  es.addEventListener("result", (e) => {
    finish();
    showScores(JSON.parse(e.data));
  });
  es.addEventListener("failure", (e) => {
    finish();
    $("status").textContent = "Error: " + JSON.parse(e.data).error;
  });
  es.onerror = () => {
    if (state.request !== es) return;
    // Refused (a bad position, a busy server: the stream is closed at once), ask for the
    // one-line reason; a connection broken mid-stream (EventSource would retry) is reported.
    const refused = es.readyState === EventSource.CLOSED;
    finish();
    if (!refused) {
      $("status").textContent = "Error: the connection to the server broke";
      return;
    }
    fetch(url).then((r) => r.json()).then((j) => {
      $("status").textContent = "Error: " + (j.error || "the server refused");
    }).catch(() => { $("status").textContent = "Error: the server refused"; });
  };
}

function load() {
  const q = new URLSearchParams(location.search);
  state.game = q.get("game") === "tictactoe" ? "tictactoe" : "connect4";
  $("game").value = state.game;
  const pos = q.get("pos") || "";
  state.shape = parseShape(q.get("board")) || STANDARD;
  $("shape").value = shapeText();
  if (state.game === "connect4") {
    const w = state.shape.w;
    const cols = pos.includes(",") || w > 9 ? pos.split(",") : [...pos];
    state.moves = cols.map(Number).filter((c) => Number.isInteger(c) && c >= 1 && c <= w);
  } else {
    // A board of 9 cells: X's and O's in an order that alternates (X first).
    const cells = [...pos.replace(/\//g, "")].slice(0, 9);
    const xs = [], os = [];
    cells.forEach((c, i) => { if (c === "X") xs.push(i + 1); else if (c === "O") os.push(i + 1); });
    state.moves = [];
    for (let i = 0; i < xs.length || i < os.length; i++) {
      if (i < xs.length) state.moves.push(xs[i]);
      if (i < os.length) state.moves.push(os[i]);
    }
  }
  analyse();
}

$("game").addEventListener("change", () => {
  state.game = $("game").value;
  state.moves = [];
  analyse();
});
$("undo").addEventListener("click", () => {
  if (state.request) state.request.close();
  state.busy = false;
  // Against the solver, undo takes back the solver's reply too.
  const n = $("opponent").value === "solver" && state.moves.length % 2 === 0 ? 2 : 1;
  state.moves.splice(Math.max(0, state.moves.length - n));
  analyse();
});
// Another Connect Four board: a new game on it.
$("shape").addEventListener("change", () => {
  const shape = parseShape($("shape").value.trim());
  if (!shape) {
    $("status").textContent = "Board: WIDTHxHEIGHT or WIDTHxHEIGHT/K, both at least 4, width x (height + 1) at most 128, K from 3 to 6";
    return;
  }
  state.shape = shape;
  state.moves = [];
  analyse();
});
$("budget").addEventListener("change", () => analyse());
$("restart").addEventListener("click", () => {
  state.moves = [];
  analyse();
});

// ---- Watch alpha-beta: a small tree's search, one step at a time (/api/trace) ----

const tv = { data: null, step: 0, pos: null };

function showView(tree) {
  $("play-view").hidden = tree;
  $("play-controls").hidden = tree;
  $("tree-view").hidden = !tree;
  $("show-play").className = tree ? "" : "on";
  $("show-tree").className = tree ? "on" : "";
  if (tree && !tv.data) loadTrace();
}

// The searches that fit each named tree, the first one its default: plain trees take the
// two-player searches, the chance tree the chance searches, the three-player tree those for
// more players. Pasted trees keep the choice (the server says when it does not fit).
const FAMILIES = {
  plain: ["alphabeta", "minimax", "pvs", "mtdf", "alphabeta-hard", "veb", "ab"],
  chance: ["star1", "star2", "expectiminimax", "expectinegamax"],
  players: ["maxn", "maxn-plain", "paranoid", "brs"],
};
const TREE_FAMILY = { exercise: "plain", three: "plain", random: "plain", chance: "chance", maxn3: "players" };

function fitAlgorithm() {
  const family = FAMILIES[TREE_FAMILY[$("tree").value]];
  if (family && !family.includes($("algo").value)) $("algo").value = family[0];
  // Best-first and worst-first reorder plain two-player trees only.
  const plain = TREE_FAMILY[$("tree").value] === "plain" || $("tree").value === "pasted";
  if (!plain) $("order").value = "natural";
  $("order").disabled = !plain;
}

async function loadTrace() {
  fitAlgorithm();
  const algo = $("algo").value, order = $("order").value, tree = $("tree").value;
  try {
    let j;
    if (tree === "pasted") {
      j = await answer(`api/trace?algo=${algo}&order=${order}`, { method: "POST", body: $("tree-text").value });
    } else {
      let url = `api/trace?tree=${tree}&algo=${algo}&order=${order}`;
      if (tree === "random") url += `&b=${$("tree-b").value}&d=${$("tree-d").value}&seed=${$("tree-seed").value}`;
      j = await answer(url);
    }
    tv.data = j;
    tv.step = 0;
    layoutTree();
    drawTree();
  } catch (e) {
    $("event").textContent = "Error: " + e.message;
  }
}

// Leaves side by side in their order, each parent over the middle of its children.
function layoutTree() {
  const nodes = tv.data.nodes;
  const kids = nodes.map(() => []);
  nodes.forEach((n) => { if (n.parent !== null) kids[n.parent].push(n.id); });
  const pos = nodes.map(() => ({ x: 0, y: 0 }));
  let next = 0, depthMax = 0;
  const place = (id, depth) => {
    depthMax = Math.max(depthMax, depth);
    pos[id].y = 40 + depth * 90;
    if (kids[id].length === 0) {
      pos[id].x = 40 + next * 56;
      next += 1;
    } else {
      kids[id].forEach((c) => place(c, depth + 1));
      pos[id].x = (pos[kids[id][0]].x + pos[kids[id][kids[id].length - 1]].x) / 2;
    }
  };
  // Vector values, "(3, 3, 4)", need wider leaves.
  const gap = nodes.some((n) => typeof n.leaf === "string" && n.leaf.startsWith("(")) ? 84 : 56;
  const placeAll = () => { next = 0; place(0, 0); };
  placeAll();
  if (gap !== 56) nodes.forEach((n, i) => { pos[i].x = 40 + (pos[i].x - 40) * (gap / 56); });
  tv.pos = pos;
  tv.kids = kids;
  tv.width = Math.max(80 + (next - 1) * gap, 300);
  tv.height = 100 + depthMax * 90;
}

const inf = (v, sign) => (v === null ? (sign < 0 ? "-\u221e" : "+\u221e") : String(v));

// What the first `tv.step` steps have shown: windows, values, pruned subtrees, cuts.
function replay() {
  const s = { window: {}, value: {}, pruned: new Set(), cut: {}, current: null, leaves: 0 };
  const nodes = tv.data.nodes;
  const under = (id) => { s.pruned.add(id); tv.kids[id].forEach(under); };
  for (const st of tv.data.steps.slice(0, tv.step)) {
    s.current = st.node;
    if (st.kind === "enter") s.window[st.node] = [st.alpha, st.beta, st.player];
    if (st.kind === "settle") {
      s.value[st.node] = st.value;
      if (nodes[st.node].leaf !== null) s.leaves += 1;
    }
    if (st.kind === "prune") {
      under(st.node);
      s.cut[st.parent] = `${st.cut} cut on ${st.bound}${whose(st.player)}`;
      s.current = st.parent;
    }
  }
  return s;
}

// Vector trees name the player a window or bound is for.
const whose = (player) => (player === null || player === undefined ? "" : ` for player ${player}`);
const windowText = (w) => `(${inf(w[0], -1)}, ${inf(w[1], 1)})${whose(w[2])}`;

function describe(st) {
  if (!st) return "Before the search: step forward to watch it.";
  const name = (id) => tv.data.nodes[id].name;
  if (st.kind === "enter") return `enter ${name(st.node)} with the window ${windowText([st.alpha, st.beta, st.player])}`;
  if (st.kind === "settle") return `${name(st.node)} settles at ${st.value}${st.exact === false ? " (a bound: its search was cut off)" : ""}`;
  return `${st.cut} cut at ${name(st.parent)} (the bound ${st.bound}${whose(st.player)}): ${name(st.node)} is pruned`;
}

// One shape per kind of node: MAX (player 0) square, MIN (player 1) circle, player 2
// hexagon, further players octagons, chance diamonds, the leaves of general trees
// rounded boxes.
function shape(n, p, cls, g) {
  const poly = (pts) => el("polygon", { points: pts.map(([x, y]) => `${p.x + x},${p.y + y}`).join(" "), class: cls }, g);
  const ring = (k, r) => Array.from({ length: k }, (_, i) => [r * Math.cos((2 * Math.PI * i) / k), r * Math.sin((2 * Math.PI * i) / k)]);
  if (n.kind === "max" || n.kind === "player 0") return el("rect", { x: p.x - 17, y: p.y - 17, width: 34, height: 34, class: cls }, g);
  if (n.kind === "min" || n.kind === "player 1") return el("circle", { cx: p.x, cy: p.y, r: 18, class: cls }, g);
  if (n.kind === "chance") return poly([[0, -21], [21, 0], [0, 21], [-21, 0]]);
  if (n.kind === "player 2") return poly(ring(6, 20));
  if (n.kind === "leaf") return el("rect", { x: p.x - 26, y: p.y - 13, width: 52, height: 26, rx: 8, class: cls }, g);
  return poly(ring(8, 20));
}

function drawTree() {
  const host = $("tree-drawing");
  host.textContent = "";
  const d = tv.data, s = replay();
  const svg = el("svg", { viewBox: `0 0 ${tv.width} ${tv.height}`, width: tv.width, role: "img" }, host);
  d.nodes.forEach((n) => {
    if (n.parent === null) return;
    const a = tv.pos[n.parent], b = tv.pos[n.id];
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "edge" + (s.pruned.has(n.id) ? " pruned" : "") }, svg);
    if (n.prob !== null && n.prob !== undefined) {
      // A chance outcome's probability, as written, beside its edge.
      const t = el("text", { x: (a.x + b.x) / 2 + 4, y: (a.y + b.y) / 2, class: "prob" }, svg);
      t.textContent = n.prob;
    }
  });
  d.nodes.forEach((n) => {
    const p = tv.pos[n.id];
    let cls = "node " + (n.kind === "max" || n.kind === "player 0" ? "max" : "min");
    if (n.kind === "chance") cls += " chance";
    if (s.pruned.has(n.id)) cls += " pruned";
    else if (n.id in s.value) cls += " settled";
    if (s.current === n.id) cls += " current";
    const g = el("g", { "data-name": n.name, "data-kind": n.kind, class: s.pruned.has(n.id) ? "pruned" : "" }, svg);
    shape(n, p, cls, g);
    const t = el("text", { x: p.x, y: p.y, class: "label" }, g);
    // Long decimals (a chance node's 3.333333) are shortened to fit the shape.
    const shown = (v) => (typeof v === "string" && v.length > 5 && !Number.isNaN(Number(v)) ? Number(v).toFixed(2) : v);
    t.textContent = n.id in s.value ? shown(s.value[n.id]) : n.name || "root";
    if (t.textContent.length > 7) t.setAttribute("class", "label small");
    if (n.leaf !== null) {
      const v = el("text", { x: p.x, y: p.y + 34, class: "leafv" }, g);
      v.textContent = n.leaf;
    }
    if (s.window[n.id] && !s.pruned.has(n.id)) {
      const w = el("text", { x: p.x, y: p.y - 24, class: "window" }, g);
      // Short on the drawing: "p0 (-7, 1)"; the event line spells it out.
      const [a, b, who] = s.window[n.id];
      w.textContent = `${who === null || who === undefined ? "" : `p${who} `}(${inf(a, -1)}, ${inf(b, 1)})`;
    }
    if (s.cut[n.id]) {
      const c = el("text", { x: p.x, y: p.y + 32, class: "cutnote" }, g);
      c.textContent = s.cut[n.id];
    }
  });
  const total = d.steps.length;
  $("step").textContent = `step ${tv.step} of ${total}`;
  $("event").textContent = describe(tv.step > 0 ? d.steps[tv.step - 1] : null);
  const km = d.minimal_leaves === null ? "" : `; the minimal tree (Knuth-Moore: the fewest any search can evaluate here): ${d.minimal_leaves}`;
  const done = tv.step === total ? ` Value ${d.value_text ?? d.value}.` : "";
  $("counts").textContent = `leaves evaluated: ${s.leaves} (${d.algo} evaluates ${d.leaves_evaluated} in all; minimax ${d.leaves}${km}).${done}`;
}

function stepTo(k) {
  if (!tv.data) return;
  tv.step = Math.max(0, Math.min(k, tv.data.steps.length));
  drawTree();
}

$("show-play").addEventListener("click", () => showView(false));
$("show-tree").addEventListener("click", () => showView(true));
for (const id of ["tree", "algo", "order", "tree-b", "tree-d", "tree-seed"]) {
  // A new tree gets a search that fits it (see `fitAlgorithm`); a new search keeps the tree.
  $(id).addEventListener("change", loadTrace);
}
$("tree-text").addEventListener("change", () => { $("tree").value = "pasted"; loadTrace(); });
$("first").addEventListener("click", () => stepTo(0));
$("back").addEventListener("click", () => stepTo(tv.step - 1));
$("next").addEventListener("click", () => stepTo(tv.step + 1));
$("last").addEventListener("click", () => stepTo(Infinity));
document.addEventListener("keydown", (e) => {
  if ($("tree-view").hidden || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") stepTo(tv.step + 1);
  if (e.key === "ArrowLeft") stepTo(tv.step - 1);
});
// `?view=tree` opens the alpha-beta view (and starts no search of a game position).
detect().then((b) => {
  backend = b;
  document.body.dataset.engine = b;
  if (new URLSearchParams(location.search).get("view") === "tree") showView(true);
  else load();
});
