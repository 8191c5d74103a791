"""Play online: boards, the page and the terminal meet through an MQTT
broker, a room per game (docs/online.md). Pure code shared by the board
(umqtt.simple) and the host (paho-mqtt), one copy:

    sign.py       HMAC-SHA256 (RFC 2104) over hashlib.sha256; seat keys and proofs
    protocol.py   topics and messages: encode, decode, bounds, ProtocolError
    room.py       a room's game: numbered actions applied once, the rest refused
                  with a reason; the engine arbitrates

The board's client (network, settings) is in client.py and settings.py.
"""
