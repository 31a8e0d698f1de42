// tableref dashboard: plain JS, no build step. State arrives over a WebSocket; overlays are drawn
// on a canvas above the MJPEG image from the pushed vision messages.
"use strict";

const $ = (id) => document.getElementById(id);
const store = window.localStorage;
const app = {
  state: null,
  vision: null,
  lang: store.getItem("tableref.lang") || ((navigator.language || "en").startsWith("fr") ? "fr" : "en"),
  token: null,
  ws: null,
  timerDeadline: null,
  timerKey: null,
  timerRang: null,
  audio: null,
  cornerMode: false,
  corners: [],
  messages: 0,
};
window.tableref = app;

// -- token: "#token=..." in the URL printed at start-up, kept for this browser --------------------
(function readToken() {
  const m = location.hash.match(/token=([A-Za-z0-9_\-]+)/);
  if (m) {
    store.setItem("tableref.token", m[1]);
    history.replaceState(null, "", location.pathname);
  }
  app.token = store.getItem("tableref.token");
})();

function t(key) {
  const words = window.I18N[app.lang] || window.I18N.en;
  return words[key] || window.I18N.en[key] || key;
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  $("lang-btn").textContent = app.lang === "en" ? "FR" : "EN";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  if (app.state) render(app.state);
}

$("lang-btn").addEventListener("click", () => {
  app.lang = app.lang === "en" ? "fr" : "en";
  store.setItem("tableref.lang", app.lang);
  app.formsKey = null; // the forms' words follow the language
  applyLanguage();
});

// -- talking to the server ------------------------------------------------------------------------
async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (app.token) headers["X-Tableref-Token"] = app.token;
  const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await res.json(); } catch (e) { data = {}; }
  if (!res.ok) {
    toast(res.status === 403 ? t("watch_only") : `${t("error")}: ${data.error || res.status}`);
    throw new Error(data.error || String(res.status));
  }
  return data;
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(app.toastTimer);
  app.toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

function onMessage(text) {
  app.messages += 1;
  const msg = JSON.parse(text);
  if (msg.type === "vision") { app.vision = msg; drawOverlay(); return; }
  if (msg.type === "source") { if (app.state) { app.state.source = msg.source; renderSource(app.state.source); } return; }
  if (msg.state) { app.state = msg.state; render(app.state); }
  if (msg.type === "timer_end") ring();
}

