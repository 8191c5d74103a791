// The host's end of the board's link (docs/protocol.md) over a byte stream:
// lines in, their sequence numbers checked, each answer (`ok`, `error`)
// matched to the command it answers (the board answers every line, in the
// order they came), `record` lines gathered for the `record` asked, the rest
// handed on as events. No game here: the page's Python keeps the game in the
// firmware's engine. The same job as host_sim/link_host.py's BoardPort, and
// tested against the same transcripts (tests/test_web_link.py).
"use strict";

class LinkError extends Error {}

class LinkHost {
  // write(text): sends bytes to the board; on.event(kind, rest), on.lost(n):
  // n lines dropped (a gap in the sequence numbers).
  constructor(write, on = {}, timeoutMs = 3000) {
    this.write = write;
    this.on = on;
    this.timeoutMs = timeoutMs;
    this.partial = "";
    this.seq = null;
    this.waiting = []; // commands sent, not answered yet: {command, resolve, reject, lines, timer}
    this.syncWord = null;
    this.syncDone = null;
    this.decoder = new TextDecoder("ascii");
  }

  // Bytes from the board.
  feed(bytes) {
    const text = this.partial + (typeof bytes === "string" ? bytes : this.decoder.decode(bytes, { stream: true }));
    const lines = text.split("\n");
    this.partial = lines.pop();
    for (const raw of lines) this.line(raw.replace(/\r$/, ""));
  }

  // One line from the board: "<seq> <kind> [rest]".
  line(raw) {
    const m = /^(\d+) (\S+)(?: (.*))?$/.exec(raw.trim());
    if (!m) return; // not the protocol (the REPL's banner, a reset)
    const seq = Number(m[1]), kind = m[2], rest = m[3] || "";
    if (this.seq !== null && seq !== (this.seq + 1) % 1000000 && this.on.lost) {
      this.on.lost((seq - this.seq - 1 + 1000000) % 1000000);
    }
    this.seq = seq;
    if (this.syncWord !== null) { // what came before our ping's answer was for another host
      if (kind === "ok" && rest === "ping " + this.syncWord) {
        this.syncWord = null;
        this.syncDone();
      }
      return;
    }
    const head = this.waiting[0];
    if (kind === "record" && head && head.word === "record") { head.lines.push(rest); return; }
    if ((kind === "ok" || kind === "error") && head) {
      this.waiting.shift();
      clearTimeout(head.timer);
      head.resolve({ kind, rest, lines: head.lines, command: head.command, seq });
      return;
    }
    if (this.on.event) {
      try { this.on.event(kind, rest); } catch (e) { console.error("link event", kind, e); } // the link goes on
    }
  }

  // Send a command; its answer: {kind: "ok"|"error", rest, lines (a record's)}.
  ask(command) {
    return new Promise((resolve, reject) => {
      const entry = { command, word: command.split(" ")[0].toLowerCase(), resolve, reject, lines: [] };
      entry.timer = setTimeout(() => this.fail(new LinkError(`the board does not answer (${entry.word})`)), this.timeoutMs);
      this.waiting.push(entry);
      Promise.resolve(this.write(command + "\n")).catch((e) => this.fail(e));
    });
  }

  // Skip what the board queued before this host: an empty line (it ends a
  // half-written one), a ping with a word of ours, and every line up to its answer.
  sync() {
    this.syncWord = Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, "0");
    const done = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.syncWord = null;
        reject(new LinkError("the board does not answer: is it a Vortex board running its game?"));
      }, this.timeoutMs);
      this.syncDone = () => { clearTimeout(timer); resolve(); };
    });
    Promise.resolve(this.write("\nping " + this.syncWord + "\n")).catch((e) => this.fail(e));
    return done;
  }

  // The link is gone (the cable, a silent board): every command waiting fails.
  fail(error) {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) { clearTimeout(w.timer); w.reject(error); }
  }
}

if (typeof module !== "undefined") module.exports = { LinkHost, LinkError }; // (node: the tests)
