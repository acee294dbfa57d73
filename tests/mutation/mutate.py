"""`make mutate`: mutation testing of the engine and of the site build code with mutmut.

    python tests/mutation/mutate.py [engine] [build]     # both when none is named
    python tests/mutation/mutate.py --save [engine] [build]  # keep a stopped run's results

For each target a work folder ``.mutate/<target>/`` holds links to the code and the tests, laid
out as mutmut wants them (the packages at the top, as the tests import them), and the mutmut
configuration written from ``TARGETS`` below. mutmut copies them into ``mutants/`` there, makes
every mutant, and runs against each only the tests that reach the mutated function, fastest
first, stopping at the first failure. Hypothesis runs derandomized, without its database, so a
run is repeatable.

It then prints, per target, the score (mutants killed, timeouts included, over the mutants
checked, less those listed in ``tests/mutation/equivalent.txt``) and every other survivor with
its diff. A mutant is listed there, with the reason and a line it changes, when no test can
kill it: it changes nothing the code does, or mutmut cannot switch it on (code that runs once,
at import). A listed mutant that no longer changes that line counts as unexplained. It
exits 1 when a survivor is unexplained, a mutant is not checked yet, or the engine's score is
under ``ENGINE_TARGET``.

A run starts afresh (the results of a previous run are removed), unless ``MUTATE_RESUME=1``:
then the mutants killed stay killed and the survivors not listed as equivalent are checked
again, against the tests as they are now (mapped again to the functions they reach, if a test
file changed). After each run the results are written to ``tests/mutation/results/<target>.txt``
(``--save`` writes them after a run was stopped); committed, they carry a run too long for one
machine's day to the next: a resume with no work folder starts from them, for every function
unchanged since. (mutmut itself starts over when the way the tests run changes: the pytest
arguments below, pytest.ini.)
``MUTATE_CHILDREN`` sets how many mutants run at once (default: the machine's cores);
``MUTATE_LOG=1`` writes mutmut's debug log (each mutant, its tests and its time) to
``.mutate/<target>/mutants/mutmut-debug.log``.
``MUTATE_ONLY`` checks only the mutants whose names match its patterns (mutmut's, separated by
spaces, e.g. ``"ginrummy.ending.* ginrummy.rules.*"``); with ``MUTATE_RESUME=1``, only those not
checked yet, so a long run can be done a few modules at a time. (mutmut itself runs again every
mutant it is given by pattern, however it ended before.) Without a pattern, a resume runs the
mutants not checked yet, those with the fastest tests first.
``MUTATE_SAMPLE=N`` checks a uniform random sample of N of the target's mutants (the same N for
the same code; ``MUTATE_SEED`` picks another) and prints the score of the sample with its 95%
interval: for a target whose whole run takes hours (the build's). With ``MUTATE_RESUME=1``, only
those of the sample not checked yet.
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
WORK = REPO / ".mutate"
EQUIVALENT = Path(__file__).with_name("equivalent.txt")
ENGINE_TARGET = 95.0

TARGETS = {
    # The engine: its own fast tests, no site, no browser.
    "engine": {
        "links": {"ginrummy": "engine/ginrummy", "tests": "tests", "pytest.ini": "pytest.ini"},
        "source_paths": ["ginrummy"],
        # the command line runs in a subprocess, where mutmut cannot see which test reaches
        # which function: tests/engine/test_cli.py tests it (make test)
        "do_not_mutate": ["ginrummy/__main__.py"],
        "tests": ["tests/engine"],
        # the reference solver's large sample and the README's doctests: slow, and what they
        # reach the other engine tests reach too
        "deselect": [
            "tests/engine/test_cli.py",
            "tests/engine/test_readme.py",
            "tests/engine/test_score_reference.py",
            "tests/engine/test_hand.py::test_random_playouts",
        ],
        # seconds: a mutant that makes a test hang fails it then (a kill), sooner than
        # mutmut's own timeout, 5 times the time of all its tests (minutes for the bots'); the
        # slowest of these tests takes about 3 s
        "test_timeout": 30,
    },
    # The build code: the presentation layer (used at build and in the browser) and sitegen's
    # checks of fences, lessons and catalogs, through the tests that need no built site.
    "build": {
        "links": {
            "ginview": "presentation/ginview",
            "sitegen": "sitegen",
            "tests": "tests",
            "docs": "docs",
            "locales": "locales",
            "tutorials": "tutorials",
            "mkdocs.yml": "mkdocs.yml",
            "pytest.ini": "pytest.ini",
            "package.json": "package.json",  # the Pyodide pin, read when the tests load
            # read as text by the tests that every code and key has a message
            "engine": "engine",
            "presentation": "presentation",
        },
        "source_paths": ["ginview", "sitegen"],
        # the server, the Pyodide runtime and wheels, and the command line are exercised only
        # by the whole build and the browser (make test), not by fast tests
        "do_not_mutate": [
            "sitegen/server.py",
            "sitegen/runtime.py",
            "sitegen/wheels.py",
            "sitegen/pyc_wheel.py",
            "sitegen/snapshot.py",
            "sitegen/__main__.py",
            "sitegen/pipeline.py",
        ],
        "tests": ["tests/view", "tests/site"],
        # the whole build, the project's pins, and what runs the project's commands or the
        # runtime's tools in a subprocess (mutmut cannot switch a mutant on there): make test
        "deselect": [
            "tests/site/test_fences.py::test_mkdocs_build_alone_builds_the_whole_site",
            "tests/site/test_contributing.py",
            "tests/site/test_licence.py",
            "tests/site/test_lock.py",
            "tests/site/test_runtime.py",
            "tests/site/test_languages.py::test_the_command_line_adds_a_language_and_refuses_a_bad_one",
            "tests/site/test_site.py::test_a_build_stopped_by_sigterm_leaves_nothing_half_made",
        ],
        "test_timeout": 300,  # pytest.ini's
    },
}


def config_text(target: dict) -> str:
    """The mutmut configuration (setup.cfg) of a target."""
    lines = ["[mutmut]", "source_paths =", *(f"    {p}" for p in target["source_paths"])]
    if target.get("do_not_mutate"):
        lines += ["do_not_mutate =", *(f"    {p}" for p in target["do_not_mutate"])]
    lines += [
        "also_copy =",
        *(f"    {name}" for name in target["links"] if name not in target["source_paths"]),
    ]
    lines += ["pytest_add_cli_args_test_selection =", *(f"    {t}" for t in target["tests"])]
    args = [
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-m",
        "not needs_site and not soak",
        f"--timeout={target['test_timeout']}",
        *[f"--deselect={d}" for d in target["deselect"]],
    ]
    lines += ["pytest_add_cli_args =", *(f"    {a}" for a in args)]
    lines += ["timeout_multiplier = 5.0", "use_git_change_detection = false"]
    # each mutant forks from a server that has imported the tests and the mutated code once;
    # forked from mutmut's own process, a resumed run imported them again for every mutant
    lines += ["process_isolation = forkserver"]
    if os.environ.get("MUTATE_LOG") == "1":  # mutmut's debug log: mutants/mutmut-debug.log
        lines += ["log_to_file = true"]
    lines += [""]
    return "\n".join(lines)


def prepare(name: str, explained: dict[str, Listed]) -> Path:
    target = TARGETS[name]
    folder = WORK / name
    if os.environ.get("MUTATE_RESUME") != "1" and folder.exists():
        shutil.rmtree(folder)
    elif folder.exists():
        recheck_survivors(folder / "mutants", explained)
        forget_stale_map(folder / "mutants", REPO / "tests")
    folder.mkdir(parents=True, exist_ok=True)
    for link, source in target["links"].items():
        path = folder / link
        if not path.is_symlink():
            path.symlink_to(REPO / source)
    (folder / "setup.cfg").write_text(config_text(target), encoding="utf-8")
    return folder


def forget_stale_map(mutants: Path, tests: Path) -> None:
    """mutmut maps each test to the functions it reaches once, and on a resume maps only the
    new tests: a test changed since would keep its old map (and a mutant it now kills would
    survive). So when a test file changed after the map was made, the map is removed, and
    mutmut makes it again from every test (results are kept)."""
    stats = mutants / "mutmut-stats.json"
    if stats.is_file() and any(
        path.stat().st_mtime > stats.stat().st_mtime for path in tests.rglob("*.py")
    ):
        print("   the tests changed since mutmut mapped them: mapping them again", flush=True)
        stats.unlink()


NO_TESTS = 33
"""mutmut's result for a mutant that no test reached (a new test may reach it)."""