// WebSocket first; Server-Sent Events when WebSockets do not get through (some proxies).
function connect() {
  if ((app.wsFailures || 0) >= 2 && window.EventSource) {
    const es = new EventSource("/api/events");
    app.link = es;
    es.onopen = () => setPill($("link-pill"), "connected", t("link_connected"));
    es.onmessage = (ev) => onMessage(ev.data);
    es.onerror = () => setPill($("link-pill"), "lost", t("link_lost"));
    return;
  }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/ws`);
  app.link = ws;
  let opened = false;
  ws.onopen = () => { opened = true; app.wsFailures = 0; setPill($("link-pill"), "connected", t("link_connected")); };
  ws.onmessage = (ev) => onMessage(ev.data);
  ws.onclose = () => {
    if (!opened) app.wsFailures = (app.wsFailures || 0) + 1;
    setPill($("link-pill"), "lost", t("link_lost"));
    setTimeout(connect, 1000);
  };
}

function setPill(el, status, text) { el.dataset.status = status; el.textContent = text; }

// -- rendering the state ---------------------------------------------------------------------------
function render(s) {
  $("game-title").textContent = s.game.title || s.game.name;
  $("game-mode").textContent = `${s.game.mode} · ${s.game.players.join(", ")}`;
  renderSource(s.source);
  renderTimer(s.timer, s.server_time);
  renderQuestions(s.questions || []);
  renderRuling(s.log || []);
  renderOutcome(s.outcome, s.game.players);
  renderPanel(s.panel || { rows: [] });
  renderLog(s.log || []);
  $("undo-btn").disabled = !s.can_undo;
  loadForms(s.game);
  $("export-t1").hidden = s.game.name !== "twixt";
  $("corners-btn").hidden = s.game.name !== "twixt";
}

function renderSource(src) {
  if (!src) return;
  setPill($("source-pill"), src.status, `${t("source_" + src.status)}${src.fps ? " · " + src.fps + " fps" : ""}`);
  const msg = $("source-msg");
  const bad = ["unavailable", "retrying", "ended"].includes(src.status);
  msg.hidden = !bad;
  if (bad) msg.textContent = `${t("source_" + src.status)}${src.message ? ": " + src.message : ""}`;
}

function reasonText(reason) { return reason ? (reason[app.lang] || reason.en) : ""; }

function playerName(seat) {
  const players = app.state ? app.state.game.players : [];
  return typeof seat === "number" && players[seat] !== undefined ? players[seat] : String(seat);
}

function evidenceHtml(ev) {
  if (!ev) return "";
  let html = "";
  if (ev.image) html += `<img class="photo" alt="photo-finish" src="${encodeURI(ev.image)}">`;
  const bits = [];
  if (typeof ev.p_same === "number") bits.push(`p(same) ${(ev.p_same * 100).toFixed(0)} %`);
  if (ev.seat !== undefined) bits.push(`${t("claimed_by")} ${escapeHtml(playerName(ev.seat))}`);
  if (ev.answered) bits.push(`${t("ask_table")}: ${ev.answered === "yes" ? t("yes_same") : t("no_diff")}`);
  if (bits.length) html += `<div class="meta">${bits.join(" · ")}</div>`;
  return html;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function renderRuling(log) {
  const last = log.find((e) => e.kind === "action" && !e.undone && e.origin !== "setup");
  $("ruling-box").hidden = !last;
  if (!last) return;
  const v = last.ruling.verdict;
  $("ruling").innerHTML =
    `<div class="ruling ${v}"><div class="verdict">${escapeHtml(t(v))}</div>` +
    `<div class="reason">${escapeHtml(reasonText(last.ruling.reason))}</div>${evidenceHtml(last.evidence)}</div>`;
}

function renderQuestions(questions) {
  const box = $("questions");
  box.innerHTML = "";
  for (const q of questions) {
    const div = document.createElement("div");
    div.className = "question";
    div.innerHTML = `<h2>${escapeHtml(t("uncertain"))}</h2><p>${escapeHtml(q.question[app.lang] || q.question.en)}</p>` +
      evidenceHtml(q.evidence) +
      `<div class="buttons"><button class="yes" type="button">${escapeHtml(t("yes_same"))}</button>` +
      `<button class="no" type="button">${escapeHtml(t("no_diff"))}</button></div>`;
    div.querySelector(".yes").onclick = () => post(`/api/questions/${q.id}/answer`, { yes: true });
    div.querySelector(".no").onclick = () => post(`/api/questions/${q.id}/answer`, { yes: false });
    box.appendChild(div);
  }
}

function renderOutcome(outcome, players) {
  $("outcome-box").hidden = !outcome;
  if (!outcome) return;
  const names = (outcome.winners || []).map((i) => players[i]).join(", ");
  $("outcome").innerHTML = `<div class="ruling valid"><div class="verdict">${escapeHtml(t("game_over"))}</div>` +
    `<div>${escapeHtml(reasonText(outcome.reason))}</div>${names ? `<div>${escapeHtml(t("winners"))}: ${escapeHtml(names)}</div>` : ""}</div>`;
}

function scoreRows(scores, prefix) {
  // The referee's scoreboard flattened into rows when no adapter describes it.
  const rows = [];
  for (const [key, value] of Object.entries(scores || {})) {
    const name = prefix ? `${prefix} · ${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) rows.push(...scoreRows(value, name));
    else rows.push({ en: name, fr: name, value: Array.isArray(value) ? value.join(", ") : String(value) });
  }
  return rows;
}

