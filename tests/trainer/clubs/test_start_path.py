"""*Start here*: the onboarding path for everyone without a club, progress kept per user; a
club's view of the same member's path agrees."""

import re

import pytest

from tests.trainer import factories as f
from tests.trainer.clubs import factories as cf

pytestmark = pytest.mark.django_db


def test_start_here_shows_a_visitor_the_path_with_step_1_open(client):
    cf.load_step(1)
    html = client.get("/start/").text
    assert html.count('class="path-step ') == 7
    assert 'href="/start/1/next/"' in html and 'href="/start/2/next/"' not in html


def test_solo_learner_sees_the_seven_steps(client):
    cf.load_step(1)
    client.force_login(f.user("solo"))
    html = client.get("/start/").text
    assert "Start here" in html
    assert html.count('class="path-step ') == 7
    assert 'href="/start/1/next/"' in html
    assert 'href="/learn/the-game/?path=1"' in html
    assert "/clubs/" not in re.sub(r'href="/clubs/"', "", html)  # no club links but the nav


def test_solo_step_next_serves_a_drill_that_comes_back_to_the_path(client):
    cf.load_step(1)
    client.force_login(f.user("solo"))
    response = client.get("/start/1/next/")
    assert response.status_code == 302
    assert "next=%2Fstart%2F1%2Fnext%2F" in response["Location"]


def test_passing_a_step_alone_shows_in_the_clubs_view(client):
    step = cf.load_step(1)
    cf.load_step(2)
    member, organiser = f.user("member"), f.user("org")
    cf.pass_step(member, step)
    client.force_login(member)
    assert "path-step path-step-passed" in client.get("/start/").text
    club = cf.club(organiser)
    cf.join(club, member)
    client.force_login(organiser)
    members = client.get(f"/clubs/{club.slug}/members/").text
    assert "member" in members
    client.force_login(member)
    assert "path-step path-step-passed" in client.get(f"/clubs/{club.slug}/path/").text


def test_solo_step_page_links_back_to_start_here(client):
    cf.load_step(1)
    client.force_login(f.user("solo"))
    html = client.get("/start/1/").text
    assert '<a href="/start/">Start here</a>' in html
    assert 'href="/learn/the-game/?path=1"' in html
