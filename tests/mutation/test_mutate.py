"""make mutate's own bookkeeping (tests/mutation/mutate.py): what a resume runs again, and the
list of equivalent mutants."""

from __future__ import annotations

import json
import os

import pytest

from tests.mutation import mutate

EXPLAINED = {
    "pkg.mod.x_f__mutmut_2": mutate.Listed("equal", "+ return b"),
    "pkg.mod.x_g__mutmut_*": mutate.Listed("all equal", ""),
}
MUTANTS = """
def x_f__mutmut_orig(a, b=1):
    return a
def x_f__mutmut_1(a, b=1):
    return None
def x_f__mutmut_2(a, b=1):
        return b
def x_f__mutmut_3(a, b=2):
    return a
"""


def write_meta(folder, name, codes):
    path = folder / "pkg" / f"{name}.py.meta"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes, "durations_by_key": {}}))
    return path


def test_a_resume_checks_again_only_the_survivors_not_explained(tmp_path):
    (tmp_path / "pkg" / "mod.py").parent.mkdir(parents=True)
    (tmp_path / "pkg" / "mod.py").write_text(MUTANTS)
    meta = write_meta(
        tmp_path,
        "mod",
        {
            "pkg.mod.x_f__mutmut_1": 0,  # survived, unexplained: checked again
            "pkg.mod.x_f__mutmut_2": 0,  # survived, listed as equivalent
            "pkg.mod.x_g__mutmut_7": 0,  # listed by a pattern
            "pkg.mod.x_f__mutmut_3": 1,  # killed
            "pkg.mod.x_f__mutmut_4": -24,  # timed out
            "pkg.mod.x_f__mutmut_5": None,  # not checked yet
            "pkg.mod.x_f__mutmut_6": 33,  # no test reached it: a new test may
        },
    )
    mutate.recheck_survivors(tmp_path, EXPLAINED)
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    assert codes == {
        "pkg.mod.x_f__mutmut_1": None,
        "pkg.mod.x_f__mutmut_2": 0,
        "pkg.mod.x_g__mutmut_7": 0,
        "pkg.mod.x_f__mutmut_3": 1,
        "pkg.mod.x_f__mutmut_4": -24,
        "pkg.mod.x_f__mutmut_5": None,
        "pkg.mod.x_f__mutmut_6": None,
    }


def test_a_resume_of_some_modules_names_only_their_mutants_not_checked(tmp_path):
    write_meta(tmp_path, "mod", {"pkg.mod.x_f__mutmut_1": None, "pkg.mod.x_f__mutmut_2": 1})
    write_meta(tmp_path, "other", {"pkg.other.x_h__mutmut_1": None, "pkg.other.x_h__mutmut_2": 0})
    assert mutate.unchecked(tmp_path, ["pkg.mod.*"]) == ["pkg.mod.x_f__mutmut_1"]
    assert mutate.unchecked(tmp_path, ["pkg.mod.*", "pkg.other.x_h*"]) == [
        "pkg.mod.x_f__mutmut_1",
        "pkg.other.x_h__mutmut_1",
    ]
    assert mutate.unchecked(tmp_path, ["pkg.none.*"]) == []


def test_every_equivalent_mutant_is_listed_with_its_reason_and_its_change():
    listed = mutate.equivalents()
    assert len(listed) > 20 and all(entry.reason.strip() for entry in listed.values())
    assert all(entry.change[:2] in ("+ ", "- ") for entry in listed.values())
    entry = mutate.listed_as("ginrummy.melds.x__best_key__mutmut_1", listed)
    assert entry.reason.startswith("always the memoised search")
    assert entry.change == "+ choices = None"
    assert mutate.listed_as("ginrummy.melds.x__best_key__mutmut_99", listed) is None


