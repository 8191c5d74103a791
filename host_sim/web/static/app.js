// The Vortex board simulator page. It draws the state the server sends (the
// firmware's LED frame, the virtual board, the game) and sends what hands do.
// No rule and no recognition here: the firmware decides, the page shows.
"use strict";

const READINGS = ["–", "W", "F", "E", "A", "?", "·"]; // vortex.tag reading codes
// The board's verdicts (vortex/app/recognise.py VERDICT_NAMES), in words.
const VERDICTS = {
  agree: "the board agrees with the game", hand: "a piece in hand", wait: "an action under way",
  action: "an action", illegal: "an action the rules do not allow: put it back as the LEDs show",
  disagree: "put the board back as the LEDs show", setup: "a Heart moved",
  "not-asked": (s) => s.seen && s.pending
    ? `${s.seen} is not the action the board asks for: ${s.pending}. Put it back as the LEDs show.`
    : "not the action the board asks for: put it back as the LEDs show",
};
// The settings menu's rows (vortex.app.commands.NAMES, the order of state.settings), in words.
const SETTING_LABELS = { ai: "AI plays", clock: "clock", brightness: "brightness",
  budget: "LED budget", hearts: "Hearts", level: "AI level", volume: "sound" };
const SETTING_UNITS = { budget: " mA" };
const SUPPLIES = { none: "no USB-C source", usb: "default USB", "1.5a": "USB-C 1.5 A", "3a": "USB-C 3 A" };
const BAD_VERDICTS = new Set(["illegal", "disagree", "not-asked"]);

const $ = (id) => document.getElementById(id);

// Exposed for the browser tests: the last state drawn and the hand-to-frame times.
const vortex = (window.vortex = { state: null, latencies: [], drawn: 0, sounds: [] });

let state = null;
let cursor = 12; // e2
let selected = -1; // index into the hand; -1: the last taken
let pencil = null; // {terrain} or {piece}: a tile from the box or a piece from beside the board, to put on the next cell clicked
let viewing = null; // {ply, tiles, pieces} while an old position is shown
let eventId = 0;
const sentAt = new Map();
const buttons = { a: false, b: false };

// --- talking to the server ---------------------------------------------------
const HAND_OPS = new Set(["lift", "put", "move", "lay", "from-tray", "aside", "button"]);

async function send(op, args = {}, opts = {}) {
  const id = ++eventId;
  if (HAND_OPS.has(op)) sentAt.set(id, performance.now()); // timed: hand event to LED frame drawn
  let answer;
  try {
    const r = await fetch("/api/" + op, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ id }, args)),
    });
    answer = await r.json();
  } catch (e) {
    sentAt.delete(id);
    banner("The simulator does not answer (" + e.message + "). Is `make play` still running?");
    return { error: "no connection" };
  }
  if (answer.error && !opts.quiet) banner(answer.error);
  else if (answer.note) banner(answer.note, true);
  else clearBanner();
  return answer;
}

function connect() {
  const es = new EventSource("/events");
  es.onopen = () => { setLink(true); };
  es.onmessage = (ev) => {
    const s = JSON.parse(ev.data);
    draw(s);
  };
  es.onerror = () => { setLink(false); }; // EventSource reconnects by itself
}

function setLink(ok) {
  const l = $("link");
  l.className = "link " + (ok ? "ok" : "down");
  l.textContent = ok ? "live" : "connection lost: reconnecting…";
  if (ok && $("banner").dataset.kind === "link") clearBanner();
  if (!ok) banner("Connection to the simulator lost; reconnecting. The game is kept by the server.", false, "link");
}

let bannerTimer = 0;
function banner(text, info = false, kind = "msg") {
  const b = $("banner");
  b.textContent = text;
  b.className = "banner" + (info ? " info" : "");
  b.dataset.kind = kind;
  b.hidden = false;
  clearTimeout(bannerTimer);
  if (kind !== "link") bannerTimer = setTimeout(clearBanner, 6000);
}
function clearBanner() { $("banner").hidden = true; }

