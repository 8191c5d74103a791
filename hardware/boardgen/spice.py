"""ngspice, the circuit simulator both simulations run (rfsim: a rank's RF
chain; bussim: the bus across the boards): a netlist in, the files its
.control block wrote out, or a one-line reason why not."""
import os
import shutil
import subprocess
import tempfile

NGSPICE = "ngspice"   # Debian's package (`make system` installs it)


class SimError(RuntimeError):
    """ngspice failed: a one-line reason."""


class Missing(SimError):
    """ngspice is not installed."""


def available():
    return shutil.which(NGSPICE) is not None


def run(text, outputs, timeout=300):
    """Run `text` with `ngspice -b` in a scratch folder ({dir} in the text
    names it, for the .control block's wrdata); the texts of the files
    named in `outputs` (relative to it)."""
    if not available():
        raise Missing("ngspice is not installed (Debian package 'ngspice'; `make system` installs it)")
    with tempfile.TemporaryDirectory(prefix="vortex-spice-") as tmp:
        cir = os.path.join(tmp, "net.cir")
        with open(cir, "w") as f:
            f.write(text.replace("{dir}", tmp))
        p = subprocess.run([NGSPICE, "-b", cir], capture_output=True, text=True, cwd=tmp, timeout=timeout)
        paths = [os.path.join(tmp, o) for o in outputs]
        if p.returncode != 0 or not all(os.path.exists(q) and os.path.getsize(q) for q in paths):
            tail = (p.stderr or p.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SimError("ngspice failed: %s" % tail[0])
        texts = []
        for q in paths:
            with open(q) as f:
                texts.append(f.read())
        return texts
