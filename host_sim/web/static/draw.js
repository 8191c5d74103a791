// The board drawn as it looks (the simulator's page and the board's own
// page both draw it so): each cell's tile, its piece and the LED under it.
// Loaded before the page's own script; what it defines is shared with it.
"use strict";

const FILES = "abcdefgh";
const TERRAINS = ["", "W", "F", "E", "A"];
const TERRAIN_NAMES = ["", "Water", "Fire", "Earth", "Air"];
const SYMBOLS = ["", "≈", "▲", "■", "○", "?"];
const PIECE_LETTERS = ".TSH.tsh";
const KINDS = ["", "Traveller", "Awakened", "Heart"];
const cellName = (c) => FILES[c & 7] + ((c >> 3) + 1);
const sideOf = (code) => (code & 4 ? "dark" : "light");
const cells = [];

function buildBoard(board, files, ranks) {
  for (const f of FILES) files.insertAdjacentHTML("beforeend", `<span>${f}</span>`);
  for (let r = 8; r >= 1; r--) ranks.insertAdjacentHTML("beforeend", `<span>${r}</span>`);
  for (let r = 7; r >= 0; r--) {
    for (let f = 0; f < 8; f++) {
      const c = r * 8 + f;
      const el = document.createElement("div");
      el.className = "cell";
      el.dataset.cell = cellName(c);
      el.setAttribute("role", "gridcell");
      el.innerHTML = '<div class="led"></div><div class="tile" hidden><span class="let"></span><span class="sym"></span><span class="win"></span></div><div class="piece" hidden><span></span></div>';
      const tile = el.children[1];
      cells[c] = { el, led: el.children[0], tile, win: tile.children[2], piece: el.children[2], key: "" };
      board.appendChild(el);
    }
  }
}

// An LED's light as the eye gets it. Its drive values are linear in light
// (a WS2812 is pulse-width modulated): the hue is theirs at full scale,
// sRGB-encoded; its strength the driven level as the eye sees it,
// (value/255)^(1/2.2). The colours are those tests/colour.py measures.
const encode = (x) => Math.round(255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055));
function glow(r, g, b) {
  const m = Math.max(r, g, b);
  if (!m) return null;
  const col = `${encode(r / m)},${encode(g / m)},${encode(b / m)}`;
  const a = Math.pow(m / 255, 1 / 2.2).toFixed(3);
  return { col, a };
}

// Where the LED shows, as on the board (hardware/README.md): through the
// tile's window over it, and in the opal panel around the tile; with no
// tile, all over the panel, so a ring of it shows round a piece.
function light(x, rgb, terrain) {
  const l = glow(...rgb);
  if (!l) {
    x.led.style.background = x.win.style.background = x.win.style.boxShadow = "";
    return;
  }
  const c = `rgba(${l.col},${l.a})`;
  x.led.style.background = terrain ? c
    : `radial-gradient(circle closest-side, ${c} 50%, rgba(${l.col},${(l.a * 0.75).toFixed(3)}) 80%, rgba(${l.col},${(l.a * 0.35).toFixed(3)}) 95%, transparent 100%)`;
  x.win.style.background = `rgb(${l.col})`; // the LED itself; its strength shows in its glow
  x.win.style.boxShadow = `0 0 0 1px ${c}, 0 0 calc(var(--cell) * .12) ${c}`;
}

function drawCell(c, terrain, piece, rgb) {
  const x = cells[c];
  const key = terrain + "/" + piece + "/" + rgb;
  if (x.key === key) return;
  x.key = key;
  const [r, g, b] = rgb;
  x.el.dataset.rgb = rgb.join(",");
  x.el.dataset.tile = TERRAINS[terrain] || (terrain ? "?" : "");
  x.el.dataset.piece = piece ? PIECE_LETTERS[piece] : "";
  light(x, rgb, terrain);
  if (terrain) {
    x.tile.hidden = false;
    x.tile.className = "tile t" + terrain;
    x.tile.children[0].textContent = TERRAINS[terrain] || "?";
    x.tile.children[1].textContent = SYMBOLS[terrain] || "?";
  } else x.tile.hidden = true;
  if (piece) {
    x.piece.hidden = false;
    x.piece.className = `piece ${sideOf(piece)} k${piece & 3}`;
    x.piece.children[0].textContent = PIECE_LETTERS[piece];
  } else x.piece.hidden = true;
  const what = [piece ? `${sideOf(piece)} ${KINDS[piece & 3]}` : "", terrain ? TERRAIN_NAMES[terrain] || "unknown tile" : "no tile"]
    .filter(Boolean).join(" on ");
  x.el.setAttribute("aria-label", `${cellName(c)}: ${what}; LED ${rgb.join(" ")}`);
  x.el.title = `${cellName(c)}: ${what}\nLED R${r} G${g} B${b}`;
}

