"""An answer the engine refuses (a 400 on a drill page) says why in the page's language."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

URL = "/drills/read/69/?v=2"


def _showing(client: Client) -> str:
    page = client.get(URL).content.decode()
    return re.search(r'name="showing" value="([^"]+)"', page)[1]


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Choose one of the options."), ("ja", "選択肢から1つ選んでください。")],
)
def test_an_answer_without_an_option_says_why_in_the_pages_language(language, said):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(URL, {"showing": _showing(client)})
    assert response.status_code == 400
    assert said in response.content.decode()
