#!/usr/bin/env bash
# Production-like start: migrate, create the cache table, collect static files, then gunicorn
# with uvicorn workers (ASGI).
# Every setting comes from the environment (see docs/operations.md); `make serve`, the systemd
# unit and the container image all run this. PYTHON picks the interpreter (default: the
# project's .venv if there is one, else python3 on the PATH).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
export DJANGO_ENV=${DJANGO_ENV:-production}

"$PYTHON" manage.py migrate --noinput
"$PYTHON" manage.py createcachetable
# The cheat sheet's "in 2,000 deals" odds: computed once per card version, never in a request.
"$PYTHON" manage.py cheatsheet_stats
"$PYTHON" manage.py collectstatic --noinput -v 0
# ASGI: HTTP and the live tables' WebSockets (uvicorn workers; see deploy/gunicorn.conf.py).
exec "$PYTHON" -m gunicorn concerto_site.asgi:application -c deploy/gunicorn.conf.py
