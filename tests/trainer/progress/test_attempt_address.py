"""An attempt carries its address: a drill answer its DrillAddress, an answer in play its deal
(``Attempt.game``, never the deal's seed); the migration moves the old ``play=<game>`` rows."""

from __future__ import annotations

import importlib
import uuid

import pytest
from django.apps import apps
from django.utils import timezone

from engine.drills import DrillAddress, DrillKind, DrillParams, make_drill_at
from tests.trainer import factories
from trainer.play.models import Game
from trainer.progress.models import SOURCE_DRILL, SOURCE_PLAY, Attempt
from trainer.progress.services import Graded, attempt_store

pytestmark = pytest.mark.django_db


def test_a_drill_answer_keeps_its_address_and_rebuilds_the_same_drill():
    me = factories.user()
    address = DrillAddress(DrillKind.READ, 7, DrillParams(items=("fours",)))
    drill = make_drill_at(address)
    attempt, created = attempt_store(
        user=me,
        token=uuid.uuid4(),
        graded=Graded.of_drill(drill, "fours", True),
        now=timezone.now(),
    )
    attempt.refresh_from_db()
    assert created and attempt.source == SOURCE_DRILL and attempt.game is None
    assert attempt.address == address
    assert make_drill_at(attempt.address) == drill


def test_an_answer_in_play_names_its_deal_and_no_seed():
    me = factories.user()
    game = Game.objects.create(owner=me, setup={})
    attempt, _ = attempt_store(
        user=me,
        token=uuid.uuid4(),
        graded=Graded("lead", "fours", "AS KS", True, game_id=game.pk),
        now=timezone.now(),
    )
    attempt.refresh_from_db()
    assert (attempt.source, attempt.game, attempt.seed, attempt.params) == (
        SOURCE_PLAY,
        game,
        0,
        "",
    )
    assert attempt.address is None
    game.delete()  # a deal no longer kept: the answer still counts, without it
    attempt.refresh_from_db()
    assert attempt.game is None and Attempt.objects.filter(pk=attempt.pk).exists()


def test_an_answer_is_given_at_a_drill_or_in_a_deal_never_both_or_neither():
    address = DrillAddress(DrillKind.READ, 7, DrillParams())
    with pytest.raises(ValueError, match="one of the two"):
        Graded("read", "fours", "fours", True)
    with pytest.raises(ValueError, match="one of the two"):
        Graded("read", "fours", "fours", True, address=address, game_id=3)


def test_an_address_the_engine_no_longer_reads_gives_no_address():
    me = factories.user()
    attempt = Attempt.objects.create(
        user=me,
        kind="read",
        skill="fours",
        seed=7,
        params="items=nonsense",
        answer="x",
        correct=False,
    )
    assert attempt.address is None


def test_the_migration_links_old_answers_in_play_to_their_deals_and_clears_seed_and_params():
    migration = importlib.import_module("trainer.progress.migrations.0004_attempt_game")
    me = factories.user()
    kept = Game.objects.create(owner=me, setup={})
    gone = Game.objects.create(owner=me, setup={})
    gone_pk = gone.pk
    gone.delete()
    for number in (kept.pk, gone_pk):
        Attempt.objects.create(
            user=me,
            kind="lead",
            skill="fours",
            seed=number,
            params=f"play={number}",
            answer="AS KS",
            correct=True,
            source=SOURCE_PLAY,
        )
    drill = Attempt.objects.create(
        user=me,
        kind="read",
        skill="fours",
        seed=kept.pk,
        params="items=fours&v=2",
        answer="fours",
        correct=True,
    )

    migration.link_games(apps, None)

    rows = {(a.game_id, a.seed, a.params) for a in Attempt.objects.filter(source=SOURCE_PLAY)}
    assert rows == {(kept.pk, 0, ""), (None, 0, "")}
    drill.refresh_from_db()
    assert (drill.game_id, drill.seed, drill.params) == (None, kept.pk, "items=fours&v=2")

    migration.unlink_games(apps, None)  # and back
    back = Attempt.objects.get(source=SOURCE_PLAY, game=kept)
    assert (back.seed, back.params) == (kept.pk, f"play={kept.pk}")
