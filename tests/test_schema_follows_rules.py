"""The output's JSON Schema follows the rules: the lists the rules own (requirement keys, sheet kinds) are filled in
from the rules in use, so a key added by the README's recipe validates and the cache keeps its entries; and the
schema shipped for readers (sheetaudit/schema/sheetaudit-1.json) says what the rules say."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from conftest import ROOT, SAMPLES
from sheetaudit import contract


def test_the_shipped_schema_lists_what_the_rules_own():
    shipped = json.loads((ROOT / "sheetaudit" / contract.SCHEMA_FILE).read_text(encoding="utf-8"))
    assert shipped == contract.schema(), "regenerate it: python -c 'import sheetaudit.contract as c; c.write_schema()'"


def test_the_lists_are_the_rules():
    lists = contract.rules_lists()
    assert "scale_up_gbs" in lists["requirement_keys"] and "name" not in lists["requirement_keys"]
    assert {"server", "rack", "switch", "nic", "unknown"} <= set(lists["sheet_kinds"])


# The README's recipe for a requirement key: an entry in rules/requirements.yaml and a function in evaluate.py's
# EVALUATORS. Here the entry goes into a copy of the rules and the function is registered before the command runs.
NEW_KEY = {
    "kind": "bound",
    "bounds": ["max"],
    "unit": "kg",
    "quantity": "weight",
    "label": "Rack weight",
    "short": "Rack kg",
    "ask": "What does one rack weigh, fully populated?",
    "applies_to": ["rack", "unknown"],
}

DRIVER = textwrap.dedent("""
    import importlib, sys
    evaluate = importlib.import_module("sheetaudit.requirements.evaluate")
    evaluate.EVALUATORS["rack_weight_kg"] = lambda want, spec, sheet: {
        "result": "not-stated", "why": "the sheet gives no weight", "question": spec["ask"]}
    from sheetaudit.entry import main
    sys.argv = ["sheetaudit", *sys.argv[1:]]
    main()
""")


@pytest.fixture(scope="module")
def with_new_key(tmp_path_factory):
    d = tmp_path_factory.mktemp("recipe")
    rules = d / "rules"
    shutil.copytree(ROOT / "rules", rules)
    doc = yaml.safe_load((rules / "requirements.yaml").read_text(encoding="utf-8"))
    doc["keys"]["rack_weight_kg"] = NEW_KEY
    (rules / "requirements.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (d / "rfp.yaml").write_text("name: test\nrack_power_kw: {max: 60}\nrack_weight_kg: {max: 1500}\n", encoding="utf-8")
    (d / "driver.py").write_text(DRIVER, encoding="utf-8")
    folder = d / "sheets"
    folder.mkdir()
    shutil.copy(SAMPLES / "borealis-bx72-rack.pdf", folder)
    return d


def _run(d, *args):
    env = {**os.environ, "SHEETAUDIT_RULES": str(d / "rules"), "SHEETAUDIT_CACHE_DIR": str(d / "cache")}
    return subprocess.run(
        [sys.executable, str(d / "driver.py"), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=d,
        timeout=600,
    )


def test_a_key_added_by_the_recipe_validates(with_new_key):
    d = with_new_key
    r = _run(
        d,
        "check",
        "--format",
        "json",
        "--fail-on",
        "never",
        "--require",
        d / "rfp.yaml",
        d / "sheets" / "borealis-bx72-rack.pdf",
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [x["key"] for x in out["requirements"]["results"]] == ["rack_power_kw", "rack_weight_kg"]
    check = textwrap.dedent("""
        import json, sys
        from sheetaudit.contract import validate_contract
        validate_contract(json.load(sys.stdin))
        print("valid")
    """)
    v = subprocess.run(
        [sys.executable, "-c", check],
        input=r.stdout,
        capture_output=True,
        text=True,
        env={**os.environ, "SHEETAUDIT_RULES": str(d / "rules")},
        timeout=300,
    )
    assert v.stdout.strip() == "valid", v.stderr


def test_cache_entries_written_with_it_stay_valid(with_new_key):
    d = with_new_key
    for _ in range(2):
        r = _run(
            d,
            "audit",
            d / "sheets",
            "-o",
            d / "out",
            "--require",
            d / "rfp.yaml",
            "--fail-on",
            "never",
            "--jobs",
            "1",
            "-q",
        )
        assert r.returncode == 0, r.stderr
    run = json.loads((d / "out" / "run.json").read_text(encoding="utf-8"))
    assert run["cache_corrupt"] == 0 and run["from_cache"] == 1, run
    assert "corrupt" not in r.stderr
