"""The Makefile's entry points as a newcomer calls them (printed with `make -n`, nothing run)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "address"),
    [([], "127.0.0.1:8000"), (["PORT=8123"], "127.0.0.1:8123"), (["HOST=0.0.0.0"], "0.0.0.0:8000")],
)
def test_make_run_serves_where_asked(args, address):
    """`make run PORT=… HOST=…` moves the server; the environment's HOST and PORT do not."""
    env = {**os.environ, "HOST": "elsewhere", "PORT": "1"}
    shown = subprocess.run(
        ["make", "-n", "run", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert f"manage.py runserver {address}\n" in shown
