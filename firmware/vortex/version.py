"""The firmware's version: main.py prints it at boot, the link's `hello`
answers with it. Every build (make flash, make uf2, pip install) writes this
module anew with the version from git (host_sim/version.py); this committed
copy is what firmware run from source reports."""
VERSION = "dev"
