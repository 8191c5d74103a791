// The board's own page: a Vortex board on USB, over Web Serial, and online
// play over MQTT on WebSockets. The link's lines are read by link.js; the
// game is kept by the firmware's own engine, and online play is the
// firmware's own client, both running here under MicroPython's WebAssembly
// port (page.py). This file draws and wires: no rule and no protocol here.
"use strict";

const $ = (id) => document.getElementById(id);
// Exposed for the tests and the benchmark.
const vortex = (window.vortex = { view: null, lifts: [], drawn: 0, ready: null, py: null, status: {} });

// Colours of the board's LEDs (README's table) for what the page knows the
// board shows: the lifted piece's cell and where it may go, the action it
// asks for, the last action.
const LED = { lifted: [200, 200, 200], dest: [0, 170, 0], asks: [0, 160, 170], last: [210, 120, 0] };
const VERDICTS = {
  agree: "the board agrees with the game", hand: "a piece in hand", wait: "an action under way",
  illegal: "an action the rules do not allow: put it back as the LEDs show",
  disagree: "put the board back as the LEDs show", "not-asked": "not the action the board asks for: put it back as the LEDs show",
};
const SUPPLIES = { none: "no USB-C source", usb: "default USB", "1.5a": "USB-C 1.5 A", "3a": "USB-C 3 A", "-": "not read" };
const TIMEOUT_MS = 3000;

let link = null; // LinkHost while connected
let following = false; // the board's game read: the online client may pass
let port = null; // the serial port chosen
let py = null; // page.py's functions, once MicroPython is up
let view = null; // the game as page.py reads it
let online = null;
const board = { verdict: "", lift: null, clock: null, result: "*", power: null, settings: {}, firmware: "" };
const messages = [];

// --- MicroPython: the firmware's engine, records and online client -------------
const net = []; // MQTT connections of the online client (page_mqtt.py's pagenet)
const pagenet = {
  open(id, host, port, tls, user, password, keepalive, clean, willTopic, willPayload, willRetain, willQos) {
    const st = { client: null, failed: "", up: false, inbox: [] };
    net.push(st);
    if (typeof mqtt === "undefined") { st.failed = "this page lacks its MQTT library (make web)"; return net.length - 1; }
    const opts = { clientId: id, keepalive, clean, reconnectPeriod: 0, connectTimeout: 2000, protocolVersion: 4 };
    if (user) { opts.username = user; opts.password = password; }
    if (willTopic) opts.will = { topic: willTopic, payload: willPayload, retain: willRetain, qos: willQos };
    try {
      const c = mqtt.connect(`${tls ? "wss" : "ws"}://${host}:${port}/mqtt`, opts);
      st.client = c;
      c.on("connect", () => { st.up = true; });
      c.on("message", (t, p) => st.inbox.push([t, p.toString()]));
      c.on("error", (e) => { st.failed = st.failed || String(e && e.message || e); });
      c.on("close", () => { st.failed = st.failed || (st.up ? "the broker closed the connection" : "cannot reach the broker"); });
    } catch (e) { st.failed = String(e.message || e); }
    return net.length - 1;
  },
  failed(h) { return net[h].failed; },
  publish(h, t, p, retain, qos) { net[h].client.publish(t, p, { retain, qos }); },
  subscribe(h, t, qos) { net[h].client.subscribe(t, { qos }); },
  take(h) { return net[h].inbox.shift() || null; },
  end(h, graceful) {
    const st = net[h];
    st.failed = st.failed || "closed";
    if (st.client) st.client.end(!graceful);
  },
};
// MQTT.js is loaded when online play is first asked for: a page that only
// follows its board never parses it.
let mqttLoading = null;
function loadMqtt() {
  if (typeof mqtt !== "undefined") return Promise.resolve();
  mqttLoading = mqttLoading || new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = "vendor/mqtt.min.js";
    s.onload = resolve;
    s.onerror = () => { mqttLoading = null; reject(new Error("this page lacks its MQTT library (make web)")); };
    document.head.appendChild(s);
  });
  return mqttLoading;
}

// While a connection is being made the client is not passed (as a board's
// pass waits in its connect): it sees the broker's answer, or the failure.
const connecting = () => net.some((st) => st.client && !st.up && !st.failed);