function renderPanel(panel) {
  const given = panel.rows || [];
  const rows = (given.length ? given : scoreRows(app.state ? app.state.scores : {})).map((r) =>
    `<tr><td>${escapeHtml(r[app.lang] || r.en)}</td><td class="v">${escapeHtml(r["value_" + app.lang] || r.value)}</td></tr>`).join("");
  $("panel").innerHTML = `<table class="panel">${rows}</table>`;
  renderBoard(panel.board);
}

function renderBoard(board) {
  $("board-box").hidden = !board;
  if (!board) return;
  const n = board.size || 24;
  const cell = 100 / n;
  const at = (col, row) => [(col + 0.5) * cell, (row + 0.5) * cell];
  let svg = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const corner = (r === 0 || r === n - 1) && (c === 0 || c === n - 1);
    if (corner) continue;
    const [x, y] = at(c, r);
    svg += `<circle cx="${x}" cy="${y}" r="${cell * 0.12}" fill="#8a7350"/>`;
  }
  svg += `<line x1="${cell}" y1="${cell}" x2="${100 - cell}" y2="${cell}" stroke="${board.colors ? board.colors[0] : "#c00"}" stroke-width=".6"/>`;
  svg += `<line x1="${cell}" y1="${100 - cell}" x2="${100 - cell}" y2="${100 - cell}" stroke="${board.colors ? board.colors[0] : "#c00"}" stroke-width=".6"/>`;
  svg += `<line x1="${cell}" y1="${cell}" x2="${cell}" y2="${100 - cell}" stroke="${board.colors ? board.colors[1] : "#111"}" stroke-width=".6"/>`;
  svg += `<line x1="${100 - cell}" y1="${cell}" x2="${100 - cell}" y2="${100 - cell}" stroke="${board.colors ? board.colors[1] : "#111"}" stroke-width=".6"/>`;
  for (const link of board.links || []) {
    const [x1, y1] = at(link.a[0], link.a[1]);
    const [x2, y2] = at(link.b[0], link.b[1]);
    svg += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${link.color}" stroke-width="${cell * 0.25}"/>`;
  }
  for (const peg of board.pegs || []) {
    const [x, y] = at(peg.col, peg.row);
    const last = board.last && board.last[0] === peg.col && board.last[1] === peg.row;
    svg += `<circle cx="${x}" cy="${y}" r="${cell * 0.38}" fill="${peg.color}" stroke="${last ? "#4c8dff" : "none"}" stroke-width="${cell * 0.15}"/>`;
  }
  $("board").innerHTML = svg;
}

function describeAction(a) {
  const parts = [a.type];
  for (const [k, v] of Object.entries(a)) {
    if (k === "type") continue;
    parts.push(`${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return parts.join(" ");
}

function renderLog(log) {
  $("log").innerHTML = log.map((e) => {
    if (e.kind === "undo") return `<li>↶ ${escapeHtml(t("undo"))} #${e.target}</li>`;
    if (e.kind === "correction") return `<li>✎ ${escapeHtml(t("correction"))}: ${escapeHtml(JSON.stringify(e.fact))}</li>`;
    const v = e.ruling.verdict;
    return `<li class="${e.undone ? "undone" : ""}"><span class="v-${v}">${escapeHtml(t(v))}</span> ` +
      `${escapeHtml(describeAction(e.action))} — ${escapeHtml(reasonText(e.ruling.reason))}</li>`;
  }).join("");
}

// -- what the camera cannot see: actions entered by hand ---------------------------------------
async function loadForms(game) {
  const key = `${game.name}:${game.mode}`;
  if (app.formsKey === key) return;
  app.formsKey = key;
  try {
    const res = await fetch("/api/forms");
    app.forms = (await res.json()).forms || [];
  } catch (e) { app.forms = []; }
  const select = $("manual-type");
  select.innerHTML = app.forms.map((f, i) => `<option value="${i}">${escapeHtml(f[app.lang] || f.en)}</option>`).join("");
  $("manual-box").hidden = app.forms.length === 0;
  renderFormFields();
}