// --- drawing -------------------------------------------------------------------
function build() {
  buildBoard($("board"), document.querySelector(".top-files"), document.querySelector(".ranks"));
  const pool = $("pool");
  for (let t = 1; t <= 4; t++) {
    pool.insertAdjacentHTML("beforeend",
      `<button type="button" class="chip t${t}" data-terrain="${TERRAINS[t]}" title="a ${TERRAIN_NAMES[t]} tile (${TERRAINS[t]})">${SYMBOLS[t]}<span class="count"></span></button>`);
  }
}

// Online (vortex play --online ROOM): the room, our seat, the opponent's
// presence (or whose game is awaited) and the broker's connection, as the
// server's Follow says them.
function drawOnline(o) {
  const el = $("online");
  el.hidden = !o;
  if (!o) return;
  el.textContent = o.line;
  el.dataset.opponent = o.opponent || "";
  el.dataset.connected = o.connected ? "yes" : "no";
  el.classList.toggle("ok", o.connected && o.opponent === "here");
  el.classList.toggle("down", !o.connected || o.opponent === "gone" || !!o.waiting);
  el.title = `room ${o.room} on ${o.broker}` + (o.refused ? `; ${o.refused} messages refused` : "");
}

function draw(s) {
  if (!state) vortex.firstFrameMs = performance.now(); // since navigation began
  state = s;
  vortex.state = s;
  const shownTiles = viewing ? viewing.tiles : s.tiles;
  const shownPieces = viewing ? viewing.pieces : s.pieces;
  for (let c = 0; c < 64; c++) {
    const rgb = viewing ? [0, 0, 0] : s.frame.slice(3 * c, 3 * c + 3);
    drawCell(c, shownTiles[c], shownPieces[c], rgb);
    cells[c].el.classList.toggle("cursor", c === cursor);
  }
  $("board").classList.toggle("viewing", !!viewing);
  $("power").textContent = `LEDs ≈ ${s.current_ma} mA of ${s.budget_ma}`;
  $("power").title = `the LEDs' estimated current, and their budget: what the source (${SUPPLIES[s.supply] || s.supply}) allows, ${s.supply_ma} mA, or the budget setting where lower`;
  drawLegend(s);

  $("turn").textContent = s.result ? "Game over" : `${s.side} to act`;
  const dotSide = s.result ? s.result.winner : s.side; // the winner's colour once it is over
  $("turn-dot").style.background = dotSide === "Light" ? "var(--light-piece)" : dotSide === "Dark" ? "var(--dark-piece)" : "var(--muted)";
  $("phase").textContent = s.menu ? "Settings menu open (on the LEDs)" :
    s.building ? "Building: lay the tiles" : "Battle";
  const words = VERDICTS[s.verdict] || s.verdict;
  $("verdict").textContent = typeof words === "function" ? words(s) : words;
  $("verdict").className = "verdict" + (BAD_VERDICTS.has(s.verdict) ? " bad" : "");
  $("pending").hidden = !s.pending;
  $("pending").textContent = s.pending ? `The board asks: ${s.pending}` : "";
  $("result").hidden = !s.result;
  if (s.result) $("result").textContent = (s.result.winner ? `${s.result.winner} wins` : "A draw") + ` (${s.result.reason})`;
  $("pools").textContent = s.pool.map((n, i) => `${TERRAINS[i + 1]} ${n}`).join("  ");
  $("vortexes").textContent = `Light ${s.vortexes[0]} · Dark ${s.vortexes[1]}`;
  $("quiet").textContent = `${s.quiet} of 80`;
  drawClocks(s);
  $("mode").value = s.settings.ai; // a choice is sent at once: the state always has it
  $("ai-level").value = s.settings.level;
  $("volume").value = s.settings.volume;
  hear(s.sound);

  drawActions(s);
  if (document.activeElement !== $("position")) $("position").value = s.position;
  const msgs = $("messages");
  const mkey = s.messages.join("\n");
  if (msgs.dataset.key !== mkey) {
    msgs.dataset.key = mkey;
    msgs.innerHTML = "";
    for (const m of s.messages) msgs.insertAdjacentHTML("beforeend", `<li>${escapeHtml(m)}</li>`);
    msgs.scrollTop = msgs.scrollHeight;
  }
  drawHands(s);
  drawOnline(s.online);
  if (!$("sensors").hidden) drawSensors(s);

  // The hand events this state answers: their time to the frame drawn.
  requestAnimationFrame(() => {
    const t = performance.now();
    for (const [id, t0] of sentAt) {
      if (id <= s.ack) { vortex.latencies.push(t - t0); sentAt.delete(id); }
    }
    vortex.drawn = s.version;
  });
}

