"""The page's Python under the page's own MicroPython (MicroPython's
WebAssembly port, run by node, on make web's files): the online protocol's
signatures against CPython's hmac on the same vectors as
tests/test_online_sign.py, RFC 4231's case 2, and the firmware's records and
engine as the page reads a board's game. Skips without node or the page's
npm libraries."""
import hashlib
import hmac
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "tests", "web_python_run.mjs")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from host_sim.web.board import files
    why = files.missing() or (None if shutil.which("node") else "no node")
    if why:
        pytest.skip(why)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import build_web
    out = str(tmp_path_factory.mktemp("web"))
    build_web.build(out)
    return out


def run(site, code):
    r = subprocess.run(["node", RUN, site], input=code, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_signatures_in_the_page_are_cpythons(site):
    rng = random.Random(40)
    cases = [(bytes(rng.randrange(256) for _ in range(n)), bytes(rng.randrange(32, 127)
              for _ in range(m))) for n, m in ((0, 0), (1, 5), (63, 64), (64, 65), (65, 200),
                                               (100, 1000))]
    cases.append((b"Jefe", b"what do ya want for nothing?"))  # RFC 4231, test case 2
    code = ("import json\nfrom vortex.online import sign, protocol\nfrom binascii import hexlify\n"
            "cases = %r\n"
            "print(json.dumps([hexlify(sign.hmac_sha256(k, m)).decode() for k, m in cases]))\n"
            % (cases,))
    code += ("key = sign.seat_key('oak tree 7', 'friday', 1)\n"
             "print(sign.mac(key, protocol.signed_action('friday', 2, 1, 'F@e5')))\n"
             "print(sign.proof(key))\n")
    out = run(site, code).split("\n")
    assert json.loads(out[0]) == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in cases]
    key = hmac.new(b"oak tree 7", b"vortex/v1 seat friday 1", hashlib.sha256).digest()
    assert out[1] == hmac.new(key, b"vortex/v1 action friday 2 dark F@e5",
                              hashlib.sha256).hexdigest()[:32]
    assert out[2] == hashlib.sha256(b"vortex/v1 proof " + key).hexdigest()[:32]


def test_the_page_reads_a_boards_game_in_the_firmwares_engine(site):
    from vortex import record
    from vortex.engine import Position
    text = record.write({"Site": "Vortex board"}, Position().text(), ["W@d4", "F@e5"])
    code = ("import page, json\nsent = []\npage.start(sent.append, print, None, 'web-1')\n"
            "print(page.record(%r))\nv = json.loads(page.view())['game']\n"
            "print(v['position'])\nprint(page.load_record('1. Z@z9 *'))\n"
            "print(page.load_record(%r))\nprint(json.dumps(sent))\n" % (text, text))
    out = run(site, code).split("\n")
    assert out[0] == '{"ok": true}'
    p = Position()
    for a in ("W@d4", "F@e5"):
        p.push(p.parse_action(a))
    assert out[1] == p.text()
    assert json.loads(out[2])["error"]
    assert json.loads(out[3]) == {"ok": 2}
    assert json.loads(out[4]) == ["game " + Position().text(), "game + W@d4 F@e5", "game end"]


def test_every_module_of_the_page_imports_in_the_page(site):
    """What the page's Python imports is in make web's files: a firmware
    module the page's list missed (vortex.heap, imported by the AI the
    online client's board imports) left online play dead in the page."""
    with open(os.path.join(site, "py", "manifest.json")) as f:
        names = [rel.rsplit(".", 1)[0].replace("/", ".").replace(".__init__", "")
                 for rel in json.load(f)]
    assert "vortex.online.client" in names and "page" in names
    code = ("failed = []\nfor n in %r:\n    try:\n        __import__(n)\n"
            "    except Exception as e:\n        failed.append('%%s: %%s' %% (n, e))\n"
            "print(failed)\n" % (names,))
    assert run(site, code).strip() == "[]"