function clientId() {
  // A tab's own id, kept across a reload (its broker session), new for a new tab.
  let id = sessionStorage.getItem("vortex-client");
  if (!id) {
    id = "web-" + Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("vortex-client", id);
  }
  return id;
}

async function loadPython() {
  const t0 = performance.now();
  const { loadMicroPython } = await import("./vendor/micropython.mjs");
  const mp = await loadMicroPython({ url: new URL("vendor/micropython.wasm", location.href).href, heapsize: 4 << 20,
    stdout: (l) => say(l), stderr: (l) => say(l) });
  const names = await (await fetch("py/manifest.json")).json();
  const datas = await Promise.all(names.map(async (n) => new Uint8Array(await (await fetch("py/" + n)).arrayBuffer())));
  names.forEach((n, i) => {
    let p = "";
    for (const d of ("py/" + n).split("/").slice(0, -1)) { p += "/" + d; try { mp.FS.mkdir(p); } catch (e) { /* there */ } }
    mp.FS.writeFile("/" + "py/" + n, datas[i]);
  });
  mp.registerJsModule("pagenet", pagenet);
  mp.runPython("import sys\nsys.path.insert(0, '/py')\nimport page");
  const page = mp.pyimport("page");
  const store = {
    load: () => localStorage.getItem("vortex-online"),
    save: (t) => localStorage.setItem("vortex-online", t),
  };
  if (store.load()) await loadMqtt().catch((e) => say(e.message)); // online play kept on
  const cache = { // the rooms' games, each as the page last verified it (page.py's _Cache)
    load: (key) => localStorage.getItem(key),
    save: (key, t) => localStorage.setItem(key, t),
  };
  page.start((line) => send(line), (line) => say(line), store, clientId(), cache);
  vortex.pythonMs = performance.now() - t0;
  vortex.py = page;
  py = page;
  return page;
}

// --- the link ----------------------------------------------------------------------
const serial = window.vortexSerial || navigator.serial; // (the tests give a stand-in)

function send(line) {
  // A command of the page's Python (a request, a game given whole, a takeback).
  if (!link) return;
  link.ask(line).then((a) => {
    if (a.kind === "error") { py.refused(line, a.rest); redraw(); }
  }).catch(() => {});
}

async function choose() {
  try {
    port = await serial.requestPort();
  } catch (e) {
    return; // no port chosen: nothing to say
  }
  await open();
}

let opening = false;
async function open() {
  if (opening || !port) return;
  opening = true;
  setLink("connecting…", "waiting");
  try {
    await port.open({ baudRate: 115200 });
  } catch (e) {
    opening = false;
    setLink("cannot open the port", "down");
    return banner(`The board's port cannot be opened (${e.message}). Is another program (mpremote, a terminal) using it?`);
  }
  const writer = port.writable.getWriter();
  const encoder = new TextEncoder();
  link = new LinkHost((text) => writer.write(encoder.encode(text)), {
    event: onEvent, lost: (n) => say(`(${n} messages from the board were lost)`),
  }, TIMEOUT_MS);
  read(port, link, writer);
  try {
    await ready;
    await link.sync();
    const hello = await link.ask("hello");
    const words = hello.rest.split(" ");
    if (hello.kind !== "ok" || words[1] !== "vortex-link" || words[2] !== "2") throw new LinkError(`the board answers "${hello.rest}", not vortex-link 2`);
    board.firmware = words[4] || "of unknown version";
    $("version").textContent = board.firmware;
    await link.ask("subscribe all");
    await settingsNow();
    const power = await link.ask("power");
    board.power = power.kind === "ok" ? power.rest.split(" ") : null;
    await readRecord();
    following = true;
    vortex.connectedMs = performance.now();
    setLink("connected", "ok");
    document.body.classList.remove("disconnected");
    draw();
    say(`connected to the board, firmware ${board.firmware}`);
  } catch (e) {
    setLink("the board does not answer", "down");
    banner(`${e.message}. Nothing is lost: the game is the board's. Reconnecting when it answers…`, false, "link");
    await close();
    setTimeout(open, 2000); // a board still booting, busy, or not ours: tried again
  } finally {
    opening = false;
  }
}

async function read(p, l, writer) {
  const reader = p.readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value) l.feed(value);
    }
  } catch (e) { /* the port went away */ }
  try { reader.releaseLock(); } catch (e) { /* gone */ }
  try { writer.releaseLock(); } catch (e) { /* gone */ }
  if (link === l) lost();
}

