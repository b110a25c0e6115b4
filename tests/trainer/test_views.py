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
    response = client.get("/")

    assert "/static/trainer/site.css" in response.text
