# Concerto Trainer — developer entry points. Needs only python3 on the PATH.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: serving needs only the package's own dependencies; tests, lint and benchmarks
# add the [dev,bench,sim] extras. Each reinstalls when pyproject.toml or the lock changes.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# The runtime dependencies, each pinned with its hashes (`make lock` writes it): make run, make
# serve, make test and deploy/Dockerfile install exactly these, so a new release of any of them
# changes nothing until the lock is refreshed on purpose.
LOCK := requirements/runtime.txt
# The lock's pins without their hashes, a constraints file for the dev tools' install: a hash in
# a constraints file turns on pip's hash checking for the whole install, which the editable
# project and the (unhashed) tools then fail.
LOCK_PINS := $(VENV)/runtime-pins.txt
# `make lock` runs pip-compile in a venv of its own, so .venv holds exactly the lock; on Python
# 3.11, deploy/Dockerfile's, since the lock is for it. pip-tools 7.7.0 needs pip 26.2.2 to 26.3.
PIP_TOOLS := $(VENV)/pip-tools
PIP_TOOLS_VERSION := 7.7.0
PIP_TOOLS_PIP_VERSION := 26.3
PIP_TOOLS_STAMP := $(PIP_TOOLS)/.installed-$(PIP_TOOLS_VERSION)-pip-$(PIP_TOOLS_PIP_VERSION)
LOCK_PYTHON ?= python3.11
CHROMIUM := /usr/bin/chromium
HEADLESS_SHELL := /usr/bin/chromium-headless-shell
# apt-get needs root: use sudo when we are not root and it exists.
SUDO := $(if $(filter 0,$(shell id -u)),,$(shell command -v sudo))
# Python may cache compiled modules (and pytest its rewritten tests) in __pycache__/ even where
# the environment says not to: every test process and every subprocess a test starts would
# otherwise compile the project again (about 5 s of CPU each).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help run serve worker test test-quick fast-lane test-slow test-production screenshots lint typecheck bench clean setup setup-dev chromium gettext cjk-fonts messages lock

