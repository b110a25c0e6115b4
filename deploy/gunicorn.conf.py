"""gunicorn settings for Concerto Trainer, from the environment (see docs/operations.md)."""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# ASGI workers (uvicorn under gunicorn): pages and the live tables' WebSockets in one server.
# The channel layer (CHANNEL_LAYER_URL, Redis) joins the workers and machines, so a table's
# players may be connected to different processes. One worker per core: each is an event loop
# with its own threads for the views, so gunicorn's 2 × cores + 1 (for sync workers) only
# makes them queue for the cores (docs/operations.md, "The serving shape").
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "uvicorn_worker.UvicornWorker")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count())))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Restart workers now and then so that a slow leak cannot grow without bound.
max_requests = 2000
max_requests_jitter = 200
# Addresses whose X-Forwarded-* headers gunicorn believes (the TLS proxy). Django reads the
# client's address itself, from TRUSTED_PROXY_COUNT.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
