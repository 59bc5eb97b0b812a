"""Golden outputs for the bundled samples: what each sheet normalises to and which checks it raises.

A change that moves any of these is either a fix (regenerate with `python tests/test_golden.py --update`
and say why in the commit) or a regression.
"""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
SHEETS = sorted(p for p in (ROOT / "samples").iterdir() if p.suffix in (".pdf", ".txt", ".md", ".html"))


def summarise(path: Path) -> dict:
    import sheetaudit

    doc = sheetaudit.to_contract(sheetaudit.audit(path))
    figs = [
        {k: f.get(k) for k in ("quantity", "text", "tier", "direction", "scope", "basis", "normalized", "page")}
        for f in doc["figures"]
    ]
    return {
        "sheet": path.name,
        "status": doc["status"],
        "figures": figs,
        "checks": sorted({f["check"] for f in doc["findings"]}),
    }


@pytest.mark.parametrize("path", SHEETS, ids=[p.name for p in SHEETS])
def test_sample_matches_golden(path):
    golden = GOLDEN / f"{path.name}.json"
    assert golden.exists(), f"no golden file for {path.name}: run python tests/test_golden.py --update"
    assert summarise(path) == json.loads(golden.read_text(encoding="utf-8"))


def test_schema_and_required_fields():
    import sheetaudit

    doc = sheetaudit.to_contract(sheetaudit.audit(ROOT / "samples" / "kestrel-k8x-gpu-server.pdf"))
    assert doc["schema"] == "sheetaudit/1"
    assert set(doc["source"]) >= {"path", "sha256", "pages"}
    for f in doc["figures"]:
        assert set(f) >= {
            "id",
            "quantity",
            "text",
            "value",
            "unit",
            "tier",
            "direction",
            "scope",
            "basis",
            "normalized",
            "page",
            "context",
        }
    for f in doc["findings"]:
        assert set(f) >= {"check", "step", "severity", "figures", "message", "why", "fix"}


if __name__ == "__main__" and "--update" in sys.argv:
    GOLDEN.mkdir(exist_ok=True)
    for p in SHEETS:
        (GOLDEN / f"{p.name}.json").write_text(
            json.dumps(summarise(p), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print("wrote", p.name)
