import re

from django.contrib.staticfiles import finders


def test_home_page_names_the_site(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Concerto Trainer" in response.text


def test_home_page_links_to_drills_and_learn(client):
    response = client.get("/")

    assert 'href="/drills/"' in response.text
    assert 'href="/learn/"' in response.text


def test_pages_carry_csrf_token_for_htmx(client):
    response = client.get("/")

    assert 'hx-headers=\'{"X-CSRFToken": "' in response.text


def test_static_stylesheet_is_served(client):
    # Plain storage outside production, so no collectstatic is needed in tests.
    page = client.get("/")
    href = re.search(r'<link rel="stylesheet" href="([^"]+site\.css)"', page.text)
    assert href is not None

    response = client.get(href.group(1))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    css = b"".join(response.streaming_content).decode()
    assert css == _source_css()
    assert ".card" in css and ".hand" in css


def _source_css() -> str:
    with open(finders.find("trainer/site.css"), encoding="utf-8") as f:
        return f.read()