help:
	@echo "make run    set up .venv, migrate, seed, serve on http://127.0.0.1:8000/ (PORT=, HOST= to move it)"
	@echo "make serve  production-like: migrate, collectstatic, gunicorn (settings from the env)"
	@echo "make worker the background workers on TASK_BROKER_URL (make serve starts one when it is set)"
	@echo "make test   set up .venv (and Chromium), then ruff, mypy and the fast pytest lane"
	@echo "make test-quick the inner loop: ruff and the fast lane without the browser tests"
	@echo "make test-slow  the slow volume sweeps of the property tests (CI runs both)"
	@echo "make test-production  two servers on PostgreSQL and Redis: idle sockets, outages, load (DATABASE_URL=postgres://…)"
	@echo "make screenshots  the browser tests, saving every page they visit to tests/browser/output/"
	@echo "make lint   ruff check . and ruff format --check ."
	@echo "make typecheck  mypy: the engine strictly, the trainer with django-stubs (part of make test)"
	@echo "make bench  run every benchmarks/bench_*.py"
	@echo "make messages  refresh the translation catalogs (locale/, trainer/wording/locale/) and compile them"
	@echo "make lock   refresh requirements/runtime.txt, the hashed pins of the runtime dependencies (LOCK_ARGS=--upgrade moves them on)"
	@echo "make clean  remove .venv, caches, the dev database and browser screenshots"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The lock (every file's hash checked), then the project itself without resolving anything;
# pip check fails if the lock misses a dependency.
$(STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --no-deps -e .
	$(BIN)/python -m pip check
	touch $(STAMP)

# The same lock, then the tools, pinned by constraints/dev.txt so a new release cannot change
# what CI checks, with the lock's pins as constraints so no tool moves a runtime package.
$(DEV_STAMP): pyproject.toml $(LOCK) constraints/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes --no-deps -r $(LOCK)
	grep -E '^[A-Za-z0-9]' $(LOCK) | sed 's/ *\\$$//' > $(LOCK_PINS)
	$(BIN)/python -m pip install -e '.[dev,bench,sim]' -c constraints/dev.txt -c $(LOCK_PINS)
	$(BIN)/python -m pip check
	touch $(STAMP) $(DEV_STAMP)

# Refresh the lock from pyproject.toml's [project] dependencies (not the extras). The pins
# already in it stay (pip-compile reads them back): a new dependency is added at its newest
# release, a dropped one removed. To move pins on: make lock LOCK_ARGS=--upgrade (all) or
# LOCK_ARGS='--upgrade-package redis'; then make test, which installs the new lock.
$(PIP_TOOLS_STAMP):
	rm -rf $(PIP_TOOLS)
	$(LOCK_PYTHON) -m venv $(PIP_TOOLS)
	$(PIP_TOOLS)/bin/python -m pip install pip-tools==$(PIP_TOOLS_VERSION) pip==$(PIP_TOOLS_PIP_VERSION)
	touch $@

lock: $(PIP_TOOLS_STAMP)
	CUSTOM_COMPILE_COMMAND='make lock' $(PIP_TOOLS)/bin/pip-compile --quiet --generate-hashes \
		--strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links $(LOCK_ARGS) \
		-o $(LOCK) pyproject.toml

setup: $(STAMP)

setup-dev: $(DEV_STAMP)

# Where `make run` serves: `make run PORT=8123` or `make run HOST=0.0.0.0` (another machine on the
# network then needs its name in ALLOWED_HOSTS). Set on the command line, not from the
# environment, where HOST or PORT often mean something else.
HOST := 127.0.0.1
PORT := 8000

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py seed
	$(BIN)/python manage.py cheatsheet_stats
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# gunicorn + whitenoise with DJANGO_ENV=production unless set: needs SECRET_KEY and
# ALLOWED_HOSTS (and SECURE_SSL_REDIRECT=0 to try it over plain http). See docs/operations.md.
# With TASK_BROKER_URL set, a worker (`make worker`) runs beside it and stops with it; without,
# the app's processes play their background work themselves.
serve: setup
	@if [ -n "$$TASK_BROKER_URL" ]; then \
		trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
		$(WORKER) & worker=$$!; \
		PYTHON=$(BIN)/python deploy/serve.sh; \
	else \
		PYTHON=$(BIN)/python deploy/serve.sh; \
	fi

# The task queue's workers (Dramatiq) on TASK_BROKER_URL: WORKER_PROCESSES processes (default
# the cores), one thread each. Run it on any number of machines. See docs/operations.md.
WORKER_PROCESSES ?= $(shell nproc 2>/dev/null || echo 2)
WORKER = DJANGO_ENV=$${DJANGO_ENV:-production} dramatiq_queue_prefetch=1 \
	$(BIN)/dramatiq concerto_site.worker --processes $(WORKER_PROCESSES) --threads 1
worker: setup
	$(WORKER)

# Debian's Chromium, and its headless build (chromium-headless-shell) that the browser tests
# run when it is there: the same Chromium on about half the CPU. Without the shell (a Debian
# that lacks the package, or no package server) they run the full browser.
chromium:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(HEADLESS_SHELL) ]; then \
		echo "Installing Debian chromium and chromium-headless-shell for the browser tests"; \
		$(SUDO) apt-get update; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-headless-shell || \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi; \
	[ -x $(CHROMIUM) ] || { echo "Debian chromium could not be installed" >&2; exit 1; }; \
	[ -x $(HEADLESS_SHELL) ] || echo "No chromium-headless-shell: the browser tests run $(CHROMIUM), on about twice the CPU"

# Debian's gettext (msgfmt, xgettext): makemessages/compilemessages and the catalog tests.
gettext:
	@if ! command -v msgfmt >/dev/null 2>&1; then \
		echo "Installing Debian gettext for the translation catalogs"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y gettext; \
	fi

# Noto CJK: Chromium draws Japanese pages in the browser tests with it (no tofu boxes).
cjk-fonts:
	@if ! fc-list 2>/dev/null | grep -q "Noto Sans CJK"; then \
		echo "Installing Debian fonts-noto-cjk for the Japanese browser tests"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk; \
	fi

# The UI catalogs (templates and trainer/: locale/, and trainer/learn/locale/ for the learn
# app's strings) by makemessages; the engine-message catalog (trainer/wording/locale/, built
# from the engine's message table by `manage.py wording_messages`, so makemessages ignores
# it); then the compiled .mo files, which are committed: `make run` needs no gettext.
# tests/trainer/i18n/ fails when a catalog is stale, incomplete or not compiled.
MAKEMESSAGES_IGNORE := --ignore .venv --ignore 'trainer/wording/*' --ignore 'engine/*' \
	--ignore 'tests/*' --ignore 'benchmarks/*' --ignore 'scripts/*' --ignore 'deploy/*' \
	--ignore 'docs/*' --ignore 'seeds/*' --ignore 'staticfiles/*' --ignore '*.egg-info/*'
MESSAGE_LANGUAGES := ja

messages: setup gettext
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(MESSAGE_LANGUAGES)) \
		$(MAKEMESSAGES_IGNORE) --no-obsolete --add-location file
	$(BIN)/python manage.py wording_messages
	$(BIN)/python manage.py compilemessages --ignore .venv

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Both strictly ([tool.mypy] in pyproject.toml, no per-module loosening): the engine, and the
# Django side through the django-stubs plugin.
typecheck: setup-dev
	$(BIN)/mypy --strict engine
	$(BIN)/mypy trainer concerto_site
	$(BIN)/mypy scripts

