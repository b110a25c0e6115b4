"""Reads for clubs' cards: who may see which card, a card's check and diff, an evaluation's
figures.

Every card read is scoped to the user: a card is visible only to the organisers of the club
that owns it or the teachers of the class that owns it (:func:`cards_editable_by`); anyone else
is told there is no such card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

from engine.signals import CONVENTIONS, ITEM_TITLES, Convention
from engine.signals.cardcheck import check_card, diff_cards
from engine.signals.cardfile import load_convention
from trainer.cards.evaluation import chunks_of
from trainer.cards.models import CardEvaluation, CardVersion, ClubCard
from trainer.cards.wording import field_change, row_titles
from trainer.classes.models import ClassMembership, Classroom
from trainer.clubs.models import Club, ClubMembership

ORGANISER = ClubMembership.Role.ORGANISER
TEACHER = ClassMembership.Role.TEACHER


@dataclass(frozen=True, slots=True)
class Owner:
    """A club or a class that may own cards, as the pages name it."""

    club: Club | None = None
    classroom: Classroom | None = None

    @property
    def name(self) -> str:
        return self.club.name if self.club is not None else str(self.classroom)

    @property
    def rule(self) -> str:
        """The scoring rule of its evaluations: the club's house rule (a class: classic)."""
        return self.club.rule if self.club is not None else "classic"

    @property
    def query(self) -> str:
        """How the card pages' addresses name it: ``club=<slug>`` or ``class=<id>``."""
        if self.club is not None:
            return f"club={self.club.slug}"
        assert self.classroom is not None
        return f"class={self.classroom.pk}"

    def owns(self, card: ClubCard) -> bool:
        if self.club is not None:
            return card.club_id == self.club.pk
        return self.classroom is not None and card.classroom_id == self.classroom.pk


def owner_of(card: ClubCard) -> Owner:
    return Owner(club=card.club) if card.club_id is not None else Owner(classroom=card.classroom)


def owners_for(*, user: AbstractBaseUser) -> list[Owner]:
    """The clubs ``user`` organises and the classes they teach (not archived), in that order."""
    if not user.is_authenticated:
        return []
    clubs = Club.objects.filter(memberships__user_id=user.pk, memberships__role=ORGANISER)
    classes = Classroom.objects.filter(
        memberships__user_id=user.pk, memberships__role=TEACHER, archived_at__isnull=True
    )
    return [Owner(club=c) for c in clubs.order_by("name", "id")] + [
        Owner(classroom=c) for c in classes.order_by("name", "id")
    ]


def owner_get(*, user: AbstractBaseUser, club: str = "", classroom: str = "") -> Owner | None:
    """The club (by slug) ``user`` organises, or the class (by id) they teach and is open;
    ``None`` for anything else (not theirs, unknown, malformed)."""
    if not user.is_authenticated:
        return None
    if club and not classroom:
        found = Club.objects.filter(
            slug=club, memberships__user_id=user.pk, memberships__role=ORGANISER
        ).first()
        return Owner(club=found) if found else None
    if classroom and not club and classroom.isdigit() and len(classroom) <= 18:
        room = Classroom.objects.filter(
            pk=int(classroom),
            memberships__user_id=user.pk,
            memberships__role=TEACHER,
            archived_at__isnull=True,
        ).first()
        return Owner(classroom=room) if room else None
    return None


def cards_editable_by(user: AbstractBaseUser) -> QuerySet[ClubCard]:
    """The cards of the clubs ``user`` organises and of the classes they teach."""
    if not user.is_authenticated:
        return ClubCard.objects.none()
    return ClubCard.objects.filter(
        Q(club__memberships__user_id=user.pk, club__memberships__role=ORGANISER)
        | Q(classroom__memberships__user_id=user.pk, classroom__memberships__role=TEACHER)
    ).distinct()


def card_get(*, user: AbstractBaseUser, pk: int) -> ClubCard | None:
    """Card ``pk`` when ``user`` may edit it (else ``None``: to them it does not exist)."""
    return cards_editable_by(user).select_related("club", "classroom").filter(pk=pk).first()


def cards_of(owner: Owner) -> QuerySet[ClubCard]:
    if owner.club is not None:
        return ClubCard.objects.filter(club=owner.club)
    return ClubCard.objects.filter(classroom=owner.classroom)


def newest_version(card: ClubCard) -> CardVersion:
    found = card.versions.order_by("-number").first()
    assert found is not None, "a card is created with its first version"
    return found


def versions_of(card: ClubCard) -> QuerySet[CardVersion]:
    return card.versions.order_by("-number")


def version_card(version: CardVersion) -> Convention:
    """The version as the engine's card (read from its JSON)."""
    return load_convention(version.data)


