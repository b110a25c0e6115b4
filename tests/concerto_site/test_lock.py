"""requirements/runtime.txt, the runtime dependencies' lock (`make lock`): it pins every one of
pyproject.toml's [project] dependencies (and everything they need) with its hashes, the
interpreter running the tests has exactly those versions, and `make run`/`make serve`/`make
test` and deploy/Dockerfile install from it with hash checking. No network."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = "requirements/runtime.txt"
PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)\s*(?:;(?P<marker>.*))?$"
)


def _lock_entries() -> dict[str, tuple[str, str | None, list[str]]]:
    """The lock's pins by canonical name: (version, environment marker or None, hashes)."""
    text = (ROOT / LOCK).read_text(encoding="utf-8")
    # One requirement per logical line: a trailing backslash continues it (its hashes).
    logical = re.sub(r"\\\n", " ", text)
    entries: dict[str, tuple[str, str | None, list[str]]] = {}
    for raw in logical.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        assert not line.startswith("-") or line.startswith("--hash"), f"option in the lock: {line}"
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", line)
        spec = re.sub(r"\s*--hash=\S+", "", line).strip()
        match = PIN.match(spec)
        assert match, f"not an == pin: {spec!r}"
        marker = match["marker"].strip() if match["marker"] else None
        entries[canonicalize_name(match["name"])] = (match["version"], marker, hashes)
    return entries


def _project_dependencies() -> list[Requirement]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(text) for text in pyproject["project"]["dependencies"]]


def _applies(marker: str | None) -> bool:
    return marker is None or Marker(marker).evaluate()


def test_every_project_dependency_is_pinned_with_hashes():
    lock = _lock_entries()
    assert len(lock) >= 40
    for requirement in _project_dependencies():
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{requirement} is not in {LOCK}: run `make lock`"
        version, _, hashes = lock[name]
        assert hashes, f"{name}=={version} has no --hash=sha256: in {LOCK}"
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{LOCK} pins {name}=={version}, outside pyproject.toml's {requirement}"
        )
    for name, (version, _, hashes) in lock.items():
        assert hashes, f"{name}=={version} has no hash"


def test_the_lock_holds_everything_the_dependencies_need():
    """The lock is installed with --no-deps: each dependency's own requirements (with the extras
    asked for, e.g. psycopg[binary,pool], uvicorn[standard]) must be pinned in it too."""
    lock = _lock_entries()
    todo = [(canonicalize_name(r.name), frozenset(r.extras)) for r in _project_dependencies()]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        assert name in lock, f"{name} is needed but not in {LOCK}: run `make lock`"
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in (extras or {""})
            ):
                continue
            todo.append((canonicalize_name(requirement.name), frozenset(requirement.extras)))
    assert ("psycopg-pool", frozenset()) in seen


def test_the_running_interpreter_has_the_locked_versions():
    """`make test` installs the lock: the suite runs on what production runs."""
    wrong = []
    for name, (version, marker, _) in _lock_entries().items():
        if not _applies(marker):
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong.append(f"{name}=={version}: not installed")
            continue
        if Version(installed) != Version(version):
            wrong.append(f"{name}=={version}: {installed} installed")
    assert not wrong, f"not as {LOCK} pins (make setup-dev installs it): {wrong}"


def _make_variables(text: str) -> dict[str, str]:
    return dict(re.findall(r"^([A-Z_]+)\s*[:?]?=\s*(.*?)\s*$", text, flags=re.MULTILINE))


def _expand(text: str, variables: dict[str, str]) -> str:
    for _ in range(5):
        text = re.sub(r"\$\(([A-Z_]+)\)", lambda m: variables.get(m[1], m[0]), text)
    return text


def _makefile_rules() -> dict[str, tuple[list[str], list[str]]]:
    """Each Makefile rule, its target expanded: (prerequisites, recipe lines), a recipe's
    backslash-continued lines joined and its variables expanded."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = _make_variables(text)
    rules: dict[str, tuple[list[str], list[str]]] = {}
    current: list[str] | None = None
    for line in re.sub(r"\\\n\s*", " ", text).splitlines():
        if line.startswith("\t") and current is not None:
            current.append(_expand(line.strip(), variables))
            continue
        rule = re.match(r"^([^\s:=#][^:=]*):(?!=)(.*)$", line)
        if rule:
            current = []
            prerequisites = _expand(rule[2], variables).replace("|", " ").split()
            rules[_expand(rule[1].strip(), variables)] = (prerequisites, current)
        elif line and not line.startswith("#"):
            current = None
    return rules


@pytest.mark.parametrize("stamp", [".venv/.installed", ".venv/.installed-dev"])
def test_the_makefile_installs_from_the_lock(stamp):
    prerequisites, recipe = _makefile_rules()[stamp]
    assert LOCK in prerequisites, f"{stamp} does not reinstall when {LOCK} changes"
    installs = [line for line in recipe if re.search(r"\bpip install\b", line)]
    assert installs, recipe
    first = installs[0].split()
    assert "--require-hashes" in first and "--no-deps" in first, installs[0]
    assert first[first.index("-r") + 1] == LOCK, installs[0]
    for line in installs[1:]:
        # After the lock, nothing may pick runtime versions: the project without its
        # dependencies, or the dev tools with the lock's pins as constraints.
        words = line.split()
        constraints = [words[i + 1] for i, word in enumerate(words) if word == "-c"]
        assert "--no-deps" in words or ".venv/runtime-pins.txt" in constraints, line
    if stamp.endswith("-dev"):
        assert any(
            "requirements/runtime.txt" in line and ".venv/runtime-pins.txt" in line
            for line in recipe
        ), "the dev install's constraints are not made from the lock"


def test_make_lock_compiles_the_lock_with_hashes():
    prerequisites, recipe = _makefile_rules()["lock"]
    compile_line = next(line for line in recipe if "pip-compile" in line)
    for option in ("--generate-hashes", f"-o {LOCK}", "pyproject.toml"):
        assert option in compile_line, compile_line
    assert re.search(r"pip-tools==\d", " ".join(_makefile_rules()[prerequisites[0]][1]))
    assert "#    make lock" in (ROOT / LOCK).read_text(encoding="utf-8")


def test_the_dockerfile_installs_from_the_lock():
    text = re.sub(r"\\\n\s*", " ", (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8"))
    assert re.search(rf"^COPY .*\b{re.escape(LOCK)}\b", text, flags=re.MULTILINE), (
        f"deploy/Dockerfile does not copy {LOCK}"
    )
    installs = re.findall(r"pip install [^&\n]*", text)
    assert installs, "deploy/Dockerfile installs nothing"
    first = installs[0].split()
    assert "--require-hashes" in first and "--no-deps" in first, installs[0]
    assert first[first.index("-r") + 1] == LOCK, installs[0]
    for line in installs[1:]:
        assert "--no-deps" in line.split(), f"deploy/Dockerfile resolves dependencies: {line}"


def test_ci_and_the_units_install_nothing_themselves():
    """.ci/run goes through `make test`, the systemd units through `make setup`."""
    files = [ROOT / ".ci" / "run", *sorted((ROOT / "deploy").glob("*.service"))]
    assert len(files) >= 3
    for file in files:
        assert not re.search(r"\bpip3? install\b", file.read_text(encoding="utf-8")), file
