"""setuptools' hook for `pip install .` (the rest is in pyproject.toml): the
installed firmware package's vortex/version.py says the version of the
checkout it was built from (host_sim/version.py), as a board's does; and
hardware/power.py, which the simulator reads as the board does (the USB-C
source's thresholds and LED budgets), goes beside host_sim, where host_sim
looks for it when it is installed."""
import os
import shutil
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
from host_sim import version  # noqa: E402


class BuildPy(build_py):
    def run(self):
        super().run()
        with open(os.path.join(self.build_lib, "vortex", "version.py"), "w") as f:
            f.write(version.module_text(version.of_checkout(ROOT)))
        hardware = os.path.join(self.build_lib, "host_sim", "hardware")
        os.makedirs(hardware, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, "hardware", "power.py"),
                        os.path.join(hardware, "power.py"))


# setuptools' own scratch files under build/setuptools (`make clean` removes them),
# not among the project's build/ outputs or in the checkout's root.
SCRATCH = os.path.join("build", "setuptools")
os.makedirs(SCRATCH, exist_ok=True)
setup(cmdclass={"build_py": BuildPy},
      options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}})
