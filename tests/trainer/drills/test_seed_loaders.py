import pytest
import yaml

from engine.drills import DrillParams, make_drill
from tests.trainer.factories import right_option, wrong_option
from trainer.core.seeding import SeedError, load_file
from trainer.drills.models import DrillSet

pytestmark = pytest.mark.django_db


def write(tmp_path, data):
    path = tmp_path / "set.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def drill_set(entries):
    return {"kind": "drill_set", "slug": "test-set", "title": "Test set", "entries": entries}


def test_a_curated_set_loads_with_engine_checked_answers(tmp_path):
    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    path = write(
        tmp_path,
        drill_set(
            [
                {
                    "kind": "checklist",
                    "seed": 3,
                    "params": {"items": "fours"},
                    "expect": {"skill": "fours", "answer": right_option(drill)},
                },
                {"kind": "lead", "seed": 4, "params": {"side_hand": 1}},
            ]
        ),
    )
    load_file(path)
    load_file(path)  # idempotent
    entries = list(DrillSet.objects.get(slug="test-set").entries.all())
    assert [(e.kind, e.seed, e.params) for e in entries] == [
        ("checklist", 3, "items=fours&v=2"),
        ("lead", 4, "side_hand=1&v=2"),
    ]
    assert entries[0].drill_params == DrillParams(items=("fours",))


def test_a_curated_answer_that_disagrees_with_the_engine_fails_the_load(tmp_path):
    drill = make_drill("checklist", 3, DrillParams(items=("fours",)))
    path = write(
        tmp_path,
        drill_set(
            [
                {
                    "kind": "checklist",
                    "seed": 3,
                    "params": {"items": "fours"},
                    "expect": {"answer": wrong_option(drill)},
                },
            ]
        ),
    )
    with pytest.raises(SeedError, match="is wrong; the engine says"):
        load_file(path)
    assert not DrillSet.objects.exists()


def test_a_wrong_expected_skill_fails_the_load(tmp_path):
    path = write(
        tmp_path,
        drill_set(
            [
                {
                    "kind": "checklist",
                    "seed": 3,
                    "params": {"items": "fours"},
                    "expect": {"skill": "two_pair"},
                },
            ]
        ),
    )
    with pytest.raises(SeedError, match="the engine says 'fours'"):
        load_file(path)


@pytest.mark.parametrize(
    "entry",
    [
        {"kind": "poker", "seed": 1},
        {"kind": "lead"},
        {"kind": "lead", "seed": 1, "params": {"side_hand": 7}},
    ],
)
def test_bad_entries_fail_with_a_reason(tmp_path, entry):
    with pytest.raises(SeedError, match="entry 1"):
        load_file(write(tmp_path, drill_set([entry])))


def test_a_shrunk_set_drops_its_extra_entries(tmp_path):
    load_file(write(tmp_path, drill_set([{"kind": "lead", "seed": s} for s in range(3)])))
    load_file(write(tmp_path, drill_set([{"kind": "lead", "seed": 9}])))
    assert list(DrillSet.objects.get().entries.values_list("seed", flat=True)) == [9]


def test_an_entry_whose_keys_json_cannot_sort_still_loads(tmp_path):
    # YAML reads ``on:`` as the key True: beside text keys, the entry has no canonical JSON.
    path = tmp_path / "set.yaml"
    path.write_text(
        "kind: drill_set\nslug: mixed\ntitle: Mixed\nentries:\n"
        "  - {kind: lead, seed: 12, params: {side_hand: 1, on: 2}}\n"
    )
    load_file(path)  # the engine reads the params it knows and leaves the rest
    assert DrillSet.objects.get(slug="mixed").entries.count() == 1
