// The tests' stand-in for Web Serial (navigator.serial), injected before the
// board's page loads (tests/test_web_board.py): its port carries the bytes
// over a WebSocket to tests/web_serial_bridge.py, which holds the board's
// serial port (the virtual board's pseudo-terminal, the emulated Pico's USB).
// The page's own code runs as users run it; only the port is this one.
// A closed WebSocket is a pulled cable ("disconnect"); the bridge taking
// connections again is the cable back ("connect").
(() => {
  const url = window.VORTEX_SERIAL_URL;
  const listeners = { connect: [], disconnect: [] };
  const lostError = () => new DOMException("The device has been lost.", "NetworkError");
  const fire = (type, target) => {
    const ev = new Event(type);
    Object.defineProperty(ev, "target", { value: target });
    for (const f of listeners[type]) f(ev);
  };
  let watching = 0;
  const watch = () => {
    if (watching) return;
    watching = setInterval(() => {
      const ws = new WebSocket(url + "probe");
      ws.onopen = () => { ws.close(); clearInterval(watching); watching = 0; fire("connect", port); };
      ws.onerror = () => {};
    }, 300);
  };
  const port = {
    ws: null, readable: null, writable: null, ctl: null,
    async open() {
      if (this.ws) throw new DOMException("The port is already open.", "InvalidStateError");
      const ws = new WebSocket(url);
      ws.binaryType = "arraybuffer";
      await new Promise((res, rej) => {
        ws.onopen = res;
        ws.onerror = () => rej(new DOMException("Failed to open serial port.", "NetworkError"));
      });
      this.ws = ws;
      const self = this;
      this.readable = new ReadableStream({ start(c) {
        self.ctl = c;
        ws.onmessage = (e) => c.enqueue(new Uint8Array(e.data));
        ws.onclose = () => {
          self.ws = null;
          try { c.error(lostError()); } catch (e) { /* done */ }
          fire("disconnect", port);
          watch();
        };
      } });
      this.writable = new WritableStream({ write(chunk) {
        if (ws.readyState !== WebSocket.OPEN) throw lostError();
        ws.send(chunk);
      } });
    },
    async close() {
      const ws = this.ws;
      this.ws = null;
      if (ws) { ws.onclose = null; ws.close(); }
      try { this.ctl.close(); } catch (e) { /* done */ }
    },
  };
  window.vortexSerial = {
    requestPort: async () => port,
    getPorts: async () => [],
    addEventListener: (t, f) => listeners[t].push(f),
  };
})();
