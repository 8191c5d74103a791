"""Fetch the board's pinned MicroPython libraries (requirements-micropython.txt)
into a folder that the tests put on the unix port's sys.path.

    python3 tools/micropython_lib.py [OUT]      # OUT: .venv/micropython-lib

They are on PyPI as upip's sdists (a tar.gz of the modules, no setup.py),
which pip cannot install: this finds each pinned file in PyPI's simple
index (PEP 503, the one pip reads), checks its sha256 against the pin, and
extracts its .py modules. A board gets the same library with mip
(tools/deploy.py --online).
"""
import hashlib
import io
import os
import re
import sys
import tarfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQUIREMENTS = os.path.join(ROOT, "requirements-micropython.txt")
OUT = os.path.join(ROOT, ".venv", "micropython-lib")
INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})\s*$")


def pins(path=REQUIREMENTS):
    """(name, version, sha256) of each pinned line."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                m = PIN.match(line)
                if not m:
                    raise SystemExit("%s: not NAME==VERSION --hash=sha256:HEX: %s" % (path, line))
                out.append(m.groups())
    return out


def fetch(name, version, sha256):
    """The pinned sdist's bytes, from the index, checked."""
    page = "%s/%s/" % (INDEX, re.sub(r"[-_.]+", "-", name).lower())
    html = urllib.request.urlopen(page, timeout=60).read().decode()
    want = "%s-%s.tar.gz" % (name, version)
    for url in re.findall(r'href="([^"]+)"', html):
        if url.split("#")[0].endswith("/" + want):
            data = urllib.request.urlopen(url.split("#")[0], timeout=60).read()
            if hashlib.sha256(data).hexdigest() != sha256:
                raise SystemExit("%s: sha256 differs from the pin" % want)
            return data
    raise SystemExit("%s: not in %s" % (want, page))


def install(out=OUT):
    for name, version, sha256 in pins():
        stamp = os.path.join(out, ".%s-%s" % (name, version))
        if os.path.exists(stamp):
            continue
        with tarfile.open(fileobj=io.BytesIO(fetch(name, version, sha256))) as tar:
            for member in tar.getmembers():
                parts = member.name.split("/")[1:]  # below the sdist's top folder
                if member.isfile() and parts and parts[-1].endswith(".py") \
                        and ".." not in parts and not parts[0].endswith(".egg-info"):
                    path = os.path.join(out, *parts)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "wb") as f:
                        f.write(tar.extractfile(member).read())
        open(stamp, "w").close()
        print("%s %s -> %s" % (name, version, out))


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Fetch the board's pinned MicroPython libraries "
                                 "(requirements-micropython.txt) into a folder.")
    ap.add_argument("out", nargs="?", default=OUT, metavar="OUT",
                    help="where to put them (default: .venv/micropython-lib)")
    install(ap.parse_args().out)
