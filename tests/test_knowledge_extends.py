"""rules/technologies.yaml is the only place a fabric is known: a new one added there (a copy of the rules, no
Python edited) is read as its tier, by its convention, checked against its rows, asked about and listed by `tech`.
And no module names a fabric of its own: a fabric in the code is one the knowledge base holds.

This is the README's recipe for teaching the tool a fabric, followed to the end."""

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, run_cli
from sheetaudit.technologies import build

EXAMPLE_LINK = {
    "name": "ExampleLink",
    "pattern": "ExampleLink",
    "tier": "scale-up",
    "bytes_totals": "bidirectional",
    "generation_pattern": r"ExampleLink[\s-]*(\d)",
    "accelerator": "XPU",
    "generations": [
        {
            "gen": "1",
            "names": [r"\bEX-100\b"],
            "per_link_gbs": 100,
            "links_per_accelerator": 4,
            "per_accelerator_gbs": 400,
            "max_domain": 32,
            "note": "A fabric made up for this test.",
            "source": "vendor: Example Corp, EX-100 data sheet (fictional: tests/test_knowledge_extends.py follows the recipe)",
            "checked": "2026-12-02",
        }
    ],
}

SHEET = """# Osprey O16 accelerator server

Sixteen EX-100 accelerators are joined by ExampleLink 1 in one scale-up domain.

| Specification | Value |
|---|---|
| Accelerators | 16x EX-100 |
| Accelerator interconnect | ExampleLink 1, 800 GB/s per accelerator |
| Cluster network | 8x 400 Gb/s InfiniBand NDR |
| System power | 12 kW |
"""

IMPOSSIBLE = """# Osprey O64 accelerator pod

| Specification | Value |
|---|---|
| Accelerator interconnect | ExampleLink 1, 2,000 GB/s per direction per accelerator |
| Accelerators | 64 accelerators per ExampleLink domain |
| Cluster network | 8x 400 Gb/s InfiniBand NDR |
| System power | 40 kW |
"""