// While the settings menu is open on the LEDs, each of its rows is named
// over the cells it leaves dark (the f and g files), with its value.
function drawLegend(s) {
  const el = $("menu-legend");
  el.hidden = !s.menu;
  if (!s.menu) return;
  const names = Object.keys(s.settings);
  const key = JSON.stringify([s.settings, s.menu_item]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.innerHTML = names.map((n, i) => {
    const v = s.settings[n] + (/^\d+$/.test(s.settings[n]) ? SETTING_UNITS[n] || "" : "");
    return `<div data-name="${escapeHtml(n)}" class="${i === s.menu_item ? "on" : ""}"><span>${escapeHtml(SETTING_LABELS[n] || n)}</span><b>${escapeHtml(v)}</b></div>`;
  }).join("");
}

function drawClocks(s) {
  const el = $("clocks");
  if (!s.clock) { el.textContent = "off"; return; }
  const fmt = (ms) => `${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}`;
  el.innerHTML = ["Light", "Dark"].map((n, i) =>
    `<span class="${s.clock[i] < 10000 ? "clock-low" : ""}">${n} ${fmt(s.clock[i])}</span>`).join(" · ");
}

function drawActions(s) {
  const ol = $("actions");
  const key = s.actions.join(" ") + "|" + (viewing ? viewing.ply : "");
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  ol.innerHTML = "";
  s.actions.forEach((a, i) => {
    if (i % 2 === 0) ol.insertAdjacentHTML("beforeend", `<span class="n">${i / 2 + 1}.</span>`);
    const on = viewing && viewing.ply === i + 1 ? " on" : "";
    ol.insertAdjacentHTML("beforeend", `<button type="button" class="act${on}" data-ply="${i + 1}" title="see the position after it">${escapeHtml(a)}</button>`);
  });
  ol.scrollTop = ol.scrollHeight;
}

function chip(cls, text, title, item) {
  return `<button type="button" class="chip ${cls}" data-item="${item}" title="${title}">${text}</button>`;
}

function heldWords(h) {
  return h[0] === "piece" ? `${sideOf(h[1])} ${KINDS[h[1] & 3]}` : `${TERRAIN_NAMES[h[1]] || "foreign"} tile`;
}

function drawHands(s) {
  const hand = $("hand");
  if (selected >= s.hand.length) selected = -1;
  const sel = selected < 0 ? s.hand.length - 1 : selected;
  // What is held can be set down beside the board: a piece there, a tile in its box.
  const aside = $("aside");
  aside.hidden = !s.hand.length;
  if (s.hand.length) {
    const h = s.hand[sel];
    aside.textContent = h[0] === "piece" ? `Set the ${heldWords(h)} beside the board` : `Put the ${heldWords(h)} back in the box`;
  }
  $("pool-shelf").hidden = !s.building; // the board is built: no tile left to lay
  // Drawn again only when it changed: a chip a finger is dragging must stay the same element.
  const hkey = JSON.stringify([s.hand, sel]);
  if (hand.dataset.key !== hkey) {
    hand.dataset.key = hkey;
    hand.innerHTML = s.hand.map((h, i) => {
      const on = i === sel ? " sel" : "";
      const how = `(${i + 1}): click to choose it; drag it to a cell, or beside the board`;
      if (h[0] === "piece") {
        return chip(`piece-chip ${sideOf(h[1])}${on}`, PIECE_LETTERS[h[1]], `${heldWords(h)} ${how}`, i);
      }
      return chip(`t${h[1] <= 4 ? h[1] : 5}${on}`, SYMBOLS[h[1]] || "?", `a ${heldWords(h)} ${how}`, i);
    }).join("");
  }
  document.querySelectorAll("#pool .chip").forEach((b, i) => { b.querySelector(".count").textContent = s.pool[i]; });
  const tray = $("tray");
  const key = s.tray.join(",");
  if (tray.dataset.key !== key) {
    tray.dataset.key = key;
    tray.innerHTML = "";
    s.tray.forEach((n, code) => {
      if (!n) return;
      tray.insertAdjacentHTML("beforeend",
        `<button type="button" class="chip piece-chip ${sideOf(code)}" data-piece="${PIECE_LETTERS[code]}" title="a ${sideOf(code)} ${KINDS[code & 3]}: click, then a cell (or drag it there)">${PIECE_LETTERS[code]}<span class="count">${n}</span></button>`);
    });
    if (pencil && pencil.piece && !tray.querySelector(`[data-piece="${pencil.piece}"]`)) pencil = null;
    setPencil(pencil);
  }
}

function drawSensors(s) {
  const g = $("sensor-grid");
  if (!g.children.length) for (let i = 0; i < 64; i++) g.appendChild(document.createElement("div"));
  for (let r = 7, i = 0; r >= 0; r--) {
    for (let f = 0; f < 8; f++, i++) {
      const c = r * 8 + f;
      const d = g.children[i];
      const occ = s.sensors.occupancy[c], raw = s.sensors.raw[c];
      d.innerHTML = `<span class="${raw !== occ ? "chatter" : ""}">${raw ? "●" : "○"}</span><span class="${occ ? "occ" : ""}">${occ ? "●" : "○"}</span> ${READINGS[s.sensors.readings[c]] || "?"}<br>#${s.sensors.ids[c]}`;
      d.title = `${cellName(c)}: reed ${raw ? "closed" : "open"} (raw), ${occ ? "a piece" : "no piece"} after the debounce; tile read ${READINGS[s.sensors.readings[c]]}, serial ${s.sensors.ids[c]}`;
    }
  }
  const bo = $("bounce"), mi = $("misread"), su = $("supply");
  if (document.activeElement !== su) su.value = s.supply;
  if (document.activeElement !== bo) bo.value = s.sensors.bounce_ms;
  if (document.activeElement !== mi) mi.value = s.sensors.misread;
  $("bounce-out").textContent = s.sensors.bounce_ms;
  $("misread-out").textContent = s.sensors.misread;
}

function escapeHtml(t) {
  return String(t).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
}

// --- the board's sounds: its buzzer's tones, played with the Web Audio API --------
// The state carries the last sound the board played: an id (each played once,
// never one that came before the page), its tones [hz, ms] (0 Hz a rest: the
// firmware's own, vortex/app/sounds.py) and the volume. A square wave, as the
// buzzer's PWM makes; soft is 14 dB under loud, as the PWM's duty makes it
// (vortex/hal/buzzer.py). Browsers start audio only after a click or a key.
const GAINS = { soft: 0.03, loud: 0.15 };
const RAMP_S = 0.004; // no click at a tone's ends
let audio = null;
let heard = null; // the last sound id heard (null: none yet, the first state sets it)

function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function hear(sound) {
  const id = sound ? sound.id : 0;
  if (heard === null || id <= heard) { heard = Math.max(heard || 0, id); return; }
  heard = id;
  const ctx = unlockAudio();
  if (!ctx || !GAINS[sound.volume]) return;
  const gain = GAINS[sound.volume];
  let t = ctx.currentTime + 0.01;
  for (const [hz, ms] of sound.notes) {
    const end = t + ms / 1000;
    if (hz) {
      const osc = ctx.createOscillator();
      const g = ctx.createGain();
      osc.type = "square";
      osc.frequency.setValueAtTime(hz, t);
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(gain, t + RAMP_S);
      g.gain.setValueAtTime(gain, end - RAMP_S);
      g.gain.linearRampToValueAtTime(0, end);
      osc.connect(g);
      g.connect(ctx.destination);
      osc.start(t);
      osc.stop(end);
    }
    t = end;
  }
  vortex.sounds.push(sound.name);
}

// --- hands ------------------------------------------------------------------------
function heldIndex() {
  if (!state || !state.hand.length) return -1;
  return selected < 0 ? state.hand.length - 1 : selected;
}

// A click on a cell: put down what is held where it fits; otherwise pick up
// what is there (a second thing is held with the first).
function clickCell(c, tileOnly = false) {
  if (!state) return;
  if (viewing) { stopViewing(); return; }
  const i = heldIndex();
  const piece = state.pieces[c], tile = state.tiles[c];
  if (pencil) {
    const p = pencil;
    setPencil(null);
    return p.terrain ? send("lay", { terrain: p.terrain, cell: cellName(c) })
      : send("from-tray", { piece: p.piece, cell: cellName(c) });
  }
  if (tileOnly) return send("lift", { cell: cellName(c), tile: true });
  if (i >= 0) {
    const h = state.hand[i];
    const fits = h[0] === "piece" ? !piece : !tile;
    if (fits) { selected = -1; return send("put", { cell: cellName(c), item: i }); }
  }
  if (piece || tile) { selected = -1; return send("lift", { cell: cellName(c) }); }
  return banner("Nothing to pick up on " + cellName(c));
}

function setPencil(p) {
  pencil = p;
  document.querySelectorAll("#pool .chip, #tray .chip").forEach((b) => {
    b.classList.toggle("sel", !!p && (b.dataset.terrain === p.terrain && !!p.terrain || b.dataset.piece === p.piece && !!p.piece));
  });
}

function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const cell = el && el.closest(".cell");
  return cell ? cellIndex(cell.dataset.cell) : -1;
}
// The shelves a held thing can be set down on: beside the board, the tile box.
function shelfAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.closest("#tray-shelf, #pool-shelf");
}
function setAside(item) {
  selected = -1;
  return send("aside", { item });
}
const cellIndex = (name) => FILES.indexOf(name[0]) + 8 * (Number(name.slice(1)) - 1);

