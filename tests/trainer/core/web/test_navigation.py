import re

import pytest

pytestmark = pytest.mark.django_db


def _current(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]+)" aria-current="page">', html)


@pytest.mark.parametrize(
    ("url", "section"),
    [
        ("/", "/"),
        ("/drills/", "/drills/"),
        ("/drills/lead/", "/drills/"),
        ("/learn/", "/learn/"),
        ("/cheatsheet/", "/cheatsheet/"),
        ("/glossary/", "/learn/"),
    ],
)
def test_the_main_navigation_marks_the_section_of_the_page(client, url, section):
    html = client.get(url).content.decode()
    assert _current(html.split('aria-label="Main"')[1].split("</nav>")[0]) == [section]


def test_the_main_navigation_links_are_built_from_url_names(client):
    nav = client.get("/").content.decode().split('aria-label="Main"')[1].split("</nav>")[0]
    assert re.findall(r'href="([^"]+)"', nav) == [
        "/",
        "/drills/",
        "/play/",
        "/progress/",
        "/learn/",
        "/cheatsheet/",
        "/clubs/",
        "/classes/",
    ]
