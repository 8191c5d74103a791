"""The board's online settings (vortex/online/settings.py) and the link's
`online` command over them (docs/protocol.md): each setting checked, said
back with its secrets hidden, kept on the board across a restart and a
power cut. No network here: the settings leave online play off or
incomplete (tests/test_online_board.py plays on a real broker).
Dual-run: pytest, and the MicroPython unix port (test_online_micropython.py)."""
from checks import raises
from hal_fake_fs import MemFS, CutFS, PowerCut
from vortex.app.board import Board
from vortex.hal.store import FileStore
from vortex.link.link import Link
from vortex.online.client import Online, OFF
from vortex.online.settings import OnlineSettings, SettingError, escape, unescape, NAMES
from link_pipe import Pipe

PATH = "/online.bin"


def online(fs=None):
    board = Board()
    return board, Online(board, None, FileStore(PATH, fs or MemFS()), clock=lambda: 0,
                         client="vx-0011223344556677")


def test_escapes_round_trip():
    for text in ("Home Net", "caf\u00e9 100%", "a=b", "plain", "tab\there"):
        w = escape(text)
        assert " " not in w and "\t" not in w and unescape(w) == text
    assert unescape("Home%20Net") == "Home Net"
    for bad in ("%2", "%zz", "abc%", "%ff"):
        raises(SettingError, unescape, bad)
    # printable ASCII but the space and % stays as it is; the rest is %XX
    assert escape("!a=b~") == "!a=b~" and escape(" %") == "%20%25"
    assert escape("\x7f\x1f") == "%7F%1F"


def test_each_refusal_in_its_words_and_each_bound_to_the_character():
    s = OnlineSettings()
    for name, word in (("ssid", "x" * 32), ("wifi-key", "k" * 8), ("wifi-key", "k" * 63),
                       ("user", "u" * 64), ("password", "p" * 64), ("secret", "s" * 8),
                       ("secret", "s" * 64), ("broker", "h" * 64 + ":65535"), ("broker", "h:1"),
                       ("tls", "off")):
        s.set(name, word)
        assert s.get(name) == word
    for name, word, why in (
            ("ssid", "x" * 33, "ssid: 1 to 32 bytes"),
            ("wifi-key", "k" * 7, "wifi-key: 8 to 63 characters (WPA2), or - for an open network"),
            ("wifi-key", "k" * 64, "wifi-key: 8 to 63 characters (WPA2), or - for an open network"),
            ("user", "u" * 65, "user: at most 64 characters"),
            ("password", "p" * 65, "password: at most 64 characters"),
            ("tls", "yes", "tls is on or off"),
            ("secret", "s" * 7, "secret: 8 to 64 characters, as the other player has it"),
            ("secret", "s" * 65, "secret: 8 to 64 characters, as the other player has it"),
            ("side", "grey", "side is light, dark or watch"),
            ("room", "a/b", "room a/b: only letters, digits, - _ and ."),
            ("client", "c" * 24, "client id: 1 to 23 characters"),
            ("broker", "h" * 65, "broker is HOST or HOST:PORT, as broker.example.org:8883"),
            ("broker", "h:0", "broker: port 0 is not a number from 1 to 65535"),
            ("broker", "h:123456", "broker: port 123456 is not a number from 1 to 65535"),
            ("ssid", "%4", "%XX needs two hex digits: %4"),
            ("ssid", "%ff", "not UTF-8 once decoded: %ff"),
            ("colour", "red", "no online setting colour: " + ", ".join(NAMES))):
        e = raises(SettingError, s.set, name, word)
        assert str(e) == why, (name, word, str(e))


def test_a_value_holding_an_equals_sign_is_kept_whole():
    s = OnlineSettings()
    s.set("secret", "k=v=12345")
    s.set("room", "r1")
    t = OnlineSettings()
    t.load(s.dump())
    assert t.get("secret") == "k=v=12345" and t.get("room") == "r1"