let drag = null;
function onPointerDown(ev) {
  if (ev.button !== 0 && ev.pointerType === "mouse") return;
  const cellEl = ev.target.closest(".cell");
  const boxEl = ev.target.closest("#pool .chip, #tray .chip, #hand .chip");
  if (!cellEl && !boxEl) return;
  drag = { x: ev.clientX, y: ev.clientY, from: cellEl ? cellIndex(cellEl.dataset.cell) : -1,
           box: boxEl, moved: false, shift: ev.shiftKey, ghost: null, over: -1 };
  if (cellEl) { cursor = drag.from; }
  ev.preventDefault();
}

function onPointerMove(ev) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 6) {
    const src = drag.box ? null : cells[drag.from];
    if (src && src.piece.hidden && src.tile.hidden) { drag = null; return; }
    drag.moved = true;
    const g = (drag.box || (!src.piece.hidden && !drag.shift ? src.piece : src.tile)).cloneNode(true);
    g.hidden = false;
    g.classList.add("ghost");
    const size = cells[0].el.getBoundingClientRect().width * 0.8;
    g.style.width = g.style.height = size + "px";
    g.style.inset = "auto";
    document.body.appendChild(g);
    drag.ghost = g;
  }
  if (drag.moved) {
    drag.ghost.style.left = ev.clientX + "px";
    drag.ghost.style.top = ev.clientY + "px";
    const over = cellAt(ev.clientX, ev.clientY);
    if (over !== drag.over) {
      if (drag.over >= 0) cells[drag.over].el.classList.remove("drag-over");
      if (over >= 0) cells[over].el.classList.add("drag-over");
      drag.over = over;
    }
  }
}

