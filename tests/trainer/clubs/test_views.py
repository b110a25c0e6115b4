import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from engine.drills import make_drill
from trainer.clubs import selectors
from trainer.clubs.models import Club, ClubMembership
from trainer.drills.curation import right_answer

from .. import factories as f
from . import factories as cf

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return f.user("olive")


@pytest.fixture
def club(organiser):
    return cf.club(organiser, "Riverside")


@pytest.fixture
def member(club):
    user = f.user("ben")
    cf.join(club, user)
    return user


def _client(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


# Your clubs and founding one ---------------------------------------------------------------


def test_club_pages_need_an_account(client, club):
    for url in ("/clubs/", "/clubs/new/", f"/clubs/{club.slug}/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_club_list_shows_your_clubs_only(member, club):
    cf.club(f.user(), "Elsewhere")

    response = _client(member).get("/clubs/")

    assert "Riverside" in response.text
    assert "Elsewhere" not in response.text


def test_founding_a_club_makes_you_its_organiser():
    founder = f.user()

    response = _client(founder).post(
        "/clubs/new/",
        {"name": "Thursday Concerto", "convention": "parlett-2008", "rule": "contribution"},
    )

    club = Club.objects.get(name="Thursday Concerto")
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.slug}/"
    assert club.rule == "contribution"
    assert club.memberships.get().role == "organiser"


def test_founding_refuses_unknown_rules():
    response = _client(f.user()).post(
        "/clubs/new/", {"name": "Odd", "convention": "house-special", "rule": "classic"}
    )

    assert response.status_code == 200
    assert not Club.objects.exists()


# Permission boundaries ---------------------------------------------------------------------


def _club_urls(slug: str, user_id: int = 1) -> dict[str, str]:
    return {
        "detail": f"/clubs/{slug}/",
        "path": f"/clubs/{slug}/path/",
        "step": f"/clubs/{slug}/path/1/",
        "next": f"/clubs/{slug}/path/1/next/",
        "members": f"/clubs/{slug}/members/",
    }


def _club_posts(slug: str, user_id: int) -> list[str]:
    return [
        f"/clubs/{slug}/invite/rotate/",
        f"/clubs/{slug}/rules/",
        f"/clubs/{slug}/members/{user_id}/promote/",
    ]


def test_non_members_get_404_for_every_club_page(club, member):
    outsider = _client(f.user())

    for url in _club_urls(club.slug).values():
        assert outsider.get(url).status_code == 404, url
    for url in _club_posts(club.slug, member.pk):
        assert (
            outsider.post(url, {"convention": "parlett-2008", "rule": "classic"}).status_code == 404
        ), url


def test_guessed_slugs_get_404(member):
    client = _client(member)

    for url in _club_urls("no-such-club").values():
        assert client.get(url).status_code == 404


def test_an_organiser_of_another_club_sees_nothing_of_this_one(club, member):
    rival = f.user()
    cf.club(rival, "Rivals")

    response = _client(rival).get(f"/clubs/{club.slug}/members/")

    assert response.status_code == 404
    assert "ben" not in response.text


def test_a_member_sees_the_club_page_but_not_other_members(club, member):
    other = f.user("cleo")
    cf.join(club, other)
    client = _client(member)

    page = client.get(f"/clubs/{club.slug}/")
    members_page = client.get(f"/clubs/{club.slug}/members/")

    assert page.status_code == 200
    assert "Riverside" in page.text and "olive" in page.text  # the organisers are named
    assert "cleo" not in page.text
    assert club.invite_token not in page.text
    assert members_page.status_code == 403


def test_a_member_cannot_use_organiser_actions(club, member):
    client = _client(member)
    token = club.invite_token

    for url in _club_posts(club.slug, member.pk):
        assert (
            client.post(url, {"convention": "teach-yourself-1994", "rule": "classic"}).status_code
            == 403
        ), url

    club.refresh_from_db()
    assert club.invite_token == token and club.convention == "parlett-2008"
    assert club.memberships.get(user=member).role == "member"


def test_organiser_sees_every_members_position(club, organiser, member):
    step = cf.load_step(1)
    cf.pass_step(member, step)

    response = _client(organiser).get(f"/clubs/{club.slug}/members/")

    assert response.status_code == 200
    rows = re.findall(r'<span class="member-name">(\w+)</span>', response.text)
    assert rows == ["olive", "ben"]
    assert "Step 2: Scoring and left-overs" in response.text


def test_every_write_needs_csrf(club, organiser, member):
    client = _client(organiser, enforce_csrf_checks=True)
    posts = [*_club_posts(club.slug, member.pk), "/clubs/new/", f"/clubs/join/{club.invite_token}/"]

    for url in posts:
        assert (
            client.post(
                url, {"name": "X", "convention": "parlett-2008", "rule": "classic"}
            ).status_code
            == 403
        ), url


def test_organiser_actions_are_post_only(club, organiser, member):
    client = _client(organiser)

    for url in _club_posts(club.slug, member.pk):
        assert client.get(url).status_code == 405


# Joining by invite --------------------------------------------------------------------------


def test_invite_link_shows_the_club_and_asks_a_visitor_to_sign_in(client, club):
    response = client.get(f"/clubs/join/{club.invite_token}/")

    assert response.status_code == 200
    assert "Join Riverside" in response.text
    assert f"/accounts/signup/?next=/clubs/join/{club.invite_token}/" in response.text


def test_opening_the_invite_does_not_join(club):
    visitor = f.user()

    _client(visitor).get(f"/clubs/join/{club.invite_token}/")

    assert not club.memberships.filter(user=visitor).exists()


def test_posting_the_invite_joins_and_opens_the_path(club):
    newcomer = f.user()

    response = _client(newcomer).post(f"/clubs/join/{club.invite_token}/")

    assert response["Location"] == f"/clubs/{club.slug}/path/"
    assert club.memberships.get(user=newcomer).role == "member"


def test_a_visitor_posting_the_invite_is_sent_to_log_in(client, club):
    response = client.post(f"/clubs/join/{club.invite_token}/")

    assert response["Location"].startswith("/accounts/login/?next=/clubs/join/")
    assert not ClubMembership.objects.filter(club=club, role="member").exists()


def test_wrong_or_rotated_tokens_get_404(club, organiser):
    old = club.invite_token
    client = _client(f.user())
    assert client.get("/clubs/join/not-a-real-token/").status_code == 404

    _client(organiser).post(f"/clubs/{club.slug}/invite/rotate/")

    assert client.get(f"/clubs/join/{old}/").status_code == 404
    assert client.post(f"/clubs/join/{old}/").status_code == 404
    club.refresh_from_db()
    assert client.get(f"/clubs/join/{club.invite_token}/").status_code == 200


def test_rotating_by_htmx_returns_the_invite_partial(club, organiser):
    response = _client(organiser).post(f"/clubs/{club.slug}/invite/rotate/", HTTP_HX_REQUEST="true")

    club.refresh_from_db()
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="invite"')
    assert club.invite_token in response.text


def test_organiser_page_shows_the_invite_link(club, organiser):
    response = _client(organiser).get(f"/clubs/{club.slug}/")

    assert f"http://testserver/clubs/join/{club.invite_token}/" in response.text


# Organiser tools ------------------------------------------------------------------------------


def test_organiser_changes_house_rules(club, organiser):
    response = _client(organiser).post(
        f"/clubs/{club.slug}/rules/", {"convention": "teach-yourself-1994", "rule": "contribution"}
    )

    club.refresh_from_db()
    assert response.status_code == 302
    assert (club.convention, club.rule) == ("teach-yourself-1994", "contribution")


def test_bad_house_rules_are_refused(club, organiser):
    response = _client(organiser).post(
        f"/clubs/{club.slug}/rules/", {"convention": "house-special", "rule": "classic"}
    )

    club.refresh_from_db()
    assert response.status_code == 400
    assert club.convention == "parlett-2008"


def test_organiser_promotes_a_member(club, organiser, member):
    response = _client(organiser).post(f"/clubs/{club.slug}/members/{member.pk}/promote/")

    assert response.status_code == 302
    assert club.memberships.get(user=member).role == "organiser"


def test_promoting_a_stranger_is_404(club, organiser):
    stranger = f.user()

    response = _client(organiser).post(f"/clubs/{club.slug}/members/{stranger.pk}/promote/")

    assert response.status_code == 404


# The path, steps and playing their drills ----------------------------------------------------


def test_path_page_lists_the_seven_steps(club, member):
    cf.load_step(1)

    response = _client(member).get(f"/clubs/{club.slug}/path/")

    assert response.status_code == 200
    assert response.text.count('class="path-step ') == 7
    assert "0 of 10 right" in response.text
    assert f"/clubs/{club.slug}/path/1/next/" in response.text
    assert f"/clubs/{club.slug}/path/2/next/" not in response.text  # step 2 is locked


def test_step_page_links_each_drill_back_to_the_path(club, member):
    cf.load_step(1)

    response = _client(member).get(f"/clubs/{club.slug}/path/1/")

    assert response.status_code == 200
    assert response.text.count("Drill ") >= 10
    assert "next=%2Fclubs%2Friverside%2Fpath%2F1%2Fnext%2F%3Fafter%3D1" in response.text


def test_unknown_step_is_404(club, member):
    assert _client(member).get(f"/clubs/{club.slug}/path/9/").status_code == 404


def test_next_goes_to_the_first_drill_with_rules_pinned(club, member):
    step = cf.load_step(1)
    first = cf.entries(step)[0]

    response = _client(member).get(f"/clubs/{club.slug}/path/1/next/")

    url = urlsplit(response["Location"])
    query = parse_qs(url.query)
    assert url.path == f"/drills/{first.kind}/{first.seed}/"
    assert query["convention"] == ["parlett-2008"] and query["rule"] == ["classic"]
    assert query["next"] == [f"/clubs/{club.slug}/path/1/next/?after=1"]


def test_next_after_a_drill_moves_on(club, member):
    step = cf.load_step(1)
    third = cf.entries(step)[2]

    response = _client(member).get(f"/clubs/{club.slug}/path/1/next/?after=2")

    assert response["Location"].startswith(f"/drills/{third.kind}/{third.seed}/")


def test_a_step_passed_with_drills_left_goes_on_to_them_then_ends_on_its_summary(club, member):
    step = cf.load_step(1)
    cf.pass_step(member, step)  # the pass mark, 8 of 10: two drills not answered yet
    left = cf.entries(step)[step.pass_mark :]
    assert len(left) == 2

    served = _client(member).get(f"/clubs/{club.slug}/path/1/next/")["Location"]
    assert served.startswith(f"/drills/{left[0].kind}/{left[0].seed}/")
    for entry in left:
        cf.answer_entry(member, entry, correct=False)
    response = _client(member).get(f"/clubs/{club.slug}/path/1/next/", follow=True)

    assert response.redirect_chain[-1][0] == f"/clubs/{club.slug}/path/1/"
    assert "Step 1, The game and one deal, passed" in response.text
    assert f'href="/clubs/{club.slug}/path/">Back to your path</a>' in response.text


def test_next_of_a_locked_step_returns_to_the_path(club, member):
    cf.load_step(1)
    cf.load_step(2)

    response = _client(member).get(f"/clubs/{club.slug}/path/2/next/")

    assert response["Location"] == f"/clubs/{club.slug}/path/"


def test_next_from_htmx_asks_the_browser_to_navigate(club, member):
    cf.load_step(1)

    response = _client(member).get(f"/clubs/{club.slug}/path/1/next/", HTTP_HX_REQUEST="true")

    assert response.status_code == 204
    assert response["HX-Redirect"].startswith("/drills/")


def test_an_answer_on_the_drill_page_counts_for_the_step(club, organiser, member):
    """The whole loop: path → drill page → answer → the step counts it, even when the club's
    house rules (the member's drill defaults) differ from the curated drill's settings."""
    _client(organiser).post(
        f"/clubs/{club.slug}/rules/", {"convention": "teach-yourself-1994", "rule": "contribution"}
    )
    step = cf.load_step(4)  # lead drills
    for n in (1, 2, 3):
        cf.pass_step(member, cf.load_step(n))
    client = _client(member)
    drill_url = client.get(f"/clubs/{club.slug}/path/4/next/")["Location"]
    page = client.get(drill_url)
    showing = re.search(r'name="showing" value="([^"]+)"', page.text)[1]
    entry = cf.entries(step)[0]
    c1, c2 = right_answer(make_drill(entry.kind, entry.seed, entry.drill_params)).play

    answered = client.post(
        drill_url, {"showing": showing, "c1": str(c1), "c2": str(c2) if c2 else "pass"}
    )

    assert answered.status_code == 200
    assert f'href="/clubs/{club.slug}/path/4/next/?after=1"' in answered.text
    status = selectors.path_for(user=member)[3]
    assert (status.answered, status.right) == (1, 1)


def test_a_passed_step_makes_the_next_step_the_main_action(club, member):
    step = cf.load_step(1)
    cf.load_step(2)
    html = _client(member).get(f"/clubs/{club.slug}/path/1/").text
    assert "data-next-step" not in html  # not passed yet: the drills are the main action

    cf.pass_step(member, step)
    html = _client(member).get(f"/clubs/{club.slug}/path/1/").text

    main = re.search(r'<a class="button" href="([^"]+)" data-next-step>([^<]+)</a>', html)
    assert main is not None
    assert main[1] == f"/clubs/{club.slug}/path/2/" and "Next: step 2" in main[2]
    assert re.search(r'class="button button-quiet" href="[^"]+">Practise again</a>', html)


def test_a_step_serves_the_drill_that_fits_the_learners_level(club, member):
    from engine.drills import DrillAddress, make_drill_at
    from trainer.ratings.models import FamilyRating, LearnerRating

    step = cf.load_step(1)
    entries = cf.entries(step)
    first = _client(member).get(f"/clubs/{club.slug}/path/1/next/")["Location"]
    assert first.startswith(f"/drills/{entries[0].kind}/{entries[0].seed}/")  # no ratings yet

    families = {}
    for e in entries:
        d = make_drill_at(DrillAddress.of(e.kind, e.seed, e.params))
        families[e.position] = (str(d.kind), d.skill, d.side_hand, d.params.convention)
    target = entries[-1]
    for kind in {family[0] for family in families.values()}:
        LearnerRating.objects.create(user=member, kind=kind, rating=1500, rd=80, answers=20)
    for kind, skill, hand, conv in set(families.values()):
        FamilyRating.objects.create(
            kind=kind, skill=skill, side_hand=hand, convention=conv, rating=2600, rd=50, answers=40
        )
    if families[entries[0].position] == families[target.position]:
        target = next(e for e in entries if families[e.position] != families[target.position])
    kind, skill, hand, conv = families[target.position]
    FamilyRating.objects.filter(kind=kind, skill=skill, side_hand=hand, convention=conv).update(
        rating=1350
    )

    served = _client(member).get(f"/clubs/{club.slug}/path/1/next/")["Location"]

    after = int(parse_qs(urlsplit(parse_qs(urlsplit(served).query)["next"][0]).query)["after"][0])
    assert families[after] == families[target.position]  # the entry served, by its position
    assert after != entries[0].position  # not the step's own order
