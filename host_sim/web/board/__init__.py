"""The board's own page (docs/web.md): static files that talk to a board
over Web Serial and play online over MQTT on WebSockets. Its Python
(linked.py, page_mqtt.py, page.py) runs in the page under MicroPython's
WebAssembly port, beside the firmware's own engine, records and online
code; files.py says which files make the page (make web, vortex play)."""