@pytest.fixture(scope="module")
def rules_with_example(tmp_path_factory) -> Path:
    """A copy of rules/ with ExampleLink added to technologies.yaml, and nothing else changed."""
    d = tmp_path_factory.mktemp("rules") / "rules"
    shutil.copytree(ROOT / "rules", d)
    doc = yaml.safe_load((d / "technologies.yaml").read_text(encoding="utf-8"))
    doc["technologies"].append(EXAMPLE_LINK)
    (d / "technologies.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return d


def _check(tmp_path, text: str, rules: Path | None, *more) -> dict:
    sheet = tmp_path / "sheet.md"
    sheet.write_text(text, encoding="utf-8")
    env = {"SHEETAUDIT_RULES": rules} if rules else {}
    r = run_cli("check", "--format", "json", "--fail-on", "never", sheet, *more, isolated=True, env=env)
    assert r.returncode == 0, r.output
    return json.loads(r.stdout)


def _the(audit: dict, text: str) -> dict:
    found = [f for f in audit["figures"] if f["text"] == text]
    assert len(found) == 1, [f["text"] for f in audit["figures"]]
    return found[0]


def test_a_fabric_added_to_the_rules_is_read_as_its_tier_by_its_convention(tmp_path, rules_with_example):
    a = _check(tmp_path, SHEET, rules_with_example)
    f = _the(a, "800 GB/s")
    assert (f["tier"], f["technology"], f["scope"]) == ("scale-up", "ExampleLink", "per-accelerator")
    assert f["normalized"] == {"value": 400.0, "unit": "GB/s"}  # bidirectional by its convention: halved
    assert "ExampleLink" in f["reading"]
    assert f["technology_match"]["generation"] == "ExampleLink 1"
    assert f["technology_match"]["status"] == "matches"
    domain = [g for g in a["figures"] if g["quantity"] == "domain_size"]
    assert domain and {(g["value"], g["tier"]) for g in domain} == {(16, "scale-up")}
    assert "tier.domain-size-missing" not in {x["check"] for x in a["findings"]}


def test_without_the_row_the_same_sheet_knows_no_such_fabric(tmp_path):
    f = _the(_check(tmp_path, SHEET, None), "800 GB/s")
    assert not f.get("technology")
    assert f["normalized"] == {"value": 800.0, "unit": "GB/s"}  # no convention: taken as stated


def test_its_rows_bound_what_a_sheet_may_claim(tmp_path, rules_with_example):
    a = _check(tmp_path, IMPOSSIBLE, rules_with_example)
    codes = {x["check"]: x for x in a["findings"]}
    assert "bandwidth.exceeds-technology" in codes, sorted(codes)
    assert "ExampleLink 1" in codes["bandwidth.exceeds-technology"]["message"]
    assert "tier.domain-exceeds-technology" in codes, sorted(codes)


def test_requirements_hold_it_as_the_scale_up_bandwidth(tmp_path, rules_with_example):
    require = tmp_path / "rfp.yaml"
    require.write_text("name: test\nscale_up_gbs: {min: 300}\nscale_up_domain: {min: 8}\n", encoding="utf-8")
    a = _check(tmp_path, SHEET, rules_with_example, "--require", require)
    results = {r["key"]: r["result"] for r in a["requirements"]["results"]}
    assert results == {"scale_up_gbs": "meets", "scale_up_domain": "meets"}


def test_tech_lists_and_explains_it(rules_with_example):
    env = {"SHEETAUDIT_RULES": rules_with_example}
    listed = run_cli("tech", isolated=True, env=env)
    assert listed.returncode == 0 and "ExampleLink 1" in listed.stdout
    one = run_cli("tech", "ExampleLink 1", isolated=True, env=env)
    assert one.returncode == 0, one.output
    assert "Largest domain: 32 accelerators" in one.stdout and "fictional" in one.stdout


# --- no module names a fabric of its own ---------------------------------------------------------------------

# What a fabric's name looks like: a vendor's link ("NeuronLink", "MLU-Link"), fabric or switch, and the names the
# field uses that have no such shape. A name of this shape in the code must be one technologies.yaml spells.
FABRIC_SHAPE = re.compile(
    r"\b[A-Z][A-Za-z0-9]*-?(?:Link|LINK)\b|\b[A-Z][a-z]+ Fabric\b|\bNV[A-Z][A-Za-z]+\b|"
    r"\b(?:InfiniBand|Infiniband|Ethernet|RoCE|iWARP|EFA|HCCS|xGMI|XGMI|ICI|CXL|PCIe|"
    r"Slingshot|Omni-Path|OmniPath|NVLink|UALink)\b"
)
# Not fabrics: words of the shape that name something else.
NOT_FABRICS = {"NVL", "NVMe"}


def _code_strings(path: Path):
    """Every string constant of a module that is not a docstring, with its line (what the code matches or says)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def _names_in(text: str) -> set[str]:
    """Fabric names a string spells, regular-expression alternations split apart ('NVLink|NVSwitch')."""
    return {m.group(0) for m in FABRIC_SHAPE.finditer(re.sub(r"\\[bBsdw]|[\\()?:|\[\]]", " ", text))}


def test_no_module_names_a_fabric_the_knowledge_base_does_not():
    kb = build(yaml.safe_load((ROOT / "rules" / "technologies.yaml").read_text(encoding="utf-8")))
    known = [re.compile(p) for p in [t.pattern for t in kb.technologies] + list(kb.rdma_transports)]
    unknown = []
    for path in sorted((ROOT / "sheetaudit").rglob("*.py")):
        for line, text in _code_strings(path):
            for name in _names_in(text) - NOT_FABRICS:
                if not any(p.fullmatch(name) or p.search(name) for p in known):
                    unknown.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert unknown == [], "name these in rules/technologies.yaml, and read them from there:\n" + "\n".join(unknown)


def test_the_scan_sees_a_fabric_the_knowledge_base_lacks():
    assert _names_in(r"rx(r'NVLink|CumuloLink|\bSlingshot\b')") == {"NVLink", "CumuloLink", "Slingshot"}
