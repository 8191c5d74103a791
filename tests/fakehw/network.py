"""A stand-in for the Pico W's `network` (its CYW43 radio) on the unix
port, whose sockets reach the host's own network: a station that joins as
soon as it is asked to, remembering what it was asked. Everything above
the radio (lwIP's sockets there, the unix port's here, umqtt.simple, the
broker) is real."""
STA_IF = 0


class WLAN:
    made = []

    def __init__(self, interface=STA_IF):
        self.on = False
        self.joined = None  # (ssid, key) of the last connect()
        self.polls = 0
        WLAN.made.append(self)

    def active(self, on=None):
        if on is not None:
            self.on = on
        return self.on

    def connect(self, ssid, key=None):
        assert self.on, "connect() on an inactive interface"
        self.joined = (ssid, key)

    def status(self):
        return 3 if self.polls > 3 else 1  # STAT_GOT_IP, STAT_CONNECTING (rp2's)

    def isconnected(self):
        # Joined a few polls after connect(), as a radio takes a while.
        if self.joined is not None:
            self.polls += 1
        return self.polls > 3