def test_each_setting_is_checked():
    s = OnlineSettings()
    s.set("ssid", "x" * 32)  # (802.11's longest)
    assert s.get("ssid") == "x" * 32
    for name, word in (("ssid", "x" * 33), ("wifi-key", "short"), ("broker", "a b"),
                       ("broker", "host:0"), ("broker", "host:99999"), ("broker", "host:x"),
                       ("broker", ":1883"), ("tls", "yes"), ("room", "a/b"), ("room", "r+"),
                       ("side", "blue"), ("secret", "1234567"), ("client", "c" * 24),
                       ("user", "u" * 65), ("colour", "red")):
        e = raises(SettingError, s.set, name, word)
        assert str(e) and "\n" not in str(e)
    s.set("broker", "broker.example.org:8884")
    assert s.broker() == ("broker.example.org", 8884)
    s.set("broker", "broker.example.org")
    assert s.broker() == ("broker.example.org", 1883)
    s.set("tls", "on")
    assert s.broker() == ("broker.example.org", 8883)
    s.set("wifi-key", "-")
    assert s.get("wifi-key") == ""


def test_the_link_sets_them_and_hides_the_secrets():
    board, net = online()
    link = Link(board)
    link.client = net
    pipe = Pipe()
    for line in ("online ssid Home%20Net", "online wifi-key radio-key-1", "online broker b.example",
                 "online room friday", "online side dark", "online secret oak%20tree%207",
                 "online password hunter22", "online", "online settings", "online on", "online",
                 "online colour red", "online room", "online side purple"):
        pipe.send(line + "\n")
        for _ in range(3):
            link.serve(pipe)
    lines = pipe.lines()
    text = "\n".join(lines)
    assert "radio-key-1" not in text and "hunter22" not in text and "oak" not in text
    settings = [ln for ln in lines if " ok online on " in ln or " ok online off " in ln]
    assert settings and "ssid=Home%20Net wifi-key=*** broker=b.example" in settings[0]
    assert "room=friday side=dark secret=***" in settings[0]
    states = [ln.split(" ok online ", 1)[1] for ln in lines if " ok online " in ln
              and "=" not in ln]
    assert states[-3:] == ["off", "wifi", "wifi"], lines  # on: the WiFi first (no pass ran here)
    errors = [ln for ln in lines if " error " in ln]
    assert len(errors) == 3 and "no online setting colour" in errors[0], errors
    assert "online takes nothing" in errors[1] and "side is light, dark or watch" in errors[2]
    _, other = online()
    e = raises(SettingError, other.command, ["room", "r1", "extra"])
    assert str(e) == "online takes nothing, settings, on, off, or a name and a value, as online " \
        "room friday"
    assert net.settings.get("secret") == "oak tree 7"


def test_a_board_without_online_play_says_so():
    link = Link(Board())
    pipe = Pipe()
    pipe.send("online\n")
    link.serve(pipe)
    assert any("error no online play on this board" in ln for ln in pipe.lines())


def test_kept_across_a_restart_and_a_power_cut():
    fs = MemFS()
    _, a = online(fs)
    for words in (["broker", "b.example:1884"], ["room", "r1"], ["side", "light"],
                  ["secret", "12345678"], ["on"]):
        a.command(words)
    _, b = online(fs)
    assert b.settings.text(False) == a.settings.text(False) and b.settings.on
    # A save cut at each step keeps the settings before it or after it, never neither.
    before = a.settings.text(False)
    k = 0
    while True:
        cut = CutFS(fs, k)
        _, c = online(fs)
        c.store = FileStore(PATH, cut)
        try:
            c.command(["room", "r2"])
            done = True
        except PowerCut:
            done = False
        _, d = online(fs)
        after = d.settings.text(False)
        assert after == before or after == before.replace("room=r1", "room=r2"), (k, after)
        if done:
            break
        k += 1
    assert k >= 8


def test_settings_that_do_not_read_are_said_and_left_off():
    fs = MemFS()
    FileStore(PATH, fs).save(b"garbage here")
    said = []
    board = Board()
    net = Online(board, None, FileStore(PATH, fs), clock=lambda: 0, say=said.append,
                 client="vx-0011223344556677")
    assert said == ["online settings not read: online settings: not a settings file"]
    assert net.status() == "off" and not net.settings.on


def test_online_play_waits_for_what_it_needs():
    _, net = online()
    assert net.command(["on"]) == "off missing broker,room"  # (no WiFi on this board: no ssid)
    net.command(["broker", "localhost"])
    net.command(["room", "r1"])
    assert net.command(["side", "light"]) == "off missing secret"
    assert net.state == OFF
    net.command(["side", "watch"])  # a spectator needs no secret
    assert net.state != OFF
    net.command(["off"])
    assert net.state == OFF and net.status() == "off"