async function onPointerUp(ev) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  if (d.over >= 0) cells[d.over].el.classList.remove("drag-over");
  if (d.box && d.box.dataset.item !== undefined) { // a held thing: chosen, or carried to a cell or aside
    const item = Number(d.box.dataset.item);
    if (!d.moved) { selected = item; return drawHands(state); }
    const to = cellAt(ev.clientX, ev.clientY);
    if (to >= 0) { selected = -1; send("put", { cell: cellName(to), item }); }
    else if (shelfAt(ev.clientX, ev.clientY)) setAside(item);
    return;
  }
  const boxed = d.box && (d.box.dataset.terrain ? { terrain: d.box.dataset.terrain } : { piece: d.box.dataset.piece });
  if (!d.moved) {
    if (boxed) return setPencil(pencil && JSON.stringify(pencil) === JSON.stringify(boxed) ? null : boxed);
    return clickCell(d.from, d.shift || ev.shiftKey);
  }
  const to = cellAt(ev.clientX, ev.clientY);
  if (to < 0) return;
  if (viewing) return stopViewing();
  if (boxed) { setPencil(boxed); return clickCell(to); }
  send("move", { from: cellName(d.from), to: cellName(to), tile: d.shift });
}

// --- buttons A and B: down while held, as on the board -------------------------
function setButton(which, down) {
  for (const k of which === "ab" ? ["a", "b"] : [which]) buttons[k] = down;
  $("btn-a").classList.toggle("down", buttons.a);
  $("btn-b").classList.toggle("down", buttons.b);
  send("button", { a: buttons.a ? 1 : 0, b: buttons.b ? 1 : 0 });
}

