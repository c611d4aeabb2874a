# Two entry points for a fresh machine: `make play` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test setup browser bench lint

# What the C extensions are built from: a change re-installs.
SOURCES := pyproject.toml setup.py $(wildcard president/native/*.c president/native/*.h)

# The game needs only the `cli` and `web` extras; everything else (the research
# environments, Ray, the test and lint tools) comes with `make setup`, `make test`, `make bench`.
$(VENV)/.play-ready: $(SOURCES)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[cli,web]'
	touch $@

$(VENV)/.all-ready: $(SOURCES)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all]'
	touch $@ $(VENV)/.play-ready

setup: $(VENV)/.all-ready

# Set up and start the browser game (`make play PORT=8001` for another port).
play: $(VENV)/.play-ready
	$(BIN)/president serve$(if $(PORT), --port $(PORT))

# Debian's Chromium for the end-to-end tests (never `playwright install`).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# The tests of the compiled extensions fail, not skip, when they are not built (a missing C
# compiler or Python headers must not leave `make test` green with those tests skipped);
# `make test PRESIDENT_REQUIRE_COMPILED=0` runs without them on purpose (tests/conftest.py).
PRESIDENT_REQUIRE_COMPILED ?= 1
export PRESIDENT_REQUIRE_COMPILED

# Set up, lint and type-check, then run every test (a lint or type error fails it).
test: setup browser lint
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python benchmarks/run.py

# Lint and type-check (the rule set and mypy's options are in pyproject.toml); part of
# `make test`, so CI fails on either.
lint: setup
	$(BIN)/ruff check president tests benchmarks
	$(BIN)/mypy president
