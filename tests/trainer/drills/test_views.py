import re

import pytest
from django.test import Client

from engine.drills import DrillParams, answer_key, grade, make_drill, parse_answer
from engine.signals import encode
from tests.trainer import factories
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db


def showing_of(html: str) -> str:
    return re.search(r'name="showing" value="([^"]+)"', html)[1]


def get_drill(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def learner(client):
    user = factories.user()
    client.force_login(user)
    return user


def test_menu_lists_every_kind_and_skill_links(client):
    html = get_drill(client, "/drills/")
    for kind in ("lead", "read", "checklist", "score", "reply"):
        assert f'href="/drills/{kind}/"' in html
    assert "/drills/lead/?items=four_sf" in html


def test_a_drill_by_url_shows_its_hand_as_card_buttons(client):
    drill = make_drill("lead", 17)
    html = get_drill(client, "/drills/lead/17/?v=2")
    for card in drill.hand:
        assert f'name="c1" value="{card}"' in html
    assert "Choose your first card" in html


def test_the_next_drill_page_pushes_its_permalink_for_htmx(client):
    response = client.get("/drills/checklist/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert re.fullmatch(r"/drills/checklist/\d+/\?v=2", response["HX-Push-Url"])
    assert "<html" not in response.content.decode()
    assert 'id="drill-area"' in response.content.decode()


def test_choosing_the_first_card_asks_for_the_second(client):
    drill = make_drill("lead", 17)
    html = get_drill(client, "/drills/lead/17/?v=2")
    c1 = drill.hand[0]
    response = client.post("/drills/lead/17/?v=2", {"showing": showing_of(html), "c1": str(c1)})
    page = response.content.decode()
    assert response.status_code == 200
    assert f'name="c1" value="{c1}"' in page and 'name="c2" value="pass"' in page
    assert Attempt.objects.count() == 0


def test_a_right_lead_is_graded_and_recorded(client, learner):
    drill = make_drill("lead", 17, DrillParams(side_hand=1))
    html = get_drill(client, "/drills/lead/17/?v=2&side_hand=1")
    c1, c2 = encode(drill.hand, 1).plays[0]
    response = client.post(
        "/drills/lead/17/?v=2&side_hand=1",
        {"showing": showing_of(html), "c1": str(c1), "c2": str(c2) if c2 else "pass"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Right." in page and "<html" not in page
    attempt = Attempt.objects.get()
    assert attempt.user == learner and attempt.correct and attempt.params == "side_hand=1&v=2"
    assert attempt.time_taken_ms is not None


def test_a_double_post_records_one_attempt(client, learner):
    drill = make_drill("checklist", 4)
    html = get_drill(client, "/drills/checklist/4/?v=2")
    data = {"showing": showing_of(html), "option": factories.right_option(drill)}
    client.post("/drills/checklist/4/?v=2", data)
    client.post("/drills/checklist/4/?v=2", data)
    assert Attempt.objects.count() == 1


def test_anonymous_answers_are_graded_but_not_stored(client):
    drill = make_drill("checklist", 4)
    html = get_drill(client, "/drills/checklist/4/?v=2")
    response = client.post(
        "/drills/checklist/4/?v=2",
        {"showing": showing_of(html), "option": factories.wrong_option(drill)},
    )
    assert response.status_code == 200
    assert "Not quite" in response.content.decode()
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"c1": "ZZ", "c2": "pass"}, "Not a card"),
        ({"c1": "", "c2": ""}, "needs a first card"),
    ],
)
def test_malformed_lead_posts_are_400_with_a_reason_and_write_nothing(
    client, learner, data, message
):
    html = get_drill(client, "/drills/lead/17/?v=2")
    response = client.post("/drills/lead/17/?v=2", {"showing": showing_of(html), **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Attempt.objects.count() == 0


def test_a_card_not_in_the_hand_is_400(client, learner):
    drill = make_drill("lead", 17)
    html = get_drill(client, "/drills/lead/17/?v=2")
    outside = next(c for c in __import__("engine.cards").cards.DECK if c not in drill.hand)
    response = client.post(
        "/drills/lead/17/?v=2",
        {"showing": showing_of(html), "c1": str(drill.hand[0]), "c2": str(outside)},
    )
    assert response.status_code == 400
    assert "is not in your hand" in response.content.decode()
    assert Attempt.objects.count() == 0


def test_an_unknown_option_is_400(client, learner):
    html = get_drill(client, "/drills/checklist/4/?v=2")
    response = client.post(
        "/drills/checklist/4/?v=2", {"showing": showing_of(html), "option": "royal_flush"}
    )
    assert response.status_code == 400
    assert Attempt.objects.count() == 0


def test_a_missing_or_tampered_showing_is_400(client, learner):
    drill = make_drill("checklist", 4)
    option = factories.right_option(drill)
    assert client.post("/drills/checklist/4/?v=2", {"option": option}).status_code == 400
    html = get_drill(client, "/drills/checklist/4/?v=2")
    tampered = showing_of(html)[:-2] + "xx"
    response = client.post("/drills/checklist/4/?v=2", {"showing": tampered, "option": option})
    assert response.status_code == 400
    assert "damaged" in response.content.decode()
    assert Attempt.objects.count() == 0


def test_an_answer_for_another_drill_is_400(client, learner):
    html = get_drill(client, "/drills/checklist/5/?v=2")
    drill = make_drill("checklist", 4)
    response = client.post(
        "/drills/checklist/4/?v=2",
        {"showing": showing_of(html), "option": factories.right_option(drill)},
    )
    assert response.status_code == 400
    assert "different drill" in response.content.decode()
    assert Attempt.objects.count() == 0


def test_an_answer_for_the_same_seed_with_other_settings_is_400(client, learner):
    """The showing token names the drill's settings too: the same kind and seed under the
    other card is another drill."""
    html = get_drill(client, "/drills/checklist/4/?v=2&convention=teach-yourself-1994")
    drill = make_drill("checklist", 4)
    response = client.post(
        "/drills/checklist/4/?v=2",
        {"showing": showing_of(html), "option": factories.right_option(drill)},
    )
    assert response.status_code == 400
    assert "different drill" in response.content.decode()
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize(
    "url",
    [
        "/drills/poker/",
        "/drills/poker/3/?v=2",
        "/drills/lead/99999999999999999999/?v=2",
        "/drills/lead/3/?v=2&side_hand=9",
        "/drills/lead/?items=royal",
    ],
)
def test_unknown_kinds_seeds_and_params_are_400_with_a_reason(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "feedback bad" in response.content.decode()


def test_an_htmx_error_is_retargeted_to_the_feedback_area(client):
    response = client.post("/drills/poker/3/?v=2", {}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#feedback"


def test_posts_need_the_csrf_token(learner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    html = get_drill(client, "/drills/checklist/4/?v=2")
    drill = make_drill("checklist", 4)
    response = client.post(
        "/drills/checklist/4/?v=2",
        {"showing": showing_of(html), "option": factories.right_option(drill)},
    )
    assert response.status_code == 403
    assert Attempt.objects.count() == 0


def test_review_serves_the_most_overdue_skill(client, learner):
    from datetime import timedelta

    from django.utils import timezone

    factories.answer(
        learner,
        correct=False,
        params=DrillParams(items=("fours",)),
        now=timezone.now() - timedelta(hours=2),
    )
    response = client.get("/drills/review/")
    assert response.status_code == 302
    assert response["Location"].startswith("/drills/checklist/?")
    assert "items=fours" in response["Location"] and "review=1" in response["Location"]


def test_review_with_nothing_due_says_so(client, learner):
    html = client.get("/drills/review/").content.decode()
    assert "Nothing due right now" in html
    assert "data-summary" in html


def test_next_goes_to_a_local_next_address_only(client):
    html = get_drill(client, "/drills/checklist/4/?v=2&next=/classes/")
    assert 'href="/classes/"' in html
    html = get_drill(client, "/drills/checklist/4/?v=2&next=https://evil.example/")
    assert "evil.example" not in html


def test_the_drill_page_query_count_does_not_grow_with_attempts(
    client, learner, django_assert_num_queries
):
    html = get_drill(client, "/drills/checklist/4/?v=2")
    drill = make_drill("checklist", 4)
    data = {"showing": showing_of(html), "option": factories.right_option(drill)}

    def measure():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            client.get("/drills/checklist/4/?v=2")
        return len(ctx.captured_queries)

    client.post("/drills/checklist/4/?v=2", data)
    before = measure()
    for seed in range(10, 30):
        factories.answer(learner, seed=seed, correct=seed % 2 == 0)
    assert measure() == before


def test_the_custom_drill_form_goes_to_a_drill_with_those_settings(client):
    response = client.get(
        "/drills/custom/",
        {
            "kind": "read",
            "side_hand": "3",
            "items": ["four_flush", "three_flush"],
            "own_hand": "1",
            "convention": "parlett-2008",
            "rule": "classic",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == (
        "/drills/read/?side_hand=3&items=four_flush%2Cthree_flush&own_hand=1&v=2"
    )


def test_the_custom_drill_form_refuses_impossible_settings(client):
    response = client.get(
        "/drills/custom/", {"kind": "read", "items": ["fours"], "convention": "teach-yourself-1994"}
    )
    assert response.status_code == 400
    assert "cannot be" in response.content.decode()


def test_a_drill_address_means_the_same_drill_whatever_the_viewers_defaults(client):
    plain = client.get("/drills/lead/12/?v=2").content.decode()
    client.post("/settings/", {"convention": "teach-yourself-1994", "rule": "contribution"})
    again = client.get("/drills/lead/12/?v=2").content.decode()
    hand = re.findall(r'name="c1" value="([^"]+)"', plain)
    assert hand == re.findall(r'name="c1" value="([^"]+)"', again)
    assert "Parlett 2008" in again
    fresh = client.get("/drills/lead/", headers={"HX-Request": "true"})
    assert "convention=teach-yourself-1994" in fresh["HX-Push-Url"]


def test_the_pushed_address_keeps_the_next_step(client):
    response = client.get("/drills/checklist/?next=/classes/", headers={"HX-Request": "true"})
    assert "next=%2Fclasses%2F" in response["HX-Push-Url"]


def _cards_shown(html: str) -> set[str]:
    """Labels of every card face in the page (``title="Ace of spades"``)."""
    return set(re.findall(r'class="card [^"]*" title="([^"]+)"', html))


@pytest.mark.parametrize("kind", ["read", "reply"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_partners_hidden_cards_appear_only_after_the_answer(client, kind, seed):
    drill = make_drill(kind, seed, DrillParams())
    url = f"/drills/{kind}/{seed}/?v=2"
    html = get_drill(client, url)
    hidden = {c.label for c in drill.source} - {c.label for c in drill.signal if c}
    assert hidden and not hidden & _cards_shown(html)

    answer = client.post(url, {"showing": showing_of(html), "option": drill.options[0].key})
    after = answer.content.decode()
    assert answer.status_code == 200
    assert hidden <= _cards_shown(after)
    assert "data-reveal" in after
    assert 'class="odds-chart"' in after and "odds-chart" not in html


def test_a_link_from_the_first_generator_is_retired_with_a_way_on(client):
    response = client.get("/drills/lead/17/")
    page = response.content.decode()
    assert response.status_code == 410
    assert "retired" in page and 'href="/drills/lead/"' in page
    assert client.get("/drills/lead/17/?v=1").status_code == 410
    assert client.get("/drills/lead/17/?v=7").status_code == 400


def test_an_answer_to_a_retired_drill_writes_nothing(client, learner):
    response = client.post("/drills/checklist/4/", {"showing": "x", "option": "fours"})
    assert response.status_code == 410
    assert not Attempt.objects.exists()


def test_graded_options_are_marked_by_icon_and_words(client):
    drill = make_drill("checklist", 4, DrillParams())
    html = get_drill(client, "/drills/checklist/4/?v=2")
    right = next(o.key for o in drill.options if o.key == drill.skill)
    wrong = next(o.key for o in drill.options if o.key != right)
    page = client.post(
        "/drills/checklist/4/?v=2", {"showing": showing_of(html), "option": wrong}
    ).content.decode()
    assert "chosen-wrong" in page and "right-answer" in page
    assert "✗</span> your answer" in page and "✓</span> right answer" in page


def _answer_post(drill) -> dict[str, str]:
    """A right answer's form fields (any answer would do: this is about what is shown)."""
    key = answer_key(drill).accepted[0]
    if drill.kind == "lead":
        c1, c2 = key.split()
        return {"c1": c1, "c2": c2}
    return {"option": key}


def _before_answer_pages(client, drill, url):
    """Every page of ``drill`` shown before it is answered: the full page, the htmx partial,
    and a lead's first step (full and partial)."""
    html = get_drill(client, url)
    yield html
    partial = client.get(url, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "<html" not in partial.text
    yield partial.text
    if drill.kind == "lead":
        first = _answer_post(drill)["c1"]
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            step = client.post(url, {"showing": showing_of(html), "c1": first}, **headers)
            assert step.status_code == 200
            yield step.text


@pytest.mark.parametrize("kind", ["score", "checklist", "lead", "read", "reply"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_page_shows_a_card_the_learner_may_not_see_yet(client, kind, seed):
    """Before the answer only the learner's own cards, the table and the signal have faces in
    the HTML (full pages and htmx partials); after it, also what the answer reveals."""
    drill = make_drill(kind, seed, DrillParams())
    url = f"/drills/{kind}/{seed}/?v=2"
    signal = {c.label for c in (drill.signal or ()) if c}
    visible = {c.label for c in (*drill.visible, *drill.cards)} | signal
    hidden = {c.label for c in drill.source} - visible
    assert bool(hidden) == (kind in ("read", "reply"))  # the kinds with a hidden leader's hand
    for page in _before_answer_pages(client, drill, url):
        shown = _cards_shown(page)
        assert not shown & hidden
        assert shown <= visible, shown - visible

    html = get_drill(client, url)
    verdict = grade(drill, parse_answer(drill, _answer_post(drill)))
    revealed = visible | {c.label for c in (*verdict.reveal, *verdict.highlight)}
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        answered = client.post(url, {"showing": showing_of(html), **_answer_post(drill)}, **headers)
        assert answered.status_code == 200
        shown = _cards_shown(answered.text)
        assert shown <= revealed, shown - revealed
        assert hidden & shown or not hidden  # read and reply reveal partner's hand


def test_restoring_history_after_a_cache_miss_gets_the_whole_page(client):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
    response = client.get("/drills/checklist/4/?v=2", **headers)
    assert response.status_code == 200
    assert "<html" in response.text and "HX-Push-Url" not in response


def test_an_htmx_drill_request_gets_the_partial_and_its_address(client):
    response = client.get("/drills/checklist/4/?v=2", HTTP_HX_REQUEST="true")
    assert "<html" not in response.text
    assert response["HX-Push-Url"] == "/drills/checklist/4/?v=2"


def test_vary_is_sent_exactly_where_a_page_depends_on_htmx(client):
    assert "HX-Request" in client.get("/drills/checklist/4/?v=2")["Vary"]
    assert "HX-Request" in client.get("/drills/checklist/")["Vary"]
    assert "HX-Request" not in client.get("/drills/").get("Vary", "")


def test_a_refused_answer_from_htmx_is_swapped_into_the_feedback(client):
    response = client.post(
        "/drills/checklist/4/?v=2", {"showing": "forged", "option": "x"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "damaged" in response.text
