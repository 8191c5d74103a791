"""The simulator in the browser: the firmware's board logic on the virtual
board, served to plain HTML/CSS/JS pages (static/) over HTTP and
Server-Sent Events. game.py runs the game; server.py serves it."""
