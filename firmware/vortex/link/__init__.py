"""The host link: the board's protocol over the USB serial (docs/protocol.md).

    link = Link(board)                  # vortex.link.link
    port = StdioPort()                  # vortex.link.port: stdin/stdout, never blocking
    while True:
        board.step(...)
        link.serve(port)                # read what came, answer, send events

lines.py assembles input lines in a fixed buffer, outbox.py keeps what goes
out in a bounded ring with sequence numbers, link.py answers commands and
turns changes of the board into events.
"""
