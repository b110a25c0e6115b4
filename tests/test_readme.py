"""Every engine command shown in README.md runs and exits 0."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ".venv/bin/python"
#: A README tournament runs here on at most this many deals: the test is that the command as
#: written runs, and its volume is the tournament tests' business.
TEST_DEALS = 20


def _code_block_lines(text: str) -> list[str]:
    lines: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            inside = not inside
        elif inside:
            lines.append(line.strip())
    return lines


def engine_commands() -> list[str]:
    """The README's code-block lines that run ``.venv/bin/python -m engine``."""
    lines = _code_block_lines((ROOT / "README.md").read_text(encoding="utf-8"))
    return [line for line in lines if f"{PYTHON} -m engine" in line]


def test_the_readme_shows_engine_commands():
    commands = engine_commands()
    assert len(commands) >= 10
    assert any(" leftovers " in c for c in commands) and any("|" in c for c in commands)


@pytest.mark.parametrize("line", engine_commands())
def test_every_engine_command_in_the_readme_runs(line):
    # The README's interpreter is .venv's; run the same command with this test's interpreter.
    command = re.sub(
        rf"(^|\s){re.escape(PYTHON)}(?=\s)", rf"\g<1>{shlex.quote(sys.executable)}", line
    )
    command = re.sub(
        r"--deals (\d+)", lambda m: f"--deals {min(int(m.group(1)), TEST_DEALS)}", command
    )
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (line, done.stderr)
    assert done.stdout.strip(), line
    assert not done.stderr, (line, done.stderr)
