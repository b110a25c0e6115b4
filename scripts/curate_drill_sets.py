"""Write the curated drill sets in ``seeds/onboarding/`` and ``seeds/drill_sets/``.

Run once (``.venv/bin/python scripts/curate_drill_sets.py``) after changing the plans below.
For each planned entry the script tries seeds from a fixed start until the engine builds a
drill that fits (five cards, a given shape, …), then writes the entry with ``expect`` filled in
from the engine itself: the drill's skill and its preferred right answer. ``manage.py seed``
re-checks every entry against the engine, so a later engine change that disagrees fails loudly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.drills import GENERATOR_VERSION, Drill, DrillParams, make_drill  # noqa: E402
from engine.signals import encode  # noqa: E402
from trainer.drills.curation import right_answer  # noqa: E402

Check = Callable[[Drill], bool]


def five_cards(drill: Drill) -> bool:
    return len(drill.cards) == 5


def six_cards(drill: Drill) -> bool:
    return len(drill.cards) == 6


def shape(wanted: str) -> Check:
    def check(drill: Drill) -> bool:
        return encode(drill.hand, drill.side_hand, drill.convention).shape == wanted

    return check


def skill_is_target(drill: Drill) -> bool:
    return drill.skill in drill.params.items


@dataclass
class Plan:
    kind: str
    params: dict[str, object]
    check: Check | None = None


@dataclass
class SetPlan:
    path: str
    slug: str
    title: str
    position: int
    description: str
    plans: list[Plan] = field(default_factory=list)


def lead(item: str, side_hand: int, check: Check | None = None) -> Plan:
    return Plan("lead", {"items": item, "side_hand": side_hand}, check)


def read(item: str, side_hand: int) -> Plan:
    return Plan("read", {"items": item, "side_hand": side_hand}, skill_is_target)


def action(wanted: str) -> Check:
    """Reply drills whose right answer is to ``play``, ``pass`` or ``force``."""

    def check(drill: Drill) -> bool:
        key = str(right_answer(drill))
        return (key if key in ("pass", "force") else "play") == wanted

    return check


def reply(item: str, side_hand: int, wanted: str) -> Plan:
    return Plan("reply", {"items": item, "side_hand": side_hand}, action(wanted))


def score(item: str, check: Check = five_cards, rule: str | None = None) -> Plan:
    params: dict[str, object] = {"items": item}
    if rule:
        params["rule"] = rule
    return Plan("score", params, check)


def checklist(item: str) -> Plan:
    return Plan("checklist", {"items": item})


SETS = [
    SetPlan(
        "onboarding/01-rules.yaml",
        "onboarding-1-rules",
        "Step 1: the combinations",
        10,
        "Name what five played cards make, and what that is worth under the classic rule.",
        [
            score(i)
            for i in (
                "one_pair",
                "two_pair",
                "threes",
                "straight",
                "flush",
                "full_house",
                "fours",
                "straight_flush",
                "nothing",
                "straight",
            )
        ],
    ),
    SetPlan(
        "onboarding/02-scoring.yaml",
        "onboarding-2-scoring",
        "Step 2: scoring and left-overs",
        20,
        "Score finished hands and left-overs, under both scoring rules.",
        [
            score("three_pairs", six_cards),
            score("straight", six_cards),
            score("two_pair", six_cards),
            score("flush", six_cards),
            score("full_house"),
            score("threes", six_cards),
            score("fours", rule="contribution"),
            score("straight_flush", rule="contribution"),
            score("fours", rule="contribution"),
            score("nothing", six_cards),
        ],
    ),
    SetPlan(
        "onboarding/03-checklist.yaml",
        "onboarding-3-checklist",
        "Step 3: the leader's checklist",
        30,
        "Find the first checklist item in hands of every size.",
        [
            checklist(i)
            for i in (
                "four_sf",
                "fours",
                "two_threes",
                "full_house",
                "three_sf",
                "five_flush",
                "threes",
                "two_pair",
                "four_flush",
                "three_straight",
            )
        ],
    ),
    SetPlan(
        "onboarding/04-strong-signals.yaml",
        "onboarding-4-strong-signals",
        "Step 4: strong signals",
        40,
        "Lead the signal for the strong items in the strong round.",
        [
            lead("five_sf", 1),
            lead("four_sf", 1, shape("XXXX")),
            lead("four_sf", 2, shape("XX.XX")),
            lead("fours", 1),
            lead("two_threes", 2),
            lead("full_house", 1),
            lead("three_sf", 1, shape("XXX")),
            lead("three_sf", 2, shape("XX.X")),
            lead("four_sf", 1, shape("XXX.X")),
            lead("three_sf", 2, shape("X.X.X")),
        ],
    ),
    SetPlan(
        "onboarding/05-weak-signals.yaml",
        "onboarding-5-weak-signals",
        "Step 5: weak signals",
        50,
        "Lead the signal for flushes, straights, threes and pairs.",
        [
            lead("five_flush", 3),
            lead("five_straight", 3),
            lead("threes", 3),
            lead("two_pair", 4),
            lead("four_flush", 3),
            lead("four_straight", 4),
            lead("three_flush", 4),
            lead("three_straight", 4),
            lead("one_pair", 4),
            lead("two_pair", 3),
        ],
    ),
    SetPlan(
        "onboarding/06-reading.yaml",
        "onboarding-6-reading",
        "Step 6: reading partner",
        60,
        "Say what partner holds from the signal, in both rounds.",
        [
            read("four_sf", 1),
            read("fours", 1),
            read("full_house", 2),
            read("two_threes", 1),
            read("three_sf", 2),
            read("five_flush", 3),
            read("two_pair", 3),
            read("four_flush", 4),
            read("three_straight", 4),
            read("threes", 3),
        ],
    ),
    SetPlan(
        "onboarding/07-replying.yaml",
        "onboarding-7-replying",
        "Step 7: replying",
        70,
        "Complete partner's combination, pass, or force.",
        [
            reply("four_sf", 1, "play"),
            reply("fours", 1, "pass"),
            reply("full_house", 2, "play"),
            reply("two_threes", 1, "play"),
            reply("threes", 3, "play"),
            reply("two_pair", 3, "pass"),
            reply("four_flush", 4, "play"),
            reply("four_straight", 4, "force"),
            reply("one_pair", 4, "play"),
            reply("three_sf", 2, "pass"),
        ],
    ),
    SetPlan(
        "drill_sets/straight-flush-shapes.yaml",
        "straight-flush-shapes",
        "Straight-flush shapes",
        110,
        "Every shape of three, four and five cards to a straight flush: lead its signal.",
        [
            lead("five_sf", 1, shape("XXXXX")),
            *[
                lead("four_sf", 1 + i % 2, shape(s))
                for i, s in enumerate(("XXXX", "XXX.X", "X.XXX", "XX.XX"))
            ],
            *[
                lead("three_sf", 1 + i % 2, shape(s))
                for i, s in enumerate(("XXX", "XX.X", "X.XX", "XX..X", "X..XX", "X.X.X"))
            ],
        ],
    ),
    SetPlan(
        "drill_sets/weak-signals.yaml",
        "weak-signals",
        "Weak signals",
        120,
        "Flushes, straights, threes and pairs in the weak round.",
        [
            lead(i, 3 + n % 2)
            for n, i in enumerate(
                (
                    "five_flush",
                    "five_straight",
                    "threes",
                    "two_pair",
                    "four_flush",
                    "four_straight",
                    "three_flush",
                    "three_straight",
                    "one_pair",
                    "five_flush",
                    "four_flush",
                    "three_flush",
                )
            )
        ],
    ),
    SetPlan(
        "drill_sets/reading-weak-round.yaml",
        "reading-weak-round",
        "Reading in the weak round",
        130,
        "Partner's signal in side hands 3 and 4, where weak readings come first.",
        [
            read(i, 3 + n % 2)
            for n, i in enumerate(
                (
                    "five_flush",
                    "five_straight",
                    "four_flush",
                    "four_straight",
                    "three_flush",
                    "three_straight",
                    "two_pair",
                    "threes",
                    "one_pair",
                    "four_flush",
                )
            )
        ],
    ),
    SetPlan(
        "drill_sets/contribution-scoring.yaml",
        "contribution-scoring",
        "Scoring under the contribution rule",
        140,
        "Fours and straight flushes are worth more the more evenly partners supplied them.",
        [
            score(i, rule="contribution")
            for i in (
                "fours",
                "straight_flush",
                "fours",
                "straight_flush",
                "full_house",
                "fours",
                "straight_flush",
                "flush",
                "fours",
                "straight_flush",
            )
        ],
    ),
    SetPlan(
        "drill_sets/replies.yaml",
        "replies",
        "Replying to partner",
        150,
        "Play what completes partner's combination, pass, or force.",
        [
            reply(i, side, a)
            for i, side, a in (
                ("four_sf", 1, "play"),
                ("two_threes", 1, "pass"),
                ("full_house", 1, "force"),
                ("three_sf", 3, "play"),
                ("five_flush", 1, "force"),
                ("threes", 3, "play"),
                ("two_pair", 3, "play"),
                ("four_flush", 3, "play"),
                ("four_straight", 3, "pass"),
                ("three_flush", 4, "play"),
            )
        ],
    ),
]

#: Each set tries seeds upwards from ``SEED_BLOCK * position + 1``, so reruns pick the same
#: drills and no two sets share a drill (an answer then counts towards one set only).
SEED_BLOCK = 1000


def curate(plan: Plan, start: int, used: set[tuple[str, int, str]]) -> dict[str, object]:
    params = DrillParams.from_query({k: str(v) for k, v in plan.params.items()})
    for seed in range(start, start + 5000):
        if (plan.kind, seed, params.key()) in used:
            continue
        drill = make_drill(plan.kind, seed, params)
        if plan.check is not None and not plan.check(drill):
            continue
        answer = right_answer(drill)
        used.add((plan.kind, seed, params.key()))
        return {
            "kind": plan.kind,
            "seed": seed,
            "params": {**plan.params, "v": GENERATOR_VERSION},
            "expect": {"skill": drill.skill, "answer": str(answer)},
        }
    raise SystemExit(f"no seed fits {plan}")


def write(set_plan: SetPlan) -> Path:
    used: set[tuple[str, int, str]] = set()
    start = SEED_BLOCK * set_plan.position + 1
    entries = [curate(p, start, used) for p in set_plan.plans]
    head = {
        "kind": "drill_set",
        "slug": set_plan.slug,
        "title": set_plan.title,
        "position": set_plan.position,
        "description": set_plan.description,
    }
    lines = [
        "# Curated by scripts/curate_drill_sets.py: every skill and answer below is the",
        "# engine's own; `manage.py seed` checks them again against the engine.",
        yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=100).rstrip(),
        "entries:",
    ]
    for entry in entries:
        flow = yaml.safe_dump(
            entry, sort_keys=False, default_flow_style=True, width=1000, allow_unicode=True
        ).strip()
        lines.append(f"  - {flow}")
    path = ROOT / "seeds" / set_plan.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    for set_plan in SETS:
        print(write(set_plan).relative_to(ROOT))
