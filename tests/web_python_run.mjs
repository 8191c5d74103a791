// Runs Python under the board's page's MicroPython (make web's vendor/ and
// py/ files in argv[2]) with node, for tests/test_web_python.py: stdin, the
// code; stdout, what it prints.
import fs from "node:fs";
const dir = process.argv[2];
const { loadMicroPython } = await import(dir + "/vendor/micropython.mjs");
const mp = await loadMicroPython({ heapsize: 4 << 20, stdout: (l) => console.log(l), stderr: (l) => console.error(l) });
for (const rel of JSON.parse(fs.readFileSync(dir + "/py/manifest.json"))) {
  let p = "";
  for (const d of ("py/" + rel).split("/").slice(0, -1)) { p += "/" + d; try { mp.FS.mkdir(p); } catch (e) { /* there */ } }
  mp.FS.writeFile("/py/" + rel, fs.readFileSync(dir + "/py/" + rel));
}
mp.registerJsModule("pagenet", {});
try {
  mp.runPython("import sys\nsys.path.insert(0, '/py')\n" + fs.readFileSync(0, "utf8"));
} catch (e) { console.error(e.message); process.exit(1); }