def base_card(card: ClubCard) -> Convention:
    return CONVENTIONS[card.derived_from]


# ---------------------------------------------------------------------------------------------
# The live check


def _probe(conv: Convention) -> Convention:
    """The card under a fixed name and title: its check does not depend on them, so one cache
    entry serves every name an edit is checked under."""
    return replace(conv, name="club-check", title="check")


def card_check(conv: Convention) -> dict[str, Any]:
    """``engine.signals.cardcheck.check_card`` of the card (``CARDS_CHECK_HANDS`` round-trip
    hands, ``CARDS_CHECK_SAMPLES`` posterior samples per ambiguity), cached by content."""
    probe = _probe(conv)
    hands, samples = settings.CARDS_CHECK_HANDS, settings.CARDS_CHECK_SAMPLES
    key = f"cards:check:{probe.version}:{hands}:{samples}"
    found = cache.get(key)
    if found is None:
        found = check_card(probe, hands=hands, samples=samples)
        cache.set(key, found, 24 * 3600)
    return dict(found)


def _ambiguity_key(entry: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    return entry["family"], tuple(entry["items"])


def check_view(conv: Convention, base: Convention) -> dict[str, Any]:
    """What the editor shows beside the card: its errors, its ambiguities (each marked
    ``new`` when the base card does not have it, ``changed`` when its signals differ), and the
    rows that differ from the base card."""
    report = card_check(conv)
    known = {_ambiguity_key(a): a for a in card_check(base)["ambiguities"]}
    ambiguities = []
    for entry in report["ambiguities"]:
        before = known.get(_ambiguity_key(entry))
        ambiguities.append(
            {
                **entry,
                "titles": [ITEM_TITLES[i] for i in entry["items"]],
                "state": "new"
                if before is None
                else ("changed" if before["patterns"] != entry["patterns"] else "same"),
                "odds": [
                    {
                        "round": r["round"],
                        "side_hands": r["side_hands"],
                        "items": [
                            {"item": i, "title": ITEM_TITLES[i], "percent": round(p * 100)}
                            for i, p in (r["odds"]["items"] or {}).items()
                        ],
                        "samples": r["odds"]["samples"],
                    }
                    for r in entry["rounds"]
                ],
            }
        )
    roundtrip = report["roundtrip"] or {}
    return {
        "valid": report["valid"],
        "errors": report["errors"],
        "roundtrip_failed": roundtrip.get("failed", 0),
        "roundtrip_hands": roundtrip.get("hands", 0),
        "ambiguities": ambiguities,
        "new_ambiguities": sum(1 for a in ambiguities if a["state"] != "same"),
        "diff": diff_view(base, conv),
    }


def titles_of(*cards: Convention) -> dict[str, str]:
    """The page's name of every row of ``cards`` by id (the first card's names first)."""
    out: dict[str, str] = {}
    for card in reversed(cards):
        out.update(row_titles(card.rows))
    return out


def diff_view(base: Convention, conv: Convention) -> dict[str, Any]:
    """``diff_cards(base, conv)``, rows only, each changed field as ``before → after``."""
    diff = diff_cards(base, conv)
    rows = diff["rows"]
    titles = titles_of(conv, base)
    return {
        "same": not (rows["added"] or rows["removed"] or rows["changed"]),
        "added": [_row_change(r, titles) for r in rows["added"]],
        "removed": [_row_change(r, titles) for r in rows["removed"]],
        "changed": [_row_change(r, titles) for r in rows["changed"]],
    }


def _row_change(row: dict[str, Any], titles: dict[str, str]) -> dict[str, Any]:
    """A row of ``diff_cards``: its id and name (``title``), its item (``item_id``, ``item``
    the title) and, when changed, each changed field as ``before → after`` in words."""
    return {
        "id": row["id"],
        "title": titles.get(row["id"], row["id"]),
        "item_id": str(row["item"]),
        "item": ITEM_TITLES[row["item"]],
        "fields": [
            field_change(name, change["a"], change["b"])
            for name, change in row.get("fields", {}).items()
        ],
    }


def changed_items(check: dict[str, Any]) -> set[str]:
    """The checklist items a :func:`check_view` names: rows that differ from the base card,
    errors, and ambiguities the base card does not have (the editor opens them)."""
    diff = check["diff"]
    found = {r["item_id"] for kind in ("added", "removed", "changed") for r in diff[kind]}
    found |= {str(e["item"]) for e in check["errors"] if e.get("item")}
    for entry in check["ambiguities"]:
        if entry["state"] != "same":
            found |= {str(i) for i in entry["items"]}
    return found


def version_pair(card: ClubCard, a: int, b: int) -> tuple[CardVersion, CardVersion] | None:
    """Versions number ``a`` and ``b`` of ``card`` (None when either is not one of its)."""
    found = {v.number: v for v in card.versions.filter(number__in=[a, b])}
    if a not in found or b not in found:
        return None
    return found[a], found[b]


def versions_diff(a: CardVersion, b: CardVersion) -> dict[str, Any]:
    """What changed from version ``a`` to version ``b``, item by item in the checklist's
    order: per item the rows added, removed and changed (each changed field ``before →
    after``); and the card's own fields (its title, …) that changed."""
    card_a, card_b = version_card(a), version_card(b)
    diff = diff_cards(card_a, card_b)
    rows = diff["rows"]
    titles = titles_of(card_b, card_a)
    order = [str(i) for i in card_b.checklist]
    order += [str(i) for i in card_a.checklist if str(i) not in order]
    items: dict[str, dict[str, Any]] = {
        item: {"item": item, "title": ITEM_TITLES[item], "added": [], "removed": [], "changed": []}
        for item in order
    }
    for kind in ("added", "removed", "changed"):
        for row in rows[kind]:
            change = _row_change(row, titles)
            items.setdefault(
                change["item_id"],
                {
                    "item": change["item_id"],
                    "title": change["item"],
                    "added": [],
                    "removed": [],
                    "changed": [],
                },
            )[kind].append(change)
    changed = [i for i in items.values() if i["added"] or i["removed"] or i["changed"]]
    fields = [
        {**field_change(key, value["a"], value["b"]), "key": key}
        for key, value in diff["card"].items()
        if key != "name"  # each version has its own name
    ]
    return {
        "same": not changed and not fields,
        "items": changed,
        "unchanged": len(items) - len(changed),
        "fields": fields,
    }


# ---------------------------------------------------------------------------------------------
# Evaluations


def evaluation_of(version: CardVersion) -> CardEvaluation | None:
    """The version's evaluation with the current settings (deals, seed) and the owner's rule."""
    owner = owner_of(version.card)
    return CardEvaluation.objects.filter(
        version=version,
        rule=owner.rule,
        deals=settings.CARDS_EVALUATION_DEALS,
        seed=settings.CARDS_EVALUATION_SEED,
    ).first()


def is_stale(evaluation: CardEvaluation) -> bool:
    """Queued or running with no chunk in ``CARDS_EVALUATION_STALE_SECONDS``: its messages were
    lost (an in-process queue forgets them on a restart) and it may be sent again."""
    if evaluation.status not in (CardEvaluation.Status.QUEUED, CardEvaluation.Status.RUNNING):
        return False
    age = (timezone.now() - evaluation.updated_at).total_seconds()
    return age > settings.CARDS_EVALUATION_STALE_SECONDS


def evaluation_view(evaluation: CardEvaluation | None) -> dict[str, Any] | None:
    """The figures of an evaluation for its panel: progress while it runs; once done, per
    opponent the club card's points per deal, the difference with its 95% interval, and how
    often partner's first reading was right and the hand completed."""
    if evaluation is None:
        return None
    done = evaluation.chunks.count()
    played = sum(stop - start for stop, start in evaluation.chunks.values_list("stop", "start"))
    out: dict[str, Any] = {
        "evaluation": evaluation,
        "status": evaluation.status,
        "done": done,
        "total": evaluation.chunks_total,
        # What the page says: deals played of every deal both tournaments play.
        "deals_done": played,
        "deals_total": sum(stop - start for _opponent, start, stop in chunks_of(evaluation)),
        "percent": round(100 * done / evaluation.chunks_total) if evaluation.chunks_total else 0,
        "running": evaluation.status
        in (CardEvaluation.Status.QUEUED, CardEvaluation.Status.RUNNING),
        "stale": is_stale(evaluation),
        "rows": [],
    }
    if evaluation.status == CardEvaluation.Status.DONE and evaluation.result:
        for opponent in ("base", "greedy"):
            result = evaluation.result[opponent]
            ours, theirs = result["signals"]["NS"], result["signals"]["EW"]
            out["rows"].append(
                {
                    "opponent": opponent,
                    "base_name": evaluation.version.card.derived_from,
                    "points": result["mean_per_deal"]["NS"],
                    "opponent_points": result["mean_per_deal"]["EW"],
                    "diff": result["diff"],
                    "low": result["ci95"][0],
                    "high": result["ci95"][1],
                    "reading_right": _percent(ours["first_reading_right"]),
                    "completed": _percent(ours["completed"]),
                    "opponent_reading_right": _percent(theirs["first_reading_right"]),
                    "opponent_completed": _percent(theirs["completed"]),
                }
            )
    return out


def _percent(share: float | None) -> int | None:
    return None if share is None else round(share * 100)
