"""A club's card in use: its house card for members' drills and cheat sheet, found by name in
any process (the engine's resolver), and versions that keep what was made with them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.drills import DrillParams, make_drill
from engine.errors import UnknownConventionError
from engine.seats import Seat
from engine.signals import get_convention
from engine.signals.conventions import _REGISTERED
from trainer.cards import selectors, services
from trainer.clubs import services as club_services
from trainer.core.game import conventions

from ..factories import answer, user
from .factories import card_json, club_owner, form_post, make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_card():
    organiser = user("olive")
    owner = club_owner(organiser)
    version = make_card(owner, organiser, **{"row:two_threes:suits": "different_suits"})
    return version, owner, organiser


def test_the_engine_finds_a_version_by_its_name_in_a_fresh_process(club_card):
    version, _, _ = club_card
    _REGISTERED.pop(version.name, None)  # as in a worker that has never seen it
    conv = get_convention(version.name)
    assert conv.name == version.name and conv.title == "Our card"
    assert conv.rows_for("two_threes")[0].pattern.suits == {"same_colour", "different_colour"}
    with pytest.raises(UnknownConventionError):
        get_convention(f"club-{version.card_id}-000000000000")
    with pytest.raises(UnknownConventionError):
        get_convention("club-0-abc")


def test_members_drill_and_read_the_cheat_sheet_with_the_house_card(client, club_card):
    version, owner, organiser = club_card
    services.default_set(actor=organiser, version=version)
    owner.club.refresh_from_db()
    assert owner.club.convention == version.name
    member = user()
    club_services.club_join(user=member, club=owner.club)
    client.force_login(member)
    page = client.get(reverse("drill-next", args=["read"]))
    assert page.status_code == 200
    assert f"convention={version.name}" in page.content.decode()
    sheet = client.get(reverse("cheatsheet"))
    assert sheet.status_code == 200 and "Our card" in sheet.content.decode()
    assert owner.club.convention_title == "Our card"


def test_an_answer_keeps_the_version_it_was_made_with(club_card):
    version, _, organiser = club_card
    member = user()
    attempt = answer(member, kind="read", seed=3, params=DrillParams(convention=version.name))
    services.card_save(
        actor=organiser,
        card=version.card,
        data=card_json(form_post(selectors.version_card(version), title="Our card v2")),
    )
    newer = selectors.newest_version(version.card)
    assert newer.number == 2 and newer.name != version.name
    assert f"convention={version.name}" in attempt.params
    _REGISTERED.pop(version.name, None)
    assert make_drill("read", 3, DrillParams.from_key(attempt.params)).convention.name == (
        version.name
    )


def test_saving_a_new_version_moves_the_house_card_along(club_card):
    version, owner, organiser = club_card
    services.default_set(actor=organiser, version=version)
    services.card_save(
        actor=organiser,
        card=version.card,
        data=card_json(form_post(selectors.version_card(version), **{"item:fours": "out"})),
    )
    owner.club.refresh_from_db()
    assert owner.club.convention == selectors.newest_version(version.card).name


def test_the_core_knows_the_clubs_cards(club_card):
    version, owner, _ = club_card
    assert conventions.is_known(version.name) and not conventions.is_known("club-1-nope")
    assert conventions.allowed(version.name, club=owner.club)
    assert (version.name, "Our card") in conventions.choices(club=owner.club)
    assert conventions.title(version.name) == "Our card"


def test_a_class_card_is_derived_from_the_1994_card(client):
    from .factories import class_owner

    teacher = user()
    owner = class_owner(teacher)
    client.force_login(teacher)
    new = reverse("cards:new") + f"?class={owner.classroom.pk}&from=teach-yourself-1994"
    page = client.get(new)
    assert page.status_code == 200
    # The 1994 card has no fours row: the item can only be played out.
    assert 'name="item-fours"' in page.content.decode()
    post = form_post(base="teach-yourself-1994", title="Year 9 card")
    assert client.post(new, post).status_code == 302


def test_a_class_sets_built_drills_with_its_own_card_and_no_other_class_can(client):
    from datetime import timedelta

    from django.core.exceptions import ValidationError
    from django.utils import timezone

    from trainer.classes import services as class_services
    from trainer.classes.specs import BuiltSpec

    from .factories import class_owner

    teacher = user()
    owner = class_owner(teacher)
    version = make_card(owner, teacher, **{"row:two_threes:suits": "different_suits"})
    spec = BuiltSpec(kinds=("read",), items=("two_threes",), count=2, convention=version.name)
    due = timezone.localdate() + timedelta(days=3)
    assignment = class_services.assignment_create(
        classroom=owner.classroom, by=teacher, title="Our card", due_on=due, spec=spec
    )
    assert assignment.convention == version.name and assignment.convention_title == "Our card"
    assert all(f"convention={version.name}" in d.params for d in assignment.drills.all())
    other_teacher = user()
    other = class_owner(other_teacher, name="Year 10")
    with pytest.raises(ValidationError):
        class_services.assignment_create(
            classroom=other.classroom, by=other_teacher, title="Theirs", due_on=due, spec=spec
        )
    client.force_login(teacher)
    form = client.get(reverse("classes:assignment-create", args=[owner.classroom.pk]))
    assert version.name in form.content.decode()


def test_members_play_and_are_coached_with_the_house_card(client, club_card):
    from engine.play import PlaySetup, PlayTable, coach_lead, parse_actions
    from trainer.play.models import Game

    version, owner, organiser = club_card
    services.default_set(actor=organiser, version=version)
    member = user()
    club_services.club_join(user=member, club=owner.club)
    client.force_login(member)

    page = client.get("/play/").content.decode()
    assert f'<option value="{version.name}" selected>' in page
    response = client.post(
        "/play/",
        {
            "convention": version.name,
            "rule": "classic",
            "opponents": "signal",
            "length": "deal",
            "coach": "on",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get(owner=member)
    setup = PlaySetup.from_json(game.setup)
    assert setup.convention == version.name
    table = PlayTable.replay(setup, parse_actions(game.actions))
    assert client.get(response["Location"]).status_code == 200
    # the coach advises by the club's card: its advice is the club card's encoding
    advice = coach_lead(table)
    if advice is not None:
        from engine.signals import encode

        held = table.deal.held(Seat.S)
        assert advice.item == str(
            encode(held, table.deal.side_hand, get_convention(version.name)).item
        )
    # a stranger's card is not offered to someone outside the club
    other = user()
    client.force_login(other)
    assert version.name not in client.get("/play/").content.decode()
    refused = client.post(
        "/play/",
        {
            "convention": version.name,
            "rule": "classic",
            "opponents": "signal",
            "length": "deal",
            "coach": "on",
        },
    )
    assert refused.status_code == 400 and not Game.objects.filter(owner=other).exists()


def test_a_live_table_can_be_opened_with_the_house_card(client, club_card):
    from trainer.play.models import LiveTable

    version, owner, organiser = club_card
    services.default_set(actor=organiser, version=version)
    member = user()
    club_services.club_join(user=member, club=owner.club)
    client.force_login(member)

    response = client.post(
        "/play/tables/new/",
        {
            "convention": version.name,
            "rule": "classic",
            "opponents": "signal",
            "length": "deal",
            "seat": "S",
        },
    )

    assert response.status_code == 302
    assert LiveTable.objects.get(host=member).settings["convention"] == version.name


def test_lessons_note_where_the_house_card_differs_from_parletts(client, club_card):
    from django.conf import settings

    from trainer.core.seeding import discover_loaders, load_file
    from trainer.learn.teaching import lesson_slug

    discover_loaders()
    for path in sorted((settings.BASE_DIR / "seeds" / "lessons").glob("*.md")):
        load_file(path)
    version, owner, organiser = club_card
    services.default_set(actor=organiser, version=version)
    member, outsider = user(), user()
    club_services.club_join(user=member, club=owner.club)
    teaching = lesson_slug("lead", "two_threes")
    assert teaching is not None
    other = next(s for s in ("the-game", "weak-signals") if s != teaching)

    client.force_login(member)
    page = client.get(f"/learn/{teaching}/").content.decode()
    assert "data-house-card" in page and 'data-house-row="two_threes' in page
    assert "Our card" in page and f"?convention={version.name}" in page
    assert "data-house-card" not in client.get(f"/learn/{other}/").content.decode()
    client.force_login(outsider)  # Parlett's card: nothing to note
    assert "data-house-card" not in client.get(f"/learn/{teaching}/").content.decode()
