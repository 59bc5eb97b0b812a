"""Every input a user hands in goes through one validator (sheetaudit.validate) that names the file and the key.
These read as examples of its use; the facility profile is the first input checked by it."""

import json
import os
import shutil

import pytest

from conftest import ROOT, SAMPLES, run_cli
from sheetaudit.validate import InvalidInput, load_schema, read_json, read_yaml, validate

RACK = SAMPLES / "borealis-bx72-rack.pdf"


def test_a_value_that_fits_its_schema_comes_back_unchanged():
    schema = {"type": "object", "properties": {"kw": {"type": "number", "exclusiveMinimum": 0}}}
    assert validate({"kw": 40}, schema, source="hall.yaml") == {"kw": 40}


@pytest.mark.parametrize(
    "data, key, words",
    [
        ({"kw": "forty"}, "kw", "got 'forty'"),
        ({"kw": True}, "kw", "got True"),  # YAML's yes is not a number
        ({"kw": float("nan")}, "kw", "finite"),  # .nan would switch a check off silently
        ({"kw": float("inf")}, "kw", "finite"),
        ({"kw": 0}, "kw", "above 0"),
        ({"kw": -3}, "kw", "above 0"),
        ({"kws": 3}, "kws", "unknown key (known: kw, modes)"),
        ({"modes": ["air", 7]}, "modes[1]", "one of air, liquid"),
    ],
)
def test_an_error_names_the_file_and_the_key(data, key, words):
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "kw": {"type": "number", "exclusiveMinimum": 0},
            "modes": {"type": "array", "items": {"enum": ["air", "liquid"]}},
        },
    }
    with pytest.raises(InvalidInput) as e:
        validate(data, schema, source="hall.yaml")
    assert e.value.source == "hall.yaml" and e.value.key == key
    assert str(e.value).startswith(f"hall.yaml: {key}: ") and words in str(e.value)


def test_a_deeply_nested_json_is_refused_naming_the_file(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidInput, match="deep.json: the audit JSON is nested"):
        read_json(deep, what="audit JSON")


def test_only_a_regular_file_is_read(tmp_path):
    fifo = tmp_path / "hall.yaml"
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait forever
    with pytest.raises(InvalidInput, match="not a regular file"):
        read_yaml(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")  # endless: reading it would fill memory
    with pytest.raises(InvalidInput, match="not a regular file"):
        read_yaml(link)


@pytest.mark.parametrize(
    "profile, key",
    [
        ('rack_power_kw: "forty"', "rack_power_kw"),
        ("cooling: yes", "cooling"),
        ("cooling: [plasma, 7, null]", "cooling[0]"),
        ("rack_power_kw: .nan", "rack_power_kw"),
        ("rack_power_kw: .inf", "rack_power_kw"),
        ("rack_power_kw: -40", "rack_power_kw"),
        ("rack_power_kw: 0", "rack_power_kw"),
        ("floor_load_kg_m2: []", "floor_load_kg_m2"),
    ],
)
def test_a_wrong_facility_profile_is_one_line_naming_the_key(tmp_path, profile, key):
    hall = tmp_path / "hall.yaml"
    hall.write_text(profile + "\n")
    r = run_cli("check", "--facility", hall, RACK)
    assert r.returncode == 2
    assert f"{hall}: {key}: " in r.stderr and "internal" not in r.output.lower()


def test_a_wrong_facility_profile_stops_a_batch_before_any_sheet_is_blamed(tmp_path):
    """It was: 7 of 10 sheets became internal-error rows. Now: exit 2, one line, no outputs."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    for pdf in sorted(SAMPLES.glob("*.pdf"))[:3]:
        shutil.copy(pdf, folder)
    hall = tmp_path / "hall.yaml"
    hall.write_text('rack_power_kw: "forty"\n')
    out = tmp_path / "out"
    r = run_cli("audit", folder, "-o", out, "--facility", hall, "--no-cache", isolated=True)
    assert r.returncode == 2 and f"{hall}: rack_power_kw: " in r.stderr
    assert not (out / "index.html").exists()


def test_a_good_facility_profile_still_decides_the_check(tmp_path):
    hall = tmp_path / "hall.yaml"
    hall.write_text("name: Hall B\nrack_power_kw: 20\ncooling: air\nfloor_load_kg_m2: 1500\n")
    r = run_cli("check", "--format", "json", "--facility", hall, RACK)
    assert "power.facility-exceeded" in {f["check"] for f in json.loads(r.stdout)["findings"]}


def test_every_input_schema_is_valid_data():
    for path in sorted((ROOT / "rules" / "inputs").glob("*.yaml")):
        schema = load_schema(path.stem)
        assert isinstance(schema, dict) and "type" in schema, path
        validate({}, {k: v for k, v in schema.items() if k != "required"}, source=path)


# `sheetaudit scale`: options and audit JSONs that ended in OverflowError, KeyError, a math domain error or a
# RecursionError are one line naming the option or the file and the key.


@pytest.fixture(scope="module")
def audit_json(tmp_path_factory):
    r = run_cli("check", "--format", "json", SAMPLES / "kestrel-k8x-gpu-server.pdf")
    return json.loads(r.stdout)


def test_an_infinite_message_size_is_a_usage_error():
    r = run_cli("scale", "--message", "1e400B", RACK)
    assert r.returncode == 2 and "'1e400B': the message must be at most 1 PiB" in r.stderr


@pytest.mark.parametrize(
    "edit, key",
    [
        (lambda d: d["figures"][0].pop("quantity"), "figures[0]: missing quantity"),
        (
            lambda d: d["figures"][0].__setitem__("normalized", {"value": -450.0, "unit": "GB/s"}),
            "figures[0].normalized.value: expected a number from 0",
        ),
        (lambda d: d.__setitem__("derived", [{"name": "x", "value": "many"}]), "derived[0].value: "),
    ],
)
def test_an_edited_audit_json_is_refused_naming_the_key(tmp_path, audit_json, edit, key):
    data = json.loads(json.dumps(audit_json))
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    r = run_cli("scale", path)
    assert r.returncode == 2 and f"{path}: {key}" in r.stderr, r.stderr


def test_a_100000_deep_audit_json_names_the_file(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    r = run_cli("scale", path, isolated=True)
    assert r.returncode == 2 and f"{path}: the audit JSON is nested" in r.stderr and "internal" not in r.stderr


def test_an_assumption_of_the_wrong_kind_names_the_option_and_key():
    r = run_cli("scale", "--assume", "overlap=.nan", RACK)
    assert r.returncode == 2 and "--assume: overlap: expected a finite number" in r.stderr
    r = run_cli("scale", "--assume", "inter_domain_algorithm=spiral", RACK)
    assert r.returncode == 2 and "inter_domain_algorithm: expected one of auto, ring, tree" in r.stderr
