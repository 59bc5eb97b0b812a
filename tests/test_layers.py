"""Imports only go down: read -> find -> context -> classify -> normalise -> check -> report, and the reader knows
nothing of the stages after it. Every `import` in every module (at the top or inside a function) is mapped to the
layer of what it imports; importing a higher layer fails here, naming the line. A back-reference needed only for
type hints goes under `if TYPE_CHECKING:`, which this test skips (as pdfplumber does)."""
import ast

import pytest

from conftest import ROOT

PACKAGE = ROOT / "sheetaudit"

# Lowest first. A module may import its own layer's modules and any lower layer's; a package (read, checks,
# atscale, output, batch) is one layer, so its modules may import each other.
LAYERS = [
    ("errors", "failures", "limits", "numfmt", "fileio", "cachedir", "severity", "regex_cache", "textsafe"),
    ("model",),
    ("read",),
    ("rules",),
    ("validate", "contract"),          # user inputs checked against schemas in rules/inputs; results against the
                                       # output's schema, whose lists (requirement keys, sheet kinds) the rules own
    ("technologies", "units", "naming"),
    ("find",),
    ("triage",),
    ("context",),
    ("classify",),
    ("normalise", "find_compute"),     # find_compute: compute and memory figures, beside the normalised ones
    ("checks",),
    ("basis",),
    ("atscale",),
    ("requirements",),
    ("output",),
    ("pipeline",),
    ("batch",),
    ("cli", "__main__", "api", "entry", ""),   # "" is the package itself (sheetaudit/__init__.py: the public facade)
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}
# What the reader may import besides itself: it hands plain data up and never asks the stages above.
READ_MAY_IMPORT = {"read", "model", "limits", "errors", "regex_cache"}   # regex_cache: compiled patterns, no knowledge
# The stages after the reader take its Document (sheetaudit.model) and never call the reader themselves: what
# the audit needs from a page (whether OCR could read it) is asked at pipeline level.
NEVER_CALL_THE_READER = {"find", "context", "classify", "normalise", "find_compute", "checks"}


def layer_of(dotted: str) -> str:
    """'sheetaudit.read.pdf' -> 'read'; 'sheetaudit.checks' -> 'checks'; 'sheetaudit' -> ''."""
    parts = dotted.split(".")[1:]
    return parts[0] if parts else ""


def module_name(path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _under_type_checking(node, parents) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(path, source: str | None = None):
    """(line, imported dotted name) for every sheetaudit import of the module at PATH (or of SOURCE, as if there)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if _under_type_checking(node, parents):
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("sheetaudit"):
                continue
            if node.module is None or target == "sheetaudit":      # `from . import x`: x is a module or a name
                for alias in node.names:
                    yield node.lineno, f"{target}.{alias.name}"
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
        if target == "sheetaudit.__version__":       # a constant, importable from anywhere
            continue
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


@pytest.mark.parametrize("where, source", [
    ("checks/sheet_checks.py", "def hint():\n    from ..read.ocr import status\n"),   # checks may not ask the reader
    ("read/pdf.py", "from ..rules import load_rules\n"),                              # the reader knows no rules
    ("context.py", "from .classify import technology\n"),                             # the old circle
])
def test_an_upward_import_is_caught(where, source):
    assert upward_imports(PACKAGE / where, source)


def test_type_checking_imports_are_allowed():
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..pipeline import audit\n"
    assert upward_imports(PACKAGE / "read" / "pdf.py", source) == []