# Test processes (pytest-xdist): one per core and one more by default (the browser tests spend
# much of their time waiting on Chromium, and another process works meanwhile); each takes the
# next test when it is free (worksteal), so no process idles while another holds a queue of
# long ones. TEST_WORKERS=0 runs everything in this process.
TEST_WORKERS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); echo $$((n + 1)))
XDIST = -n $(TEST_WORKERS) --dist worksteal

# The fast lane: everything but the `slow` volume sweeps (those run in .ci/run: `make test-slow`).
test: setup-dev chromium gettext cjk-fonts lint typecheck
	@$(MAKE) --no-print-directory fast-lane

# The inner loop while working: lint and the fast lane without the browser tests.
test-quick: setup-dev
	$(BIN)/ruff check .
	$(BIN)/pytest -m "not slow and not production and not browser" $(XDIST)

# The fast lane's pytest alone, on whatever DATABASE_URL says (.ci/run: PostgreSQL).
fast-lane:
	$(BIN)/pytest -m "not slow and not production" $(XDIST)

# The volume runs of the property tests (thousands more seeds); CI runs them after `make test`.
test-slow: setup-dev
	$(BIN)/pytest -m "slow and not production" $(XDIST)

# The production shape (tests/production/): two app servers as `make serve` starts them, on
# the PostgreSQL that DATABASE_URL names, with a redis-server of the tests' own; idle sockets,
# Redis restarted, a server killed, 40 learners. One test at a time (they start servers).
# .ci/run runs it; locally: DATABASE_URL=postgres://… make test-production.
test-production: setup-dev
	$(BIN)/pytest -m production -p no:xdist tests/production

# The browser tests with their screenshots saved (desktop and 360 px, both languages), to look at.
screenshots: setup-dev chromium cjk-fonts
	SCREENSHOTS=1 $(BIN)/pytest -m "browser and not slow" $(XDIST)

bench: setup-dev
	@set -e; for f in benchmarks/bench_*.py; do \
		[ -e "$$f" ] || { echo "no benchmarks yet"; break; }; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles tests/browser/output .pytest_cache .ruff_cache .mypy_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
