// The page: a board, the exact score of every move (from /api/analyse), play against the
// solver or another person, undo, and a link to the position (?game=...&pos=...).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const state = { game: "connect4", moves: [], scores: null, busy: false, request: null };

// Connect Four: the position is the columns played (1-7). Tic-tac-toe: the cells (1-9).
function board() {
  if (state.game === "connect4") {
    const cols = Array.from({ length: 7 }, () => []);
    state.moves.forEach((m, i) => cols[m - 1].push(i % 2 === 0 ? "x" : "o"));
    return cols;
  }
  const cells = Array(9).fill(null);
  state.moves.forEach((m, i) => { cells[m - 1] = i % 2 === 0 ? "x" : "o"; });
  return cells;
}

// The position as the API takes it: the move string, or the tic-tac-toe board.
function posText() {
  if (state.game === "connect4") return state.moves.join("");
  const cells = board();
  let s = "";
  for (let i = 0; i < 9; i++) {
    if (i > 0 && i % 3 === 0) s += "/";
    s += cells[i] === "x" ? "X" : cells[i] === "o" ? "O" : ".";
  }
  return s;
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
    const svg = el("svg", { viewBox: "0 0 700 660", width: 490, role: "img" }, host);
    el("rect", { x: 0, y: 40, width: 700, height: 620, rx: 16, class: "frame" }, svg);
    const cols = board();
    for (let c = 0; c < 7; c++) {
      const g = el("g", { class: "cell", "data-col": c + 1 }, svg);
      el("rect", { x: c * 100, y: 0, width: 100, height: 660, fill: "transparent" }, g);
      for (let r = 0; r < 6; r++) {
        const stone = cols[c][r];
        el("circle", { cx: c * 100 + 50, cy: 610 - r * 100, r: 40, class: stone || "hole" }, g);
      }
      const s = scoreOf(c + 1);
      if (s) {
        const t = el("text", { x: c * 100 + 50, y: 28, class: "score " + kind(s.value) }, g);
        t.textContent = (s.value > 0 ? "+" : "") + s.value;
        // The words, shown when the pointer rests on the column.
        el("title", {}, g).textContent = `column ${c + 1}: ${s.explain}`;
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
  $("pos").textContent = pos || "(start)";
  const link = `?game=${state.game}&pos=${encodeURIComponent(pos)}`;
  $("share").href = link;
  history.replaceState(null, "", link);
  const body = $("scores").querySelector("tbody");
  body.textContent = "";
  if (state.scores) {
    for (const m of state.scores.moves) {
      const tr = document.createElement("tr");
      if (m.value === state.scores.value) tr.className = "best";
      for (const text of [m.move, m.value, m.explain]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const who = state.scores.to_move;
    $("value").textContent = state.scores.terminal
      ? `Game over: ${state.scores.explain} for ${who}.`
      : `${who} to move: ${state.scores.explain} (score ${state.scores.value}).`;
  }
}

// A move may be played while a search runs: the search is dropped (its request aborted,
// which stops it on the server) and the new position searched instead.
function legal(move) {
  if (state.scores && state.scores.terminal) return false;
  if (state.game === "connect4") return board()[move - 1].length < 6;
  return board()[move - 1] === null;
}

function play(move) {
  if (!legal(move)) return;
  state.moves.push(move);
  analyse(true);
}

// Scores the position; when the solver is the opponent and it is its turn, it then plays
// its best move.
async function analyse(afterHuman) {
  if (state.request) state.request.abort();
  const ctl = new AbortController();
  state.request = ctl;
  state.busy = true;
  state.scores = null;
  draw();
  const started = performance.now();
  $("status").textContent = "Solving every move...";
  const tick = setInterval(() => {
    $("progress").textContent = `searching for ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 200);
  try {
    const url = `/api/analyse?game=${state.game}&pos=${encodeURIComponent(posText())}`;
    const r = await fetch(url, { signal: ctl.signal });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    state.scores = j;
    $("status").textContent = "";
    $("progress").textContent = `${j.nodes.toLocaleString()} nodes in ${j.time_ms.toFixed(0)} ms (${(j.nodes / Math.max(j.time_ms, 1e-3) / 1000).toFixed(2)} M nodes/s)`;
  } catch (e) {
    if (e.name === "AbortError") return;
    $("status").textContent = "Error: " + e.message;
  } finally {
    clearInterval(tick);
    if (state.request === ctl) {
      state.busy = false;
      state.request = null;
    }
  }
  draw();
  const solverToMove = $("opponent").value === "solver" && afterHuman;
  if (solverToMove && state.scores && !state.scores.terminal && state.scores.best_move) {
    state.moves.push(Number(state.scores.best_move));
    analyse(false);
  }
}

function load() {
  const q = new URLSearchParams(location.search);
  state.game = q.get("game") === "tictactoe" ? "tictactoe" : "connect4";
  $("game").value = state.game;
  const pos = q.get("pos") || "";
  if (state.game === "connect4") {
    state.moves = [...pos].filter((c) => c >= "1" && c <= "7").map(Number);
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
  analyse(false);
}

$("game").addEventListener("change", () => {
  state.game = $("game").value;
  state.moves = [];
  analyse(false);
});
$("undo").addEventListener("click", () => {
  if (state.request) state.request.abort();
  state.busy = false;
  // Against the solver, undo takes back the solver's reply too.
  const n = $("opponent").value === "solver" && state.moves.length % 2 === 0 ? 2 : 1;
  state.moves.splice(Math.max(0, state.moves.length - n));
  analyse(false);
});
$("restart").addEventListener("click", () => {
  state.moves = [];
  analyse(false);
});
load();
