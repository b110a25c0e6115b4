# Concerto Trainer — developer entry points. Needs only python3 on the PATH.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: serving needs only the package's own dependencies; tests, lint and benchmarks
# add the [dev,bench] extras. Each reinstalls when pyproject.toml changes.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
CHROMIUM := /usr/bin/chromium
HEADLESS_SHELL := /usr/bin/chromium-headless-shell
# apt-get needs root: use sudo when we are not root and it exists.
SUDO := $(if $(filter 0,$(shell id -u)),,$(shell command -v sudo))
# Python may cache compiled modules (and pytest its rewritten tests) in __pycache__/ even where
# the environment says not to: every test process and every subprocess a test starts would
# otherwise compile the project again (about 5 s of CPU each).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help run serve worker test fast-lane test-slow screenshots lint typecheck bench clean setup setup-dev chromium gettext cjk-fonts messages

help:
	@echo "make run    set up .venv, migrate, seed, serve on http://127.0.0.1:8000/"
	@echo "make serve  production-like: migrate, collectstatic, gunicorn (settings from the env)"
	@echo "make worker the background workers on TASK_BROKER_URL (make serve starts one when it is set)"
	@echo "make test   set up .venv (and Chromium), then ruff, mypy and the fast pytest lane"
	@echo "make test-slow  the slow volume sweeps of the property tests (CI runs both)"
	@echo "make screenshots  the browser tests, saving every page they visit to tests/browser/output/"
	@echo "make lint   ruff check . and ruff format --check ."
	@echo "make typecheck  mypy: the engine strictly, the trainer with django-stubs (part of make test)"
	@echo "make bench  run every benchmarks/bench_*.py"
	@echo "make messages  refresh the translation catalogs (locale/, trainer/wording/locale/) and compile them"
	@echo "make clean  remove .venv, caches, the dev database and browser screenshots"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $(STAMP)

# The tools are pinned by constraints/dev.txt, so a new release cannot change what CI checks.
$(DEV_STAMP): pyproject.toml constraints/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev,bench,sim]' -c constraints/dev.txt
	touch $(STAMP) $(DEV_STAMP)

setup: $(STAMP)

setup-dev: $(DEV_STAMP)

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py seed
	$(BIN)/python manage.py cheatsheet_stats
	$(BIN)/python manage.py runserver 127.0.0.1:8000

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

# The engine strictly; the Django side through the django-stubs plugin at mypy's default
# strictness (the [tool.mypy] overrides in pyproject.toml).
typecheck: setup-dev
	$(BIN)/mypy --strict engine
	$(BIN)/mypy trainer concerto_site

# Test processes (pytest-xdist): one per core and one more by default (the browser tests spend
# much of their time waiting on Chromium, and another process works meanwhile); each takes the
# next test when it is free (worksteal), so no process idles while another holds a queue of
# long ones. TEST_WORKERS=0 runs everything in this process.
TEST_WORKERS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); echo $$((n + 1)))
XDIST = -n $(TEST_WORKERS) --dist worksteal

# The fast lane: everything but the `slow` volume sweeps (those run in .ci/run: `make test-slow`).
test: setup-dev chromium gettext cjk-fonts lint typecheck
	@$(MAKE) --no-print-directory fast-lane

# The fast lane's pytest alone, on whatever DATABASE_URL says (.ci/run: PostgreSQL).
fast-lane:
	$(BIN)/pytest -m "not slow" $(XDIST)

# The volume runs of the property tests (thousands more seeds); CI runs them after `make test`.
test-slow: setup-dev
	$(BIN)/pytest -m slow $(XDIST)

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
