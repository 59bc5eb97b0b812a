"""Imports only go down: read -> the stages in their order (sheetaudit/stages: s1_find ... s8_checks) -> report, and
the reader knows nothing of the stages after it. Every `import` in every module (at the top, inside a function or
under `if TYPE_CHECKING:`) is mapped to the layer of what it imports; importing a higher layer fails here, naming
the line. There are no exemptions: a constant every layer needs (the version) lives in a module of the lowest."""

import ast
import re

import pytest

from conftest import ROOT

PACKAGE = ROOT / "sheetaudit"
STAGE = re.compile(r"s(\d+)_\w+")
# The stages as the folder lists them, which is their order in the pipeline: each may import the ones before it.
STAGES = sorted(
    (p.stem for p in (PACKAGE / "stages").iterdir() if STAGE.fullmatch(p.stem)),
    key=lambda name: int(STAGE.fullmatch(name).group(1)),
)

# Lowest first. A module may import its own layer's modules and any lower layer's; a package (read, a stage, atscale,
# output, batch) is one layer, so its modules may import each other.
LAYERS = [
    (
        "errors",
        "failures",
        "limits",
        "numfmt",
        "fileio",
        "cachedir",
        "rules_folder",
        "severity",
        "regex_cache",
        "textsafe",
        "version",
        "options",
    ),  # what decides an audit: plain values, passed down by every way in
    ("records",),
    ("read",),
    ("rules",),
    ("validate", "contract"),  # user inputs checked against schemas in rules/inputs; results against the
    # output's schema, whose lists (requirement keys, sheet kinds) the rules own
    ("result_cache",),  # entries checked against the output's schema (contract)
    ("technologies", "units", "naming"),
    ("stages",),  # the package's own __init__: the list of stages, importing none
    *((f"stages.{name}",) for name in STAGES),
    ("basis",),
    ("atscale",),
    ("requirements",),
    ("output",),
    ("pipeline",),
    ("batch",),
    ("cli", "__main__", "api", "entry", ""),  # "" is the package itself (sheetaudit/__init__.py: the public facade)
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}
# What the reader may import besides itself: it hands plain data up and never asks the stages above.
READ_MAY_IMPORT = {"read", "records", "limits", "errors", "regex_cache"}  # regex_cache: compiled patterns, no knowledge
# The stages take the reader's Document (sheetaudit.records) and never call the reader themselves: what the audit
# needs from a page (whether OCR could read it) is asked at pipeline level. Triage is the reader's own question
# (which pages to lay out), asked while it reads, so it shares the reader's marks.
NEVER_CALL_THE_READER = {f"stages.{name}" for name in STAGES} - {"stages.s2_triage"}


def layer_of(dotted: str) -> str:
    """'sheetaudit.read.pdf' -> 'read'; 'sheetaudit.stages.s8_checks.ask' -> 'stages.s8_checks'; 'sheetaudit' -> ''."""
    parts = dotted.split(".")[1:]
    if parts[:1] == ["stages"] and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0] if parts else ""


def module_name(path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def imports(path, source: str | None = None):
    """(line, imported dotted name) for every sheetaudit import of the module at PATH (or of SOURCE, as if there)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("sheetaudit"):
                continue
            if node.module is None or target == "sheetaudit":  # `from . import x`: x is a module or a name
                for alias in node.names:
                    module = f"{target}.{alias.name}"
                    yield node.lineno, module if _is_module(module) else target
            else:
                yield node.lineno, target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sheetaudit"):
                    yield node.lineno, alias.name


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    unknown = {layer_of(module_name(p)) for p in MODULES} - set(RANK)
    assert not unknown, f"add these to LAYERS in tests/test_layers.py: {sorted(unknown)}"


def upward_imports(path, source: str | None = None) -> list[str]:
    me = layer_of(module_name(path))
    upward = []
    for line, target in imports(path, source):
        them = layer_of(target)
        if me == "read" and them not in READ_MAY_IMPORT:
            upward.append(f"line {line}: {target} (the reader imports only {', '.join(sorted(READ_MAY_IMPORT))})")
        elif me in NEVER_CALL_THE_READER and them == "read":
            upward.append(f"line {line}: {target} (a stage takes the Document; the pipeline calls the reader)")
        elif RANK[them] > RANK[me]:
            upward.append(f"line {line}: {target} (layer {them!r} is above {me!r})")
    return upward


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_imports_only_go_down(path):
    upward = upward_imports(path)
    assert not upward, f"{module_name(path)} imports upward:\n" + "\n".join(upward)


@pytest.mark.parametrize(
    "where, source",
    [
        (
            "stages/s8_checks/sheet_checks.py",
            "def hint():\n    from ...read.ocr import status\n",
        ),  # checks ask no reader
        ("read/pdf.py", "from ..rules import load_rules\n"),  # the reader knows no rules
        ("stages/s3_context.py", "from .s4_classify import technology\n"),  # the old circle
        ("output/json_out.py", "from .. import __version__\n"),  # the facade, from below
    ],
)
def test_an_upward_import_is_caught(where, source):
    assert upward_imports(PACKAGE / where, source)


def test_type_checking_imports_are_no_exemption():
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..pipeline import run\n"
    assert upward_imports(PACKAGE / "read" / "pdf.py", source)


def test_the_stages_are_numbered_one_by_one():
    """The folder lists the stages in pipeline order; the package's docstring and the README name them in that order."""
    assert [int(STAGE.fullmatch(s).group(1)) for s in STAGES] == list(range(1, len(STAGES) + 1))
    import sheetaudit.stages

    assert re.findall(r"^\s+(s\d+_\w+)", sheetaudit.stages.__doc__, re.M) == STAGES
    how = (ROOT / "README.md").read_text(encoding="utf-8").split("## How it works", 1)[1]
    assert re.findall(r"`(s\d+_\w+)`", how.strip().split("\n\n", 1)[0]) == STAGES, (
        "the README's How it works names them in order"
    )