function renderFormFields() {
  const form = (app.forms || [])[Number($("manual-type").value) || 0];
  const box = $("manual-fields");
  box.innerHTML = "";
  if (!form) return;
  const players = app.state ? app.state.game.players : [];
  for (const f of form.fields) {
    const label = document.createElement("label");
    label.textContent = f[app.lang] || f.en;
    let input;
    if (f.kind === "seat" || f.kind === "choice") {
      input = document.createElement("select");
      const opts = f.kind === "seat" ? players.map((p, i) => [String(i), p]) : f.options.map((o) => [o, o]);
      input.innerHTML = opts.map(([v, text]) => `<option value="${escapeHtml(v)}">${escapeHtml(text)}</option>`).join("");
    } else {
      input = document.createElement("input");
      input.type = f.kind === "int" ? "number" : "text";
      if (f.min !== undefined) input.min = f.min;
      if (f.max !== undefined) input.max = f.max;
      input.maxLength = 200;
      if (f.kind === "seats") input.placeholder = players.join(", ");
    }
    input.name = f.name;
    input.dataset.kind = f.kind;
    label.appendChild(input);
    box.appendChild(label);
  }
}

$("manual-type").addEventListener("change", renderFormFields);
$("manual-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = (app.forms || [])[Number($("manual-type").value) || 0];
  if (!form) return;
  const values = {};
  for (const input of $("manual-fields").querySelectorAll("input, select")) {
    const v = input.value.trim();
    if (v !== "") values[input.name] = input.dataset.kind === "int" ? Number(v) : v;
  }
  try {
    const res = await post(`/api/forms/${form.type}`, { values });
    toast(`${t(res.ruling.verdict)}: ${reasonText(res.ruling.reason)}`);
  } catch (e) { /* the toast already says why */ }
});

// -- the cooperative minute --------------------------------------------------------------------
function renderTimer(timer, serverTime) {
  const box = $("timer-box");
  box.hidden = !timer;
  if (!timer) { app.timerDeadline = null; return; }
  $("timer-label").textContent = timer.label === "coop" ? t("coop_minute") : timer.label;
  const back = $("timer-backdated");
  back.hidden = !(timer.backdated_s > 0.05);
  if (!back.hidden) back.textContent = t("timer_backdated").replace("{s}", timer.backdated_s.toFixed(1));
  const key = `${timer.label}:${timer.seconds}:${Math.round((serverTime || 0) + timer.remaining)}`;
  if (key !== app.timerKey) { app.timerKey = key; }
  app.timerDeadline = performance.now() / 1000 + timer.remaining;
  app.timerRunning = timer.running;
  tickTimer();
}

function tickTimer() {
  if (app.timerDeadline === null) return;
  const left = Math.max(0, app.timerDeadline - performance.now() / 1000);
  const el = $("timer");
  el.textContent = left > 0 ? Math.ceil(left).toString() : t("time_up");
  el.classList.toggle("ending", left <= 10);
  el.classList.toggle("over", left <= 0);
  if (left <= 0 && app.timerRunning) { app.timerRunning = false; ring(); }
}
setInterval(tickTimer, 100);

function ring() {
  if (app.timerRang === app.timerKey) return;
  app.timerRang = app.timerKey;
  try {
    const ctx = app.audio || new (window.AudioContext || window.webkitAudioContext)();
    app.audio = ctx;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.4, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 1.2);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 1.2);
  } catch (e) { /* no audio on this device */ }
  app.rang = (app.rang || 0) + 1;
}

$("sound-btn").addEventListener("click", () => {
  app.audio = app.audio || new (window.AudioContext || window.webkitAudioContext)();
  app.audio.resume();
  $("sound-btn").textContent = t("sound_ready");
});

