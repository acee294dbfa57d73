"""The code's own layout: no module imports or reads another's private names, and no package's
modules import each other in a circle (each read from its source, imports inside functions
included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "ginrummy": ROOT / "engine" / "ginrummy",
    "ginview": ROOT / "presentation" / "ginview",
    "sitegen": ROOT / "sitegen",
}


def modules(package: str) -> dict[str, ast.Module]:
    """Every module of ``package`` by its dotted name, parsed."""
    folder = PACKAGES[package]
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package, *parts))] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def imported(name: str, tree: ast.Module, known: set[str]) -> list[tuple[str, list[str]]]:
    """The package's modules ``name`` imports, each with the names it takes from it."""
    package = name if name in {n.rsplit(".", 1)[0] for n in known if "." in n} else None
    base = name.split(".") if package else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            parts = (base[: len(base) - node.level + 1] if node.level else []) + (
                node.module.split(".") if node.module else []
            )
            target = ".".join(parts)
            names = [alias.name for alias in node.names]
            submodules = [f"{target}.{alias}" for alias in names if f"{target}.{alias}" in known]
            found += [(module, []) for module in submodules]  # from . import a_module
            if target in known and len(submodules) < len(names):
                found.append((target, names))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name in known]
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_takes_another_modules_private_names(package):
    found = modules(package)
    taken = [
        f"{name} takes {target}.{alias}"
        for name, tree in found.items()
        for target, names in imported(name, tree, set(found))
        for alias in names
        if alias.startswith("_") and not alias.startswith("__") and target != name
    ]
    assert taken == []


def module_names(name: str, tree: ast.Module, known: set[str]) -> dict[str, str]:
    """The local names under which ``name`` holds the package's modules: ``from . import
    fields as F`` gives ``{"F": "ginview.fields"}``."""
    package = name in {n.rsplit(".", 1)[0] for n in known if "." in n}
    base = name.split(".") if package else name.split(".")[:-1]
    held = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            parts = (base[: len(base) - node.level + 1] if node.level else []) + (
                node.module.split(".") if node.module else []
            )
            for alias in node.names:
                if f"{'.'.join(parts)}.{alias.name}" in known:
                    held[alias.asname or alias.name] = f"{'.'.join(parts)}.{alias.name}"
        elif isinstance(node, ast.Import):
            held.update({a.asname: a.name for a in node.names if a.asname and a.name in known})
    return held


def private_reads(name: str, tree: ast.Module, known: set[str]) -> list[str]:
    """The private names ``name`` reads as attributes of the package's modules (``F._cards``)."""
    held = module_names(name, tree, known)
    return [
        f"{name} reads {held[node.value.id]}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in held
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_reads_another_modules_private_names(package):
    found = modules(package)
    assert [
        read for name, tree in found.items() for read in private_reads(name, tree, set(found))
    ] == []


def test_a_private_name_read_from_a_module_is_found():
    known = {"ginview", "ginview.fields", "ginview.steps", "ginview.play", "ginview.play.views"}
    source = "from .. import steps\nfrom .. import fields as F\nimport ginview.steps as S\n"
    tree = ast.parse(source + "F._cards\nsteps.x\nS.__doc__\nS._y\nother._z")
    assert module_names("ginview.play.views", tree, known) == {
        "steps": "ginview.steps",
        "F": "ginview.fields",
        "S": "ginview.steps",
    }
    assert private_reads("ginview.play.views", tree, known) == [
        "ginview.play.views reads ginview.fields._cards",
        "ginview.play.views reads ginview.steps._y",
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_modules_import_each_other_in_a_circle(package):
    found = modules(package)
    graph = {
        name: {t for t, _ in imported(name, tree, set(found)) if t != name and t != package}
        for name, tree in found.items()
    }
    circles = []

    def visit(name: str, path: list[str]) -> None:
        for target in sorted(graph[name]):
            if target in path:
                circles.append(" -> ".join(path[path.index(target) :] + [target]))
            elif target not in done:
                visit(target, path + [target])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert circles == []
