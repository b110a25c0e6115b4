"""A session board's result is written when its deal ends (the play app knows nothing of
sessions: this app listens to its games)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from trainer.duplicate.services import play_record
from trainer.play.models import Game


@receiver(post_save, sender=Game, dispatch_uid="duplicate-board-finished")
def board_finished(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    if instance.status == Game.Status.FINISHED:
        play_record(game=instance)
