"""gunicorn settings for Concerto Trainer, from the environment (see docs/operations.md)."""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# ASGI workers (uvicorn under gunicorn): pages and the live tables' WebSockets in one server.
# The channel layer (CHANNEL_LAYER_URL, Redis) joins the workers and machines, so a table's
# players may be connected to different processes. One worker per core: each is an event loop
# with its own threads for the views, so gunicorn's 2 × cores + 1 (for sync workers) only
# makes them queue for the cores (docs/operations.md, "The serving shape").
# (uvicorn with the proxy headers left to Django: see concerto_site/uvicorn_worker.py)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "concerto_site.uvicorn_worker.UvicornWorker")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count())))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# No restarts after N requests by default: a worker's restart closes every live table's socket
# it holds (the pages reconnect to another worker, but each player sees a flicker and the
# "paused" banner). MAX_REQUESTS=N turns it on against a slow leak; the worker then finishes
# its requests and closes its sockets with 1012 (service restart) before it goes.
max_requests = int(os.environ.get("MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
# gunicorn's own X-Forwarded-* trust (its sync workers only). The ASGI workers ignore the
# headers; Django reads them (TRUSTED_PROXY_COUNT, SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
