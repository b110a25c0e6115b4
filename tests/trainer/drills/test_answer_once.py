"""One answer POST builds the drill once, reads the answer once and grades it once.

The drill page builds the drill from its address, the form reads the answer, and the progress
service grades and records that answer: nothing is rebuilt, re-read or re-graded on the way.
"""

import re
from collections import Counter

import pytest

from engine.drills import answer_key, make_drill, spec_for
from engine.drills import build as drill_build
from tests.trainer import factories
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db


@pytest.fixture
def calls(monkeypatch):
    """Counts of every kind's ``build``, ``parse`` and ``grade`` calls. The drill cache is
    bypassed, so each time a drill is made from its address its kind builds it again."""
    counted: Counter[str] = Counter()
    monkeypatch.setattr(drill_build, "_make_drill", drill_build._make_drill.__wrapped__)
    for kind in ("lead", "checklist"):
        cls = type(spec_for(kind))
        for name in ("build", "parse", "grade"):
            original = getattr(cls, name)

            def counting(self, *args, _original=original, _name=name, **kwargs):
                counted[_name] += 1
                return _original(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, counting)
    return counted


def _answer_fields(kind: str, seed: int) -> dict[str, str]:
    key = answer_key(make_drill(kind, seed)).preferred
    if kind == "lead":
        c1, c2 = key.split()
        return {"c1": c1, "c2": c2}
    return {"option": key}


@pytest.mark.parametrize("signed_in", [True, False])
@pytest.mark.parametrize("kind", ["lead", "checklist"])
def test_an_answer_post_builds_parses_and_grades_once(client, calls, kind, signed_in):
    if signed_in:
        client.force_login(factories.user())
    url = f"/drills/{kind}/17/?v=2"
    fields = _answer_fields(kind, 17)
    page = client.get(url).content.decode()
    showing = re.search(r'name="showing" value="([^"]+)"', page)[1]
    calls.clear()

    response = client.post(url, {"showing": showing, **fields})

    assert response.status_code == 200
    assert "✓" in response.content.decode()
    assert calls == {"build": 1, "parse": 1, "grade": 1}
    assert Attempt.objects.count() == (1 if signed_in else 0)
