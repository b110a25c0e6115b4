"""The card editor is served the engine's card schema, the one its checker validates with."""

import pytest
from django.urls import reverse

from engine.signals.cardfile import card_schema

pytestmark = pytest.mark.django_db


def test_the_schema_is_served_to_a_signed_in_visitor(client, django_user_model):
    url = reverse("cards:schema")
    assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(django_user_model.objects.create_user("ed", password="x-pass-12345"))
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    assert response.json() == card_schema()


def test_the_editors_distances_are_the_schemas():
    from trainer.cards.forms import DISTANCE_CHOICES

    bounds = card_schema()["$defs"]["row"]["properties"]["pattern"]["properties"]["distance"]
    low, high = bounds["items"]["minimum"], bounds["items"]["maximum"]
    assert [(str(d), str(d)) for d in range(low, high + 1)] == DISTANCE_CHOICES