$("undo-btn").addEventListener("click", () => post("/api/undo"));

$("corners-btn").addEventListener("click", () => {
  // the next four taps on the live image are the board's corners (when it was not found)
  app.cornerMode = true;
  app.corners = [];
  toast(t("board_corners"));
});

// -- overlays ------------------------------------------------------------------------------------
const canvas = $("overlay");
const COLORS = { visible: "#2fbf71", covered: "#f5a623" };

function drawOverlay() {
  const v = app.vision;
  const img = $("video");
  const w = img.clientWidth, h = img.clientHeight;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, w, h);
  if (!v || !v.width) return;
  const sx = w / v.width, sy = h / v.height;
  g.lineWidth = 2;
  g.font = "12px system-ui";
  for (const c of v.cards || []) {
    g.strokeStyle = COLORS[c.state] || "#9aa4b2";
    g.beginPath();
    c.quad.forEach(([x, y], i) => (i ? g.lineTo(x * sx, y * sy) : g.moveTo(x * sx, y * sy)));
    g.closePath();
    g.stroke();
    const [x0, y0] = c.quad[0];
    const label = c.identity ? c.identity.replace(/^[a-z]+:/, "") : `#${c.id}`;
    g.fillStyle = "rgba(0,0,0,.6)";
    g.fillRect(x0 * sx, y0 * sy - 14, g.measureText(label).width + 6, 14);
    g.fillStyle = "#fff";
    g.fillText(label, x0 * sx + 3, y0 * sy - 3);
  }
  g.setLineDash([6, 4]);
  g.strokeStyle = "#4c8dff";
  for (const hd of v.hands || []) {
    const [x, y, bw, bh] = hd.bbox;
    g.strokeRect(x * sx, y * sy, bw * sx, bh * sy);
    g.fillStyle = "#4c8dff";
    g.fillText(hd.seat, x * sx + 3, y * sy + 12);
  }
  g.setLineDash([]);
  if (v.lattice) {
    g.fillStyle = "rgba(255,255,0,.7)";
    for (const [x, y] of v.lattice) g.fillRect(x * sx - 1, y * sy - 1, 2, 2);
  }
  for (const p of app.corners) { g.fillStyle = "#e5484d"; g.fillRect(p[0] * sx - 4, p[1] * sy - 4, 8, 8); }
}
window.addEventListener("resize", drawOverlay);

function insideQuad(px, py, quad) {
  let inside = false;
  for (let i = 0, j = quad.length - 1; i < quad.length; j = i++) {
    const [xi, yi] = quad[i], [xj, yj] = quad[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

canvas.addEventListener("click", (ev) => {
  const v = app.vision;
  if (!v || !v.width) return;
  const rect = canvas.getBoundingClientRect();
  const x = ((ev.clientX - rect.left) / rect.width) * v.width;
  const y = ((ev.clientY - rect.top) / rect.height) * v.height;
  if (app.cornerMode) {
    app.corners.push([x, y]);
    drawOverlay();
    if (app.corners.length === 4) {
      const points = app.corners;
      app.corners = [];
      app.cornerMode = false;
      post("/api/corrections", { kind: "board_corners", points });
    }
    return;
  }
  const card = (v.cards || []).find((c) => insideQuad(x, y, c.quad));
  if (card) openCorrection(card);
});

function openCorrection(card) {
  const dlg = $("correct-dlg");
  $("correct-what").textContent = `${t("track")} #${card.id} · ${t("identity")}: ${card.identity || "?"}`;
  $("correct-input").value = card.identity || "";
  dlg.returnValue = "";
  dlg.onclose = () => {
    const identity = $("correct-input").value.trim();
    if (dlg.returnValue === "ok" && identity) post("/api/corrections", { kind: "card", track_id: card.id, identity });
  };
  dlg.showModal();
}

applyLanguage();
fetch("/api/state").then((r) => r.json()).then((s) => { app.state = app.state || s; render(app.state); });
connect();
