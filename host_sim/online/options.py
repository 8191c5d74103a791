"""The online options every way into the game takes (play, board, link,
watch), and the broker they meet on.

    --online ROOM          the room, the name both players type
    --broker ADDRESS       HOST[:PORT], mqtt://... or mqtts://... (TLS); default: this
                           machine's port 1883 (VORTEX_LOCAL_PORT), where an embedded
                           broker is started when nothing listens (a local game needs
                           no install)
    --seat light|dark      default: the free one, light first
    --secret TEXT          the room's secret, the same for both players (also
                           VORTEX_ROOM_SECRET); without it on this machine's broker,
                           the room's name
"""
import argparse
import os
import socket

from host_sim import cli

LOCAL = "127.0.0.1:1883"
LOCAL_PORT_ENV = "VORTEX_LOCAL_PORT"  # this machine's broker on another port (the tests' own)
SECRET_ENV = "VORTEX_ROOM_SECRET"


def local():
    """This machine's broker's address: LOCAL, or its port from the environment."""
    port = os.environ.get(LOCAL_PORT_ENV)
    return LOCAL if not port else "127.0.0.1:%s" % port


def room_name(text):
    """An argparse type: a room's name (vortex.online.protocol's rule)."""
    from vortex.online.protocol import check_name, ProtocolError
    try:
        return check_name(text)
    except ProtocolError as e:
        raise argparse.ArgumentTypeError(str(e))


def broker_address(text):
    """An argparse type: a broker's address (client.Address)."""
    from .client import Address
    try:
        return Address.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def add_broker(p):
    p.add_argument("--broker", type=broker_address, metavar="ADDRESS",
                   help="the MQTT broker: HOST[:PORT], mqtt://HOST[:PORT] or mqtts://HOST[:PORT] "
                        "(TLS); user and password from VORTEX_MQTT_USER and VORTEX_MQTT_PASSWORD "
                        "(default %s, started here if nothing listens)" % local())


def add_arguments(p, room=True):
    """--online ROOM (when room), --broker, --seat and --secret, on an argparse parser."""
    if room:
        p.add_argument("--online", type=room_name, metavar="ROOM",
                       help="play in this room through an MQTT broker (docs/online.md): the "
                            "opponent types the same room and secret")
    add_broker(p)
    p.add_argument("--seat", choices=("light", "dark"),
                   help="with --online: the side to play (default: the free one, light first)")
    p.add_argument("--secret", type=cli.text("secret"), metavar="TEXT",
                   help="with --online: the room's secret, the same for both players (or %s; "
                        "on this machine's broker, the room's name when not given)" % SECRET_ENV)


def room(opts):
    """The room of --online (None: a game on this machine only); Failure
    when an online option is given without it."""
    name = getattr(opts, "online", None)
    if name is None:
        for option in ("broker", "seat", "secret"):
            if getattr(opts, option, None) is not None:
                raise cli.Failure("--%s is for a game online: give --online ROOM too" % option)
    return name


def is_loopback(address):
    return address.host in ("localhost", "::1") or address.host.startswith("127.")


class LocalBroker:
    """This machine's broker, for a game given none: the one listening on
    its port (another window's), or one embedded in this program, started
    when none listens: at the start, or later, when the window that
    started it has closed (ensure(), on a failed try to connect: the next
    window to find it gone starts one, and the players' states, kept by
    each, fill the new broker's room again). stop() stops ours, if any."""

    def __init__(self, address):
        self.address = address
        self.embedded = None

    def ensure(self):
        """A broker on the port: None, or why none could be started."""
        if self.embedded is not None:
            return None
        try:
            socket.create_connection((self.address.host, self.address.port), timeout=1).close()
            return None  # a broker is there (mosquitto, or another window's embedded one)
        except OSError:
            pass
        from .broker import Embedded, BrokerError
        try:
            self.embedded = Embedded(self.address.port).start()
        except BrokerError as e:
            return str(e)
        return None

    def stop(self):
        if self.embedded is not None:
            self.embedded.stop()
            self.embedded = None


def broker(opts):
    """(address, LocalBroker or None): the broker given, or this machine's,
    an embedded one started there when nothing listens."""
    from .client import Address
    if opts.broker is not None:
        return opts.broker, None
    try:
        address = Address.parse(local())
    except ValueError as e:
        raise cli.Failure("%s: %s" % (LOCAL_PORT_ENV, e))
    here = LocalBroker(address)
    why = here.ensure()
    if why:
        raise cli.Failure(why)
    return address, here


def secret(opts, room, address):
    """The room's secret: --secret, the environment, or on this machine's
    broker the room's name; Failure on another's broker without one."""
    text = getattr(opts, "secret", None) or os.environ.get(SECRET_ENV)
    if text:
        return text
    if is_loopback(address):
        return room
    raise cli.Failure("a room on another machine's broker needs its secret: --secret TEXT (or "
                      "%s), the same for both players, so that no one else can play" % SECRET_ENV)


def player(opts, room, start=None, log=None, watch=False):
    """The Player for these options, started: (player, this machine's
    LocalBroker or None; stop() it when done)."""
    from vortex.engine.defs import LIGHT, DARK
    from vortex.online.protocol import WATCH
    from .player import Player
    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError:
        raise cli.Failure("online play needs paho-mqtt: pip install -r requirements-dev.txt "
                          "(make test sets up .venv with it)")
    address, here = broker(opts)
    if watch:
        key, seat = None, WATCH
    else:
        key = secret(opts, room, address)
        seat = {"light": LIGHT, "dark": DARK}.get(opts.seat)
    pl = Player(address, room, key, seat, start, log)
    if here is not None:
        def unreachable():
            had = here.embedded
            why = here.ensure()
            if why:
                pl.log("no broker on %s and none started here: %s" % (address, why))
            elif here.embedded is not had:
                pl.log("this machine's broker had gone (the window that ran it closed): "
                       "one started here on %s" % address)
        pl.unreachable = unreachable
    return pl.start(), here