function lost() {
  following = false;
  const l = link;
  link = null;
  if (l) l.fail(new LinkError("the board went away"));
  document.body.classList.add("disconnected");
  draw();
  setLink("board unplugged: waiting for it", "down");
  banner("The board is gone (its cable?). Nothing is lost: the game is on the board. Plug it back in: the page reconnects.", false, "link");
  close();
}

async function close() {
  following = false;
  const l = link;
  link = null;
  if (l) l.fail(new LinkError("closed"));
  try { await port.close(); } catch (e) { /* already */ }
}

async function settingsNow() {
  const s = await link.ask("settings");
  if (s.kind !== "ok") return;
  const text = s.rest.replace(/^settings /, "");
  for (const w of text.split(" ")) {
    const [k, v] = w.split("=");
    board.settings[k] = v;
  }
  py.settings(text);
  redraw();
}

async function readRecord() {
  const r = await link.ask("record");
  if (r.kind !== "ok") return say("record: " + r.rest);
  const a = JSON.parse(py.record(r.lines.join("\n") + "\n"));
  if (a.error) say("the board's record does not read: " + a.error);
  redraw();
}

function onEvent(kind, rest) {
  const words = rest.split(" ");
  if (kind === "verdict") board.verdict = words[0];
  else if (kind === "lift") { board.lift = words; vortex.lifts.push({ cell: words[0], at: performance.now(), drawn: 0 }); }
  else if (kind === "clock") board.clock = [Number(words[0]), Number(words[1])];
  else if (kind === "result") board.result = rest;
  if (kind === "verdict" && words[0] !== "hand") board.lift = null;
  if (py && ["action", "takeback", "new", "asks"].includes(kind)) {
    if (py.event(kind, rest) === "resync" && link) readRecord().catch(() => {});
  }
  redraw();
}

// --- drawing -------------------------------------------------------------------------
let drawPending = false;
function redraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => { drawPending = false; draw(); });
}

const cellsOf = (text) => (text.match(/[a-h][1-8]/g) || []).map((n) => FILES.indexOf(n[0]) + 8 * (Number(n[1]) - 1));

function draw() {
  if (py) {
    const v = py.view(true);
    if (v) { const s = JSON.parse(v); view = s.game; online = s.online; }
  }
  vortex.view = view;
  const leds = Array.from({ length: 64 }, () => [0, 0, 0]);
  if (view) {
    const last = view.actions[view.actions.length - 1];
    if (last) for (const c of cellsOf(last)) leds[c] = LED.last;
    if (view.pending) for (const c of cellsOf(view.pending)) leds[c] = LED.asks;
  }
  const lifted = board.lift ? cellsOf(board.lift[0])[0] : -1;
  if (board.lift) for (const c of cellsOf(board.lift.slice(1).join(" "))) leds[c] = LED.dest;
  if (lifted >= 0) leds[lifted] = LED.lifted;
  for (let c = 0; c < 64; c++) {
    drawCell(c, view ? view.tiles[c] : 0, view ? view.pieces[c] : 0, leds[c]);
    cells[c].piece.classList.toggle("lifted", c === lifted);
  }
  const t = performance.now();
  for (const l of vortex.lifts) if (!l.drawn && lifted >= 0 && cellName(lifted) === l.cell) l.drawn = t;
  $("hand").textContent = lifted >= 0 && view && view.pieces[lifted]
    ? `In the hand: ${sideOf(view.pieces[lifted])} ${KINDS[view.pieces[lifted] & 3]} from ${cellName(lifted)}, it may go to ${board.lift.slice(1).join(" ") || "nowhere"}` : "";
  if (view) {
    const over = view.result;
    $("turn").textContent = over ? "Game over" : `${view.side === "light" ? "Light" : "Dark"} to act`;
    $("turn-dot").style.background = view.side === "light" ? "var(--light-piece)" : "var(--dark-piece)";
    $("phase").textContent = view.building ? "Building: lay the tiles" : "Battle";
    $("pending").hidden = !view.pending;
    $("pending").textContent = view.pending ? `The board asks: ${view.pending}` : "";
    $("result").hidden = !over;
    if (over) $("result").textContent = `${over.winner} (${over.reason})`;
    $("pools").textContent = view.pool.map((n, i) => `${TERRAINS[i + 1]} ${n}`).join("  ");
    $("vortexes").textContent = `Light ${view.vortexes[0]} · Dark ${view.vortexes[1]}`;
    $("quiet").textContent = `${view.quiet} of 80`;
    drawActions(view.actions);
  }
  $("verdict").textContent = VERDICTS[board.verdict] || board.verdict;
  $("verdict").className = "verdict" + (["illegal", "disagree", "not-asked"].includes(board.verdict) ? " bad" : "");
  const fmt = (ms) => `${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}`;
  $("clocks").textContent = board.clock ? `Light ${fmt(board.clock[0])} · Dark ${fmt(board.clock[1])}` : "off";
  const p = board.power;
  $("power").textContent = p ? `${SUPPLIES[p[1]] || p[1]}: LEDs up to ${p[3]} mA, budget ${p[5]} mA` : "";
  // Nothing here acts without a board: before the first connection the
  // settings are blank (not a select's first option, which the board may not
  // have), and while it is away they show what it had, greyed.
  for (const el of document.querySelectorAll("[data-setting]")) {
    const v = board.settings[el.dataset.setting];
    if (v === undefined) el.selectedIndex = -1;
    else if (document.activeElement !== el) el.value = v;
    el.disabled = !link;
  }
  for (const id of BOARD_CONTROLS) $(id).disabled = !link;
  drawOnline();
  vortex.drawn++;
}

