"""Online play on the host (docs/online.md): the MQTT connection (paho-mqtt),
the brokers for tests and local games, and the bridges from the room's
protocol (firmware/vortex/online) to the page, the terminal, a board on USB
and a spectator. The protocol and the engine decide; nothing here does."""