def recheck_survivors(mutants: Path, explained: dict[str, Listed]) -> None:
    """On a resume, the tests may have changed since the last run: every mutant that survived
    or that no test reached, and is not listed as equivalent, is checked again (mutmut keeps a
    result until its function changes, and maps only the new tests to the functions they
    reach). Killed mutants stay killed: tests are only added."""
    for meta, data in results(mutants):
        codes = data.get("exit_code_by_key", {})
        survived = [
            key
            for key, code in codes.items()
            if code in (0, NO_TESTS) and not explained_by(key, explained, mutants)
        ]
        if survived:
            codes.update(dict.fromkeys(survived))
            meta.write_text(json.dumps(data), encoding="utf-8")


def results(mutants: Path) -> Iterator[tuple[Path, dict]]:
    """mutmut's result files (``<source>.meta``, one per source file), each with its data."""
    for meta in sorted(mutants.rglob("*.meta")):
        yield meta, json.loads(meta.read_text(encoding="utf-8"))


def unchecked(mutants: Path, patterns: list[str]) -> list[str]:
    """The mutants matching ``patterns`` that have no result yet. mutmut runs again every
    mutant it is given by name or pattern, so a resume names only these. (A function changed
    since the last run gets its new mutants at the next run without MUTATE_ONLY.)"""
    names = []
    for _, data in results(mutants):
        codes = data.get("exit_code_by_key", {})
        names += [
            key
            for key, code in codes.items()
            if code is None and any(fnmatch.fnmatchcase(key, p) for p in patterns)
        ]
    return names