const BOARD_CONTROLS = ["hint", "takeback", "new-game", "save-rec", "load-rec"];

function drawActions(actions) {
  const ol = $("actions");
  const key = actions.join(" ");
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  ol.innerHTML = actions.map((a, i) => (i % 2 === 0 ? `<span class="n">${i / 2 + 1}.</span>` : "") + `<span class="act">${a}</span>`).join("");
  ol.scrollTop = ol.scrollHeight;
}

function drawOnline() {
  const el = $("online");
  vortex.online = online;
  el.hidden = !online;
  if (!online) return;
  const them = online.opponent === null ? "waiting for an opponent" : online.opponent ? "your opponent is here" : "your opponent is gone";
  const game = online.state === "up" && online.actions !== null; // (else its status says what it awaits)
  el.textContent = game ? `room ${online.room}: you play ${online.seat}; ${them}` : `room ${online.room}: ${online.status}`;
  el.className = "link online " + (game && online.opponent ? "ok" : game ? "" : "down");
}

function setLink(text, kind) {
  const l = $("link");
  l.textContent = text;
  l.className = "link " + kind;
  vortex.status.link = text;
  if (kind === "ok" && $("banner").dataset.kind === "link") $("banner").hidden = true;
}

let bannerTimer = 0;
function banner(text, info = false, kind = "msg") {
  const b = $("banner");
  b.textContent = text;
  b.className = "banner" + (info ? " info" : "");
  b.dataset.kind = kind;
  b.hidden = false;
  clearTimeout(bannerTimer);
  if (kind !== "link") bannerTimer = setTimeout(() => { b.hidden = true; }, 6000);
}

function say(line) {
  messages.push(line);
  if (messages.length > 200) messages.shift();
  const ul = $("messages");
  const li = document.createElement("li");
  li.textContent = line;
  ul.appendChild(li);
  while (ul.children.length > 200) ul.firstChild.remove();
  ul.scrollTop = ul.scrollHeight;
}

// --- what the page asks of the board -------------------------------------------------
async function command(line) {
  if (!link) return banner("Connect the board first.");
  try {
    const a = await link.ask(line);
    if (a.kind === "error") banner(`The board says: ${a.rest}`);
    return a;
  } catch (e) { return banner(e.message); }
}

async function saveRecord() {
  if (!link || !py) return banner("Connect the board first.");
  const r = await link.ask("record").catch((e) => ({ kind: "error", rest: e.message }));
  if (r.kind !== "ok") return banner(r.rest);
  const d = new Date();
  const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, "0")}.${String(d.getDate()).padStart(2, "0")}`;
  const a = JSON.parse(py.save_record(r.lines.join("\n") + "\n", date));
  if (a.error) return banner(a.error);
  const el = document.createElement("a");
  el.href = URL.createObjectURL(new Blob([a.ok], { type: "text/plain" }));
  el.download = "vortex-game.txt";
  el.click();
  URL.revokeObjectURL(el.href);
}

async function loadRecord(ev) {
  const f = ev.target.files[0];
  ev.target.value = "";
  if (!f) return;
  if (!link || !py) return banner("Connect the board first.");
  if (f.size > 512 * 1024) return banner("That file is too large to be a game record.");
  if (view && view.actions.length && !view.result &&
      !window.confirm(`Leave the board's game (${view.actions.length} actions)? Save its record first to keep it.`)) return;
  const a = JSON.parse(py.load_record(await f.text()));
  if (a.error) return banner(`Not a game record: ${a.error}`);
  banner(`Game record loaded on the board: ${a.ok} actions. Set the board as its LEDs show.`, true);
  redraw();
}

