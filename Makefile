# The board's commands; `make help` lists them. `make play` needs only
# python3; the others set up .venv first (requirements-dev.txt).
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
KVENV := .venv-kicad
KPY := $(KVENV)/bin/python
KSTAMP := $(KVENV)/.installed
PORT ?= auto
MICROPYTHON_UF2 ?=
RUNTIME ?= micropython

.PHONY: help play play-device play-terminal web test system bench bench-device bench-online bench-web mutate mutate-stale tables hardware pcb em fab mech uf2 flash clean

help:  ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {printf "  make %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

play:  ## the simulator in the browser: you against the board's AI (address printed)
	$(PYTHON) -m host_sim play --ai dark

play-device: $(STAMP)  ## the same page with the real firmware on the emulated Pico under it (slower)
	$(VPY) -m host_sim play --ai dark --device

play-terminal:  ## the same simulator in a terminal
	$(PYTHON) -m host_sim board --ai dark

web: $(STAMP)  ## build/web/: your board in the browser (Web Serial, online play), static files for any web host
	$(VPY) tools/build_web.py

# A worker a core, up to 4 (pytest-xdist), a test file each at a time: the
# emulated Pico's long games run beside the short files (tests/conftest.py).
test: $(STAMP) system $(KSTAMP)  ## every test: CPython, MicroPython unix port, mpy-cross, mypy, chromium, mosquitto, KiCad, ngspice
	$(VPY) -m pytest -q -n auto --maxprocesses 4 --dist loadfile

# System parts the tests need, from Debian's packages: chromium (Playwright
# cannot download its own browser here: the tests drive Debian's), mosquitto
# (the online tests' broker, tools/mosquitto/local.conf) and KiCad 6 with its
# footprints (pcbnew is a module of Debian's python3 only, not of .venv's).
# python3-venv makes .venv-kicad (below) and librsvg2-bin turns PcbDraw's
# pictures into PNG; ngspice simulates each reader coil's RF chain and the
# bus (hardware/boardgen/rfsim.py, bussim.py, for `make hardware`); openEMS
# (a module of Debian's python3 too) solves the reader coil in its pour
# (`make em`). What is missing comes with apt-get, one update, when root;
# else the tests that need it skip, saying why.
SYSPY := /usr/bin/python3
system:  ## chromium, mosquitto, KiCad, ngspice and openEMS for the tests (apt-get when root; else their tests skip, saying why)
	@chromium=; rest=; \
	command -v chromium >/dev/null || command -v chromium-browser >/dev/null || chromium=chromium; \
	test -x /usr/sbin/mosquitto || rest="mosquitto"; \
	{ $(SYSPY) -c "import pcbnew" 2>/dev/null && test -d /usr/share/kicad/footprints; } \
	  || rest="$$rest kicad kicad-footprints"; \
	$(SYSPY) -c "import ensurepip" 2>/dev/null || rest="$$rest python3-venv"; \
	command -v rsvg-convert >/dev/null || rest="$$rest librsvg2-bin"; \
	command -v ngspice >/dev/null || rest="$$rest ngspice"; \
	$(SYSPY) -c "import openEMS" 2>/dev/null || rest="$$rest openems python3-openems"; \
	if [ -n "$$chromium$$rest" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -q; then \
	    { [ -z "$$chromium" ] || apt-get install -y -q chromium; } \
	    && { [ -z "$$rest" ] || DEBIAN_FRONTEND=noninteractive \
	         apt-get install -y -q --no-install-recommends $$rest; } \
	    || echo "note: apt-get could not install $$chromium$$rest: their tests will be skipped"; \
	  else echo "note: not installed: $$chromium$$rest: their tests will be skipped"; fi; \
	fi

pcb: system  ## lay out and route both boards: hardware/generated/*.kicad_pcb, vortex.pretty, feeds.csv
	$(SYSPY) tools/pcb.py build

# The field solver's figures for one coil in its pour: solved again (minutes of
# CPU) only when what they depend on changed (the digest in the file).
em: system  ## the reader coil in its GND pour by openEMS: hardware/generated/coil_em.csv (when stale)
	nice -n 10 $(SYSPY) tools/coil_em.py build

# KiKit and PcbDraw (requirements-kicad.txt) need pcbnew, so they live in a
# venv of Debian's python3 that sees its site-packages; made when pcbnew is
# there (else their tests skip, saying why).
$(KSTAMP): requirements-kicad.txt | system
	@if $(SYSPY) -c "import pcbnew" 2>/dev/null; then \
	  $(SYSPY) -m venv --system-site-packages $(KVENV) \
	  && $(KPY) -m pip install -q -r requirements-kicad.txt && touch $@; \
	else echo "note: no KiCad pcbnew: KiKit and PcbDraw are not installed; their tests will be skipped"; fi

fab: system $(KSTAMP)  ## build/fab: each board's and the rank panel's zip (Gerbers, drill, BOM, placement; KiKit), the boards' pictures (PcbDraw)
	$(KPY) tools/pcb.py fab

mech: $(STAMP)  ## build/mech: the tiles, pieces, panel and case as STEP, STL, DXF (build123d); hardware/generated/mech/ (fit report, drawings)
	$(VPY) tools/mech.py build

bench: $(STAMP)  ## figures and ratios; never a pass/fail
	$(VPY) tools/bench.py

bench-device: $(STAMP)  ## the same figures on an emulated Pico (rp2040js), beside the unix port's
	$(VPY) tools/bench_device.py

# Not part of `make test`: a package's mutants take minutes (docs/testing.md).
PKG ?=
SAMPLE ?= 10
JOBS ?= 2
mutate: $(STAMP)  ## mutation testing with mutmut (PKG=engine, SAMPLE=1 for every mutant; docs/testing.md)
	$(VPY) tools/mutate.py $(PKG) --sample $(SAMPLE) --jobs $(JOBS)

mutate-stale: $(STAMP)  ## make mutate for the packages whose code changed since their score (LIST=1: list them)
	$(VPY) tools/mutate.py $(PKG) --stale $(if $(LIST),--list) --sample $(SAMPLE) --jobs $(JOBS)

bench-web: $(STAMP) system  ## the board's page: a lifted piece to the page drawing it, its start, its size
	$(VPY) tools/bench_web.py

bench-online: $(STAMP) system  ## many games at once through one mosquitto on loopback: actions/s, latency, losses
	$(VPY) tools/bench_online.py

tables:  ## regenerate firmware/vortex/engine/tables.py
	$(PYTHON) tools/gen_tables.py

hardware: $(STAMP) system  ## regenerate hardware/generated/*, hardware/power.py and sensing.py (SKiDL netlist + ERC, BOM, figures, ngspice RF simulation, drawings)
	$(VPY) tools/hardware.py build

uf2: $(STAMP)  ## build/vortex-pico-VERSION.uf2: MicroPython and the game, one file to drop on a Pico
	$(VPY) tools/build_uf2.py $(if $(MICROPYTHON_UF2),--micropython "$(MICROPYTHON_UF2)")

flash: $(STAMP)  ## update a Pico, keeping its saved game (PORT=/dev/ttyACM0; RUNTIME=circuitpython: CIRCUITPY or PORT)
	$(VPY) tools/deploy.py --port "$(PORT)" --runtime "$(RUNTIME)"

# Node is optional: with it, npm installs rp2040js (pinned) for the emulated Pico,
# and MQTT.js and MicroPython's WebAssembly port (pinned) for the board's page.
# The board's CircuitPython libraries (pinned) go to $(VENV)/circuitpython-lib
# without their PyPI dependencies (Blinka's, for Linux computers).
# The Pico W's MicroPython libraries (umqtt.simple) go to $(VENV)/micropython-lib
# (tools/micropython_lib.py: pip cannot install their upip sdists).
$(STAMP): requirements-dev.txt requirements-circuitpython.txt requirements-micropython.txt \
	  tools/pico/package-lock.json tools/web/package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q -r requirements-dev.txt
	$(VPY) -m pip install -q --no-deps --no-compile --upgrade --target $(VENV)/circuitpython-lib \
	  -r requirements-circuitpython.txt
	$(VPY) tools/micropython_lib.py $(VENV)/micropython-lib \
	|| echo "note: no umqtt.simple; the board's online tests will be skipped"
	if command -v npm >/dev/null; then (cd tools/pico && npm ci --silent --no-audit --no-fund) \
	|| echo "npm ci failed: the emulated Pico tests will be skipped"; \
	(cd tools/web && npm ci --silent --no-audit --no-fund) \
	|| echo "npm ci failed: make web and the board's page tests will not run"; \
	else echo "node/npm not found: the emulated Pico and the board's page tests will be skipped"; fi
	touch $@

clean:  ## remove .venv, .venv-kicad and every build and cache
	rm -rf $(VENV) $(KVENV) build .pytest_cache .mypy_cache .hypothesis
