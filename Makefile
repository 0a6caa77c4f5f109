# datasched: every set-up step lives here. Targets are incremental: a second run
# with nothing changed does no apt call, no rebuild and no reinstall.
#
#   make reproduce   set everything up, then run the main job (quick paper figures)
#   make test        set everything up, then lint and type-check, then run every test (C++ and Python)
#   make test-slurm  the cluster route on a one-node Slurm started on this machine (root; docs/cluster.md)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
VPY := $(VENV)/bin/python
STAMPS := .stamps
SIM_SRC := sim
BUILD := build/sim
ENGINE := $(BUILD)/datasched-sim
UV_VERSION := 0.9.5
JOBS ?= 2

SIMGRID := build/simgrid

.PHONY: format setup system-deps simgrid engine venv test lint test-engine test-python test-slurm reproduce demo lock clean bench

setup: system-deps engine venv

system-deps: $(STAMPS)/apt
$(STAMPS)/apt: scripts/apt-packages.txt scripts/install-system-deps.sh
	@mkdir -p $(STAMPS)
	scripts/install-system-deps.sh
	@touch $@

# The engine's SimGrid: 3.32 from its pinned source distribution with simgrid/patches/
# applied (simgrid/README.md), installed into $(SIMGRID)/prefix. About 6 minutes the
# first time; after a patch changes, only what it touches is recompiled. The patches
# folder is a prerequisite too: removing a patch changes it, not any remaining file.
simgrid: $(STAMPS)/simgrid
$(STAMPS)/simgrid: simgrid/build.sh simgrid/patches $(wildcard simgrid/patches/*.patch) $(STAMPS)/apt
	@mkdir -p $(STAMPS)
	JOBS=$(JOBS) simgrid/build.sh $(SIMGRID)
	@touch $@

$(BUILD)/build.ninja: $(SIM_SRC)/CMakeLists.txt $(STAMPS)/apt $(STAMPS)/simgrid
	cmake -S $(SIM_SRC) -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DDATASCHED_SIMGRID_PREFIX=$(abspath $(SIMGRID)/prefix)

# A failed build fails the target (pipefail; the filter alone never fails): an old binary
# left in $(BUILD) must not be tested in place of the sources.
engine: $(BUILD)/build.ninja $(STAMPS)/simgrid
	@cmake --build $(BUILD) -j $(JOBS) | { grep -v '^ninja: no work to do' || true; }
	@test -x $(ENGINE)

# Bytecode is compiled once here: every simulation of `make reproduce` and every decision
# process of `make test` is a new Python process, and without .pyc files each one compiles
# pandas, matplotlib and our modules again (about 1 s of CPU each; nothing is written back
# when PYTHONDONTWRITEBYTECODE is set). Our own sources are compiled too (stale .pyc files of
# edited sources are simply recompiled in memory by Python).
PY_PACKAGES := datasched schedulers platforms workloads workflows analysis
venv: $(STAMPS)/venv
$(STAMPS)/venv: requirements.lock requirements-nodeps.txt pyproject.toml $(STAMPS)/apt
	@mkdir -p $(STAMPS)
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --disable-pip-version-check uv==$(UV_VERSION)
	$(VENV)/bin/uv pip sync -q --compile-bytecode --python $(VPY) requirements.lock
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(VPY) --no-deps -r requirements-nodeps.txt
	$(VENV)/bin/uv pip install -q --python $(VPY) --no-deps -e .
	$(VPY) -m compileall -q -j $(JOBS) $(PY_PACKAGES) > /dev/null
	@touch $@

# Regenerate the lock file after editing pyproject.toml dependencies.
lock:
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --disable-pip-version-check uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile -q --python-version 3.11 --extra dev pyproject.toml -o requirements.lock

test: setup
	$(MAKE) --no-print-directory lint test-engine test-python

# ruff (lint + format check) and mypy over our Python (settings in pyproject.toml);
# scripts/typecheck.py maps the top-level folders into datasched.* for mypy;
# clang-format (.clang-format) over the engine. `make format` applies both formatters.
CXX_SOURCES = $(shell find sim/src sim/tests sim/fuzz -name '*.cpp' -o -name '*.hpp')
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VPY) scripts/typecheck.py
	@echo "clang-format --dry-run --Werror over $(words $(CXX_SOURCES)) engine sources"
	@clang-format --dry-run --Werror $(CXX_SOURCES)

format: venv
	$(VENV)/bin/ruff format .
	clang-format -i $(CXX_SOURCES)

test-engine: engine
	ctest --test-dir $(BUILD) --output-on-failure --no-tests=error -j $(JOBS)

test-python: venv engine
	$(VPY) -m pytest -q -n $(JOBS) tests

# The cluster route on a real Slurm (docs/cluster.md): starts a one-node Slurm on this machine
# (scripts/local-slurm; root, installs slurm-wlm and munge if missing), runs a small sweep through
# the Snakemake Slurm executor against a local run, and stops it. Skips where it cannot install.
test-slurm: venv engine
	DATASCHED_SLURM_TESTS=1 timeout -k 30 1200 $(VPY) -m pytest -q -p no:cacheprovider tests/integration/slurm

demo: setup
	$(VENV)/bin/datasched demo --output out/demo

reproduce: setup
	$(VENV)/bin/datasched reproduce --quick

bench: setup
	bench/engine_throughput

clean:
	rm -rf $(BUILD) $(SIMGRID) $(STAMPS) $(VENV)