def test_a_listed_mutant_that_changes_another_line_is_not_explained(tmp_path):
    """After its function changed, a mutant's number may name another mutant: the line of code
    the list gives tells them apart (indentation aside)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(MUTANTS)
    assert mutate.changes(tmp_path, "pkg.mod.x_f__mutmut_2") == ["- return a", "+ return b"]
    assert mutate.changes(tmp_path, "pkg.mod.x_f__mutmut_3") == [  # a default argument
        "- def …(a, b=1):",
        "+ def …(a, b=2):",
    ]
    assert mutate.explained_by("pkg.mod.x_f__mutmut_2", EXPLAINED, tmp_path) == "equal"
    renumbered = {"pkg.mod.x_f__mutmut_1": EXPLAINED["pkg.mod.x_f__mutmut_2"]}
    assert mutate.explained_by("pkg.mod.x_f__mutmut_1", renumbered, tmp_path) is None
    assert mutate.explained_by("pkg.mod.x_g__mutmut_5", EXPLAINED, tmp_path) == "all equal"


def test_the_list_refuses_an_entry_without_its_change(tmp_path, monkeypatch):
    monkeypatch.setattr(mutate, "EQUIVALENT", tmp_path / "equivalent.txt")
    mutate.EQUIVALENT.write_text("pkg.mod.x_f__mutmut_2 equal\n# a comment\n")
    with pytest.raises(SystemExit, match="x_f__mutmut_2: give a line it changes"):
        mutate.equivalents()
    mutate.EQUIVALENT.write_text("pkg.mod.x_f__mutmut_2 equal\n    + x = '#1'  # kept\n")
    assert mutate.equivalents() == {
        "pkg.mod.x_f__mutmut_2": mutate.Listed("equal", "+ x = '#1'  # kept")
    }


def test_the_configuration_asks_for_the_fork_server_and_the_log(monkeypatch):
    monkeypatch.delenv("MUTATE_LOG", raising=False)
    text = mutate.config_text(mutate.TARGETS["engine"])
    assert "process_isolation = forkserver" in text and "log_to_file" not in text
    assert "    --deselect=tests/engine/test_cli.py" in text.splitlines()
    assert "    --timeout=30" in text.splitlines()  # a hanging mutant fails a test in 30 s
    monkeypatch.setenv("MUTATE_LOG", "1")
    assert "log_to_file = true" in mutate.config_text(mutate.TARGETS["engine"]).splitlines()


def test_a_sample_is_the_same_for_the_same_seed_and_names_each_mutant_once(tmp_path):
    write_meta(tmp_path, "mod", {f"pkg.mod.x_f__mutmut_{i}": None for i in range(1, 101)})
    write_meta(tmp_path, "other", {f"pkg.other.x_h__mutmut_{i}": 1 for i in range(1, 51)})
    first = mutate.sample(tmp_path, 30, seed=1)
    assert len(first) == 30 and first == sorted(set(first))
    assert first == mutate.sample(tmp_path, 30, seed=1)
    assert first != mutate.sample(tmp_path, 30, seed=2)
    assert {name.split(".")[1] for name in first} == {"mod", "other"}  # checked or not
    assert len(mutate.sample(tmp_path, 500, seed=1)) == 150  # all of them, no more


def test_the_score_of_a_sample_has_its_95_percent_interval():
    low, high = mutate.wilson(95, 100)
    assert round(low, 3) == 0.888 and round(high, 3) == 0.978
    assert mutate.wilson(0, 0) == (0.0, 1.0)


def test_a_resume_maps_the_tests_again_when_one_changed_since(tmp_path):
    stats, tests = tmp_path / "mutmut-stats.json", tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text("")
    os.utime(tests / "test_a.py", (1000, 1000))
    stats.write_text("{}")
    mutate.forget_stale_map(tmp_path, tests)
    assert stats.is_file()  # no test changed since the map was made
    (tests / "test_a.py").write_text("def test(): pass")
    os.utime(stats, (1000, 1000))
    mutate.forget_stale_map(tmp_path, tests)
    assert not stats.exists()


def test_results_are_carried_to_another_machine_for_the_functions_unchanged(tmp_path):
    ran, fresh = tmp_path / "ran", tmp_path / "fresh"
    (ran / "pkg").mkdir(parents=True)
    (ran / "pkg" / "mod.py").write_text(MUTANTS)
    codes = {
        "pkg.mod.x_f__mutmut_1": 1,  # killed
        "pkg.mod.x_f__mutmut_2": 0,  # survived, listed as equivalent
        "pkg.mod.x_f__mutmut_3": 0,  # survived, unexplained: checked again
        "pkg.mod.x_f__mutmut_4": None,  # not checked
        "pkg.mod.x_g__mutmut_1": 1,  # its function changed since
    }
    meta = write_meta(ran, "mod", codes)
    meta.write_text(
        json.dumps({"exit_code_by_key": codes, "hash_by_function_name": {"x_f": "aa", "x_g": "bb"}})
    )
    mutate.save(ran, tmp_path / "mod.txt")
    assert (tmp_path / "mod.txt").read_text() == "pkg.mod.x_f aa 1,0,0,-\npkg.mod.x_g bb 1\n"
    (fresh / "pkg").mkdir(parents=True)
    (fresh / "pkg" / "mod.py").write_text(MUTANTS)
    fresh_meta = fresh / "pkg" / "mod.py.meta"
    fresh_meta.write_text(
        json.dumps(
            {
                "exit_code_by_key": dict.fromkeys(codes),
                "hash_by_function_name": {"x_f": "aa", "x_g": "changed"},
            }
        )
    )
    assert mutate.restore(fresh, tmp_path / "mod.txt", EXPLAINED) == 2
    assert json.loads(fresh_meta.read_text())["exit_code_by_key"] == {
        "pkg.mod.x_f__mutmut_1": 1,
        "pkg.mod.x_f__mutmut_2": 0,
        "pkg.mod.x_f__mutmut_3": None,
        "pkg.mod.x_f__mutmut_4": None,
        "pkg.mod.x_g__mutmut_1": None,
    }