// --- history -----------------------------------------------------------------------
async function view(ply) {
  const a = await send("view", { ply });
  if (a.error) return;
  viewing = { ply, tiles: a.tiles, pieces: a.pieces };
  const v = $("viewing");
  v.hidden = false;
  v.innerHTML = `The position after ${escapeHtml(state.actions[ply - 1])} (action ${ply}) — <button type="button" id="live">back to the board</button>`;
  $("live").onclick = stopViewing;
  draw(state);
}
function stopViewing() {
  viewing = null;
  $("viewing").hidden = true;
  draw(state);
}

// --- wiring ---------------------------------------------------------------------------
function wire() {
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", () => { if (drag && drag.ghost) drag.ghost.remove(); drag = null; });

  document.querySelectorAll(".hw").forEach((b) => {
    b.addEventListener("pointerdown", (ev) => { ev.preventDefault(); b.setPointerCapture(ev.pointerId); setButton(b.dataset.btn, true); });
    const up = () => { if (b.dataset.btn === "ab" ? buttons.a || buttons.b : buttons[b.dataset.btn]) setButton(b.dataset.btn, false); };
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("lostpointercapture", up);
  });
  window.addEventListener("blur", () => { if (buttons.a || buttons.b) setButton("ab", false); });

  $("actions").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-ply]");
    if (b) view(Number(b.dataset.ply));
  });
  $("act-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const a = await send("act", { action: $("act-text").value });
    if (!a.error) $("act-text").value = "";
  });
  $("carry").onclick = () => send("act", {});
  $("aside").onclick = () => { const i = heldIndex(); if (i >= 0) setAside(i); };
  // A click on the shelf beside the board (not on a piece there) sets the held piece down on it.
  $("tray-shelf").addEventListener("click", (ev) => {
    const i = heldIndex();
    if (i >= 0 && !ev.target.closest(".chip") && state.hand[i][0] === "piece") setAside(i);
  });
  $("banner").onclick = clearBanner;
  $("tidy").onclick = () => send("tidy", {});
  $("takeback").onclick = () => send("takeback", {});
  $("mode").onchange = () => send("set", { name: "ai", value: $("mode").value });
  $("ai-level").onchange = () => send("set", { name: "level", value: $("ai-level").value });
  $("new-game").onclick = () => {
    if (!leaveGame()) return;
    stopViewingQuiet();
    send("new", {});
  };
  $("copy-pos").onclick = async () => {
    const text = state.position;
    try { await navigator.clipboard.writeText(text); banner("Position copied.", true); }
    catch (e) { $("position").select(); document.execCommand("copy"); banner("Position selected: copy it with Ctrl+C.", true); }
  };
  $("load-pos").onclick = () => {
    if (!leaveGame()) return;
    stopViewingQuiet();
    send("new", { position: $("position").value });
  };
  $("save-rec").onclick = saveRecord;
  $("load-rec").onchange = loadRecord;
  $("sensor-toggle").onchange = () => { $("sensors").hidden = !$("sensor-toggle").checked; if (state) drawSensors(state); };
  $("bounce").onchange = () => send("sensors", { bounce_ms: Number($("bounce").value) });
  $("misread").onchange = () => send("sensors", { misread: Number($("misread").value) });
  $("supply").onchange = () => send("sensors", { supply: $("supply").value });
  $("volume").onchange = () => send("set", { name: "volume", value: $("volume").value });
  for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, unlockAudio, { once: true });
  $("board").addEventListener("keydown", onKey);
  document.addEventListener("keyup", onKeyUp);
}

