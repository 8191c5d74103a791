// Replays a link transcript through the page's LinkHost (host_sim/web/board/link.js)
// for tests/test_web_link.py: stdin, JSON [["send", command] | ["recv", line]];
// stdout, JSON [[seq, kind, rest, command or null]...] in the order of the lines.
"use strict";
const { LinkHost } = require(process.argv[2]);
const steps = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = [];
const link = new LinkHost(() => {}, { event: (kind, rest) => out.push([link.seq, kind, rest, null]) }, 1e9);
const pending = [];
for (const [what, text] of steps) {
  if (what === "send") {
    pending.push(link.ask(text).then((a) => {
      a.lines.forEach((l, i) => out.push([a.seq - a.lines.length + i, "record", l, null]));
      out.push([a.seq, a.kind, a.rest, a.command.split(" ")[0].toLowerCase()]);
    }));
  } else link.feed(text + "\n");
}
link.fail(new Error("end"));
Promise.allSettled(pending).then(() => {
  out.sort((a, b) => a[0] - b[0]);
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
});