SAVED = Path(__file__).with_name("results")
"""``<target>.txt``: the results of a target's last run, per function (its hash, then its
mutants' results in order, "-" for not checked), written after each run. Committed, they carry
a long run to another machine: a resume with no work folder starts from them."""


def save(mutants: Path, path: Path) -> None:
    """Write mutmut's results, per function, to ``path``."""
    functions: dict[str, tuple[str, dict[int, int | None]]] = {}
    for _, data in results(mutants):
        hashes = data.get("hash_by_function_name", {})
        for key, code in data.get("exit_code_by_key", {}).items():
            function, _, number = key.partition("__mutmut_")
            mangled = function.rpartition(".")[2]
            functions.setdefault(function, (hashes.get(mangled, "?"), {}))[1][int(number)] = code
    lines = [
        f"{function} {digest} "
        + ",".join("-" if codes.get(i) is None else str(codes[i]) for i in range(1, max(codes) + 1))
        for function, (digest, codes) in sorted(functions.items())
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def restore(mutants: Path, path: Path, explained: dict[str, Listed]) -> int:
    """Put the results ``save`` wrote into mutmut's result files, for the functions unchanged
    since (the same hash); not the survivors left unexplained, which are checked again. How
    many were put back."""
    saved = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        function, digest, codes = line.split(" ")
        saved[function] = (digest, codes.split(","))
    count = 0
    for meta, data in results(mutants):
        hashes = data.get("hash_by_function_name", {})
        codes = data.get("exit_code_by_key", {})
        for key in codes:
            function, _, number = key.partition("__mutmut_")
            digest, kept = saved.get(function, ("", []))
            index = int(number) - 1
            if digest != hashes.get(function.rpartition(".")[2]) or index >= len(kept):
                continue
            if kept[index] == "-":
                continue
            code = int(kept[index])
            if code in (0, NO_TESTS) and not explained_by(key, explained, mutants):
                continue
            codes[key] = code
            count += 1
        meta.write_text(json.dumps(data), encoding="utf-8")
    return count


NO_MUTANT = "no.such.mutant"
"""A name no mutant has: a run given it makes the mutants and maps the tests, then stops."""


def sample(mutants: Path, size: int, seed: int) -> list[str]:
    """A uniform random sample of ``size`` of the mutants (all of them if there are fewer),
    in order; the same for the same mutants and seed."""
    names = sorted(key for _, data in results(mutants) for key in data.get("exit_code_by_key", {}))
    return sorted(random.Random(seed).sample(names, min(size, len(names))))


def mutmut(folder: Path, *args: str, check=True, show=False) -> str:
    """Run mutmut in ``folder``; its output is returned, or shown as it goes (``show``)."""
    exe = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "GIN_MUTATE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [str(exe), *args], cwd=folder, env=env, text=True, capture_output=not show
    )
    if check and done.returncode != 0:
        sys.exit(
            f"mutmut {' '.join(args)} failed in {folder}"
            + ("" if show else f":\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        )
    return done.stdout or ""


class Listed(NamedTuple):
    """A line of ``tests/mutation/equivalent.txt``."""

    reason: str
    change: str
    """A line the mutant writes ("+ " and the line) or removes ("- " and the line), as ``mutmut
    show`` marks it; "" for a pattern."""


def equivalents() -> dict[str, Listed]:
    """``tests/mutation/equivalent.txt``: per mutant, ``mutant-name  reason``, then, indented, a
    line it changes, as ``mutmut show`` marks it (+ written, - removed). mutmut numbers a
    function's mutants in order, so after the function changes a number may name another
    mutant: the line catches that. A name may hold ``*`` wildcards (no line then). # starts a
    comment, except in a line of code."""
    found: dict[str, Listed] = {}
    name = ""
    for raw in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        if raw[:1].isspace() and raw.strip()[:2] in ("+ ", "- "):
            if not name or found[name].change:
                sys.exit(f"{EQUIVALENT}: a line of code with no mutant before it: {raw.strip()}")
            found[name] = found[name]._replace(change=_marked(raw.strip()))
            continue
        line = raw.split("#", 1)[0].strip()
        if line:
            name, _, reason = line.partition(" ")
            if not reason.strip():
                sys.exit(f"{EQUIVALENT}: {name}: give the reason it is equivalent")
            found[name] = Listed(reason.strip(), "")
    for name, listed in found.items():
        if "*" not in name and not listed.change:
            sys.exit(
                f"{EQUIVALENT}: {name}: give a line it changes, indented, as `mutmut show "
                f"{name}` marks it (+ or -)"
            )
    return found


def listed_as(mutant: str, explained: dict[str, Listed]) -> Listed | None:
    """The line of the list that names ``mutant``, if one does."""
    return next(
        (listed for pattern, listed in explained.items() if fnmatch.fnmatchcase(mutant, pattern)),
        None,
    )


def explained_by(mutant: str, explained: dict[str, Listed], mutants: Path) -> str | None:
    """The reason ``mutant`` is equivalent: listed, and still the mutant the list describes
    (it changes the line given there)."""
    listed = listed_as(mutant, explained)
    if listed is None or (listed.change and listed.change not in changes(mutants, mutant)):
        return None
    return listed.reason


def changes(mutants: Path, mutant: str) -> list[str]:
    """The lines ``mutant`` changes in its function, as ``mutmut show`` marks them ("+ " and a
    line written, "- " and a line removed; stripped): read from mutmut's copy of the source,
    where each mutant is a function of its own."""
    module, _, function = mutant.rpartition(".")
    path = mutants / (module.replace(".", "/") + ".py")
    bodies = _bodies(path if path.exists() else path.with_suffix("") / "__init__.py")
    original = bodies.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
    diff = difflib.ndiff(original, bodies.get(function, []))
    return [_marked(line) for line in diff if line[:2] in ("+ ", "- ")]


def _marked(line: str) -> str:
    """A changed line with its mark (+ or -), its code stripped."""
    return f"{line[0]} {line[2:].strip()}"


@functools.cache
def _bodies(path: Path) -> dict[str, list[str]]:
    """Each function of the source at ``path``: its lines, stripped (mutmut may indent a
    mutant's lines otherwise), the ``def`` line without the name (each mutant has its own)."""
    source = path.read_text(encoding="utf-8")
    lines = [line.strip() for line in source.splitlines()]
    return {
        node.name: [
            lines[node.lineno - 1].replace(node.name, "…", 1),
            *lines[node.lineno : node.end_lineno],
        ]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def report(
    name: str,
    folder: Path,
    seconds: float,
    explained: dict[str, Listed],
    sampled: list[str] | None = None,
) -> bool:
    """Print the target's score (of the ``sampled`` mutants only, if given, with its 95%
    interval) and its survivors; whether it passes."""
    statuses = {}
    for line in mutmut(folder, "results", "--all=true").splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if match:
            statuses[match.group(1)] = match.group(2).strip()
    everything = len(statuses)
    if sampled is not None:
        chosen = set(sampled)
        statuses = {m: s for m, s in statuses.items() if m in chosen}
    unchecked = [m for m, s in statuses.items() if s == "not checked"]
    checked = {m: s for m, s in statuses.items() if s != "not checked"}
    killed = [m for m, s in checked.items() if s in ("killed", "timeout")]
    survivors = sorted(m for m in checked if m not in killed)
    mutants = folder / "mutants"
    listed = [m for m in survivors if explained_by(m, explained, mutants)]
    open_ = [m for m in survivors if m not in listed]
    tested = len(checked) - len(listed)
    score = 100.0 * len(killed) / tested if tested else 0.0
    print(
        f"\n== {name}: {score:.1f}% of the mutants killed ({len(killed)} of {tested}; "
        f"{len(listed)} more listed as equivalent, {len(open_)} survivors unexplained; "
        f"{len(killed) / len(checked) * 100 if checked else 0:.1f}% of all {len(checked)} "
        f"checked; {seconds:.0f} s)"
    )
    if sampled is not None:
        low, high = wilson(len(killed), tested)
        print(
            f"   a random sample of {len(statuses)} of the {everything} mutants: the target's "
            f"score is {100 * low:.1f}% to {100 * high:.1f}% (95% interval)"
        )
    if unchecked:
        print(
            f"   incomplete: {len(unchecked)} of {len(statuses)} mutants not checked yet "
            "(MUTATE_RESUME=1 goes on)"
        )
    for mutant in open_:
        print(f"\n-- {checked[mutant]}: {mutant}")
        stale = listed_as(mutant, explained)
        if stale:
            print(f"   listed as equivalent for `{stale.change}`, which it no longer changes")
        print(mutmut(folder, "show", mutant, check=False).strip())
    reasons: dict[str | None, list[str]] = {}
    for mutant in listed:
        reasons.setdefault(explained_by(mutant, explained, mutants), []).append(mutant)
    for reason, mutants in reasons.items():
        print(f"   equivalent ({len(mutants)}): {reason}")
    whole = sampled is None
    return not open_ and not unchecked and (name != "engine" or (whole and score >= ENGINE_TARGET))


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (bench/strength.py's, for its win rates)."""
    sys.path.insert(0, str(REPO / "bench"))
    from strength import wilson as interval

    return interval(successes, trials)


def main(names: list[str]) -> int:
    if names[:1] == ["--save"]:  # after a run was stopped: keep what it found
        for name in names[1:] or list(TARGETS):
            save(WORK / name / "mutants", SAVED / f"{name}.txt")
        return 0
    names = names or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        sys.exit(f"unknown target {unknown[0]!r}: choose from {', '.join(TARGETS)}")
    explained = equivalents()
    ok = True
    for name in names:
        resume = os.environ.get("MUTATE_RESUME") == "1"
        saved = SAVED / f"{name}.txt"
        carried = resume and saved.is_file() and not (WORK / name / "mutants").is_dir()
        folder = prepare(name, explained)
        start = time.monotonic()
        children = os.environ.get("MUTATE_CHILDREN", str(os.cpu_count() or 2))
        print(f"mutmut: {name} ({children} at once) ...", flush=True)
        patterns = os.environ.get("MUTATE_ONLY", "").split()
        size = int(os.environ.get("MUTATE_SAMPLE") or 0)
        sampled = None
        if (size or carried) and not any(results(folder / "mutants")):
            print("   making the mutants and mapping the tests first …", flush=True)
            mutmut(folder, "run", "--max-children", children, NO_MUTANT, check=False)
        if carried:
            count = restore(folder / "mutants", saved, explained)
            print(f"   {count} results carried over from {saved.relative_to(REPO)}", flush=True)
        if size:
            patterns = sampled = sample(
                folder / "mutants", size, int(os.environ.get("MUTATE_SEED") or 1)
            )
        only = unchecked(folder / "mutants", patterns) if patterns and resume else patterns
        if patterns and not only:
            print("   every mutant named is checked already")
        else:
            mutmut(folder, "run", "--max-children", children, *only, show=True)
        save(folder / "mutants", saved)
        ok = report(name, folder, time.monotonic() - start, explained, sampled) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
