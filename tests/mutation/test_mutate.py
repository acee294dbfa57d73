"""make mutate's own bookkeeping (tests/mutation/mutate.py): what a resume runs again, and the
list of equivalent mutants."""

from __future__ import annotations

import json

from tests.mutation import mutate

EXPLAINED = {"pkg.mod.x_f__mutmut_2": "equal", "pkg.mod.x_g__mutmut_*": "all equal"}


def write_meta(folder, name, codes):
    path = folder / "pkg" / f"{name}.py.meta"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes, "durations_by_key": {}}))
    return path


def test_a_resume_checks_again_only_the_survivors_not_explained(tmp_path):
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


def test_every_equivalent_mutant_is_listed_with_its_reason():
    listed = mutate.equivalents()
    assert len(listed) > 20 and all(reason.strip() for reason in listed.values())
    assert mutate.explained_by("ginrummy.melds.x__best_key__mutmut_1", listed).startswith(
        "always the memoised search"
    )
    assert mutate.explained_by("ginrummy.melds.x__best_key__mutmut_99", listed) is None


def test_the_configuration_asks_for_the_fork_server_and_the_log(monkeypatch):
    monkeypatch.delenv("MUTATE_LOG", raising=False)
    text = mutate.config_text(mutate.TARGETS["engine"])
    assert "process_isolation = forkserver" in text and "log_to_file" not in text
    assert "    --deselect=tests/engine/test_cli.py" in text.splitlines()
    monkeypatch.setenv("MUTATE_LOG", "1")
    assert "log_to_file = true" in mutate.config_text(mutate.TARGETS["engine"]).splitlines()
