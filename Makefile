# The board's commands. `make play` needs only python3; the rest set up .venv first.
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play play-terminal test browser bench tables deploy clean

play:  ## the simulator in the browser: you against the board's AI (address printed)
	$(PYTHON) -m host_sim web --ai dark

play-terminal:  ## the same simulator in a terminal
	$(PYTHON) -m host_sim board --ai dark

test: $(STAMP) browser  ## every test: CPython, MicroPython unix port, mpy-cross, mypy, chromium
	$(VPY) -m pytest -q

# Playwright cannot download its own browser here: the tests drive Debian's.
browser:  ## chromium for the browser tests (apt-get when root; else they skip, saying why)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null \
	  || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	       && (apt-get update -q && apt-get install -y -q chromium) ; } \
	  || echo "note: no chromium; the browser tests will be skipped"

bench: $(STAMP)  ## figures and ratios; never a pass/fail
	$(VPY) tools/bench.py

tables:  ## regenerate firmware/vortex/engine/tables.py
	$(PYTHON) tools/gen_tables.py

$(STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q -r requirements-dev.txt
	touch $@

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .hypothesis