// A game under way is not thrown away by a slip of the mouse.
function leaveGame() {
  return !state || !state.actions.length || state.result ||
    window.confirm(`Leave this game (${state.actions.length} actions)? Save its record first to keep it.`);
}

function stopViewingQuiet() { if (viewing) { viewing = null; $("viewing").hidden = true; } }

async function saveRecord() {
  let r;
  try { r = await fetch("/api/record"); } catch (e) { return banner("The simulator does not answer."); }
  const text = await r.text();
  if (!r.ok) return banner(JSON.parse(text).error);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = "vortex-game.txt";
  a.click();
  URL.revokeObjectURL(a.href);
}

async function loadRecord(ev) {
  const f = ev.target.files[0];
  ev.target.value = "";
  if (!f) return;
  if (f.size > 512 * 1024) return banner("That file is too large to be a game record.");
  if (!leaveGame()) return;
  stopViewingQuiet();
  const a = await send("record", { text: await f.text() });
  if (!a.error) banner(`Game record loaded: ${a.actions} actions.`, true);
}

const ARROWS = { ArrowUp: 8, ArrowDown: -8, ArrowLeft: -1, ArrowRight: 1 };
function onKey(ev) {
  if (!state || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k in ARROWS) {
    const d = ARROWS[k];
    const n = cursor + d;
    if (n >= 0 && n < 64 && (Math.abs(d) === 8 || (n >> 3) === (cursor >> 3))) cursor = n;
    draw(state);
  } else if (k === "Home") {
    cursor = 0;
    draw(state);
  } else if (k === " " || k === "Enter") {
    clickCell(cursor);
  } else if (k === "t" || k === "T") {
    clickCell(cursor, true);
  } else if ("wfeaWFEA".includes(k) && k.length === 1) {
    send("lay", { terrain: k.toUpperCase(), cell: cellName(cursor) });
  } else if (k >= "1" && k <= "9") {
    if (Number(k) <= state.hand.length) { selected = Number(k) - 1; drawHands(state); }
  } else if (k === "x" || k === "X" || k === "Delete" || k === "Backspace") {
    const i = heldIndex();
    if (i >= 0) setAside(i);
  } else if (k === "Escape") {
    setPencil(null);
  } else if (k === "," || k === ".") {
    if (!ev.repeat) setButton(k === "," ? "a" : "b", true);
  } else return;
  ev.preventDefault();
}
function onKeyUp(ev) {
  if (ev.key === "," && buttons.a) setButton("a", false);
  if (ev.key === "." && buttons.b) setButton("b", false);
}

async function showVersion() {
  try {
    $("version").textContent = (await (await fetch("/api/version")).json()).version;
  } catch (e) { /* the page works without it */ }
}

build();
wire();
connect();
showVersion();