async function joinOnline(ev) {
  ev.preventDefault();
  if (!py) return banner("The page is still loading.");
  try { await loadMqtt(); } catch (e) { return banner(e.message); }
  const m = /^(wss?):\/\/([^/:]+)(?::(\d+))?\/?$/.exec($("on-broker").value.trim());
  if (!m) return banner("Broker: ws://HOST:PORT or wss://HOST:PORT (its WebSockets listener)");
  const esc = (t) => encodeURIComponent(t).replace(/[!'()*~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()) || "-";
  const words = [["broker", `${m[2]}:${m[3] || (m[1] === "wss" ? 443 : 80)}`], ["tls", m[1] === "wss" ? "on" : "off"],
    ["room", $("on-room").value.trim()], ["side", $("on-side").value], ["secret", esc($("on-secret").value)],
    ["user", esc($("on-user").value)], ["password", esc($("on-password").value)]];
  for (const [k, v] of words) {
    const a = JSON.parse(py.online([k, v]));
    if (a.error) return banner(a.error);
  }
  const a = JSON.parse(py.online(["on"]));
  if (a.error) return banner(a.error);
  redraw();
}

function leaveOnline() {
  if (py) py.online(["off"]);
  redraw();
}

// --- wiring --------------------------------------------------------------------------
const ready = loadPython().catch((e) => {
  say("The page's Python did not start: " + e.message);
  banner("The page could not load its engine (" + e.message + "): build it with make web.");
  throw e;
});

function wire() {
  buildBoard($("board"), document.querySelector(".top-files"), document.querySelector(".ranks"));
  draw();
  vortex.firstDrawMs = performance.now();
  if (!serial) {
    const el = $("no-serial");
    el.hidden = false;
    el.innerHTML = "This browser cannot talk to a board over USB (Web Serial is in Chrome and Edge on a computer): " +
      "<a id=\"sim-link\" href=\"../\">play the simulator instead</a>.";
    fetch("../api/version").then((r) => { if (!r.ok) throw new Error(); }).catch(() => {
      el.lastChild.textContent = ". Play the simulator instead: run make play (or vortex play) and open the address it prints.";
      $("sim-link").remove();
    });
    $("connect").disabled = true;
    setLink("no Web Serial here", "down");
  } else {
    $("connect").onclick = choose;
    serial.addEventListener("connect", (ev) => { if (!link && (ev.target === port || !port)) { port = port || ev.target; open(); } });
    serial.addEventListener("disconnect", (ev) => { if (ev.target === port && link) lost(); });
    serial.getPorts().then((ports) => { if (ports.length === 1 && !port) { port = ports[0]; open(); } }).catch(() => {});
  }
  $("hint").onclick = () => command("hint");
  $("takeback").onclick = () => command("takeback");
  $("new-game").onclick = () => {
    if (view && view.actions.length && !view.result && !window.confirm(`Leave this game (${view.actions.length} actions)? Save its record first to keep it.`)) return;
    command("new");
  };
  for (const el of document.querySelectorAll("[data-setting]")) {
    el.onchange = async () => { const a = await command(`set ${el.dataset.setting} ${el.value}`); if (a && a.kind === "ok") await settingsNow(); };
  }
  $("save-rec").onclick = saveRecord;
  $("load-rec").onchange = loadRecord;
  $("online-form").onsubmit = joinOnline;
  $("on-leave").onclick = leaveOnline;
  $("banner").onclick = () => { $("banner").hidden = true; };
  // The online client's passes (and what they change drawn), while the
  // board is followed: away, nothing is asked of it, and its game is read
  // again when it is back.
  setInterval(() => { if (py && following && !connecting()) { const v = py.poll(); if (v) { const s = JSON.parse(v); view = s.game; online = s.online; redraw(); } } }, 50);
}

wire();
