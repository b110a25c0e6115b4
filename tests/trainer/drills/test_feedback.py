"""Feedback that teaches: the cards forming the item outlined in the learner's own hand, the
contribution rule's split, and a score drill's header without a side hand."""

import re

import pytest

from engine.drills import DrillParams, grade, make_drill, parse_answer
from engine.signals import encode
from tests.trainer import factories

pytestmark = pytest.mark.django_db


def showing_of(html: str) -> str:
    return re.search(r'name="showing" value="([^"]+)"', html)[1]


def _post(client, url: str, data: dict) -> str:
    html = client.get(url).content.decode()
    response = client.post(url, {"showing": showing_of(html), **data})
    assert response.status_code == 200
    return response.content.decode()


def _outlined(html: str, where: str) -> set[str]:
    """The titles of the cards with the ``highlight`` class inside ``where``'s list."""
    part = html.split(where, 1)[1].split("</ul>", 1)[0]
    return set(re.findall(r'<span class="card [^"]*\bhighlight\b[^"]*" title="([^"]+)"', part))


def test_a_lead_outlines_the_items_cards_in_your_hand(client):
    drill = make_drill("lead", 17, DrillParams(side_hand=1))
    c1, c2 = encode(drill.hand, 1).plays[0]
    html = _post(
        client,
        "/drills/lead/17/?v=2&side_hand=1",
        {"c1": str(c1), "c2": str(c2) if c2 else "pass"},
    )
    expected = grade(drill, parse_answer(drill, {"c1": str(c1), "c2": str(c2) if c2 else "pass"}))
    assert expected.highlight
    assert _outlined(html, 'aria-label="Your hand"') == {c.label for c in expected.highlight}
    assert "data-highlight-note" in html


def test_a_checklist_answer_outlines_the_item_in_your_hand(client):
    drill = make_drill("checklist", 4)
    html = _post(client, "/drills/checklist/4/?v=2", {"option": factories.wrong_option(drill)})
    expected = grade(drill, parse_answer(drill, {"option": factories.right_option(drill)}))
    assert _outlined(html, 'aria-label="Your hand"') == {c.label for c in expected.highlight}


def test_an_unanswered_drill_outlines_nothing(client):
    html = client.get("/drills/checklist/4/?v=2").content.decode()
    assert " highlight" not in html.split('aria-label="Your hand"', 1)[1].split("</ul>", 1)[0]


def _contribution_drill() -> tuple[int, object]:
    """A score drill under the contribution rule whose value depends on the split."""
    for seed in range(1, 400):
        drill = make_drill("score", seed, DrillParams(rule="contribution", items=("fours",)))
        key = grade(drill, parse_answer(drill, {"option": factories.right_option(drill)}))
        if key.split is not None:
            return seed, key
    raise AssertionError("no split drill found")


def test_a_contribution_score_states_the_split_between_partners(client):
    seed, key = _contribution_drill()
    url = f"/drills/score/{seed}/?items=fours&rule=contribution&v=2"
    html = _post(
        client,
        url,
        {
            "option": factories.right_option(
                make_drill("score", seed, DrillParams(rule="contribution", items=("fours",)))
            )
        },
    )
    block = html.split("data-split>", 1)[1].split("</div>", 1)[0]
    text = " ".join(re.sub(r"<[^>]+>", " ", block).split())
    assert f"A {key.split.pattern} split: worth {key.split.points}" in text
    for seat, _cards in key.split.shares:
        assert seat.name_long in text
    assert "4 from one partner: 8 · 3 from one partner: 12 · 2 from one partner: 16" in text


def test_a_classic_score_shows_no_split(client):
    drill = make_drill("score", 5, DrillParams(items=("fours",)))
    html = _post(
        client, "/drills/score/5/?items=fours&v=2", {"option": factories.right_option(drill)}
    )
    assert "data-split" not in html
    assert _outlined(html, 'aria-label="Cards to score"')  # the scoring cards are outlined


def test_a_score_drill_names_no_side_hand(client):
    html = client.get("/drills/score/5/?v=2").content.decode()
    assert "Side hand" not in html
    assert "Side hand" in client.get("/drills/checklist/5/?v=2").content.decode()
