"""Hostile inputs a user hands in (requirement files, facility profiles, job files, the Python API's arguments):
each is refused by the one validator (sheetaudit.validate) as a one-line UsageError naming where it was, before
any work, never an internal error, a hang or a silent acceptance that switches a check off."""

import math

import pytest

from conftest import SAMPLES, run_cli
from sheetaudit.errors import UsageError

SHEET = SAMPLES / "osprey-o4-inference-server.txt"

# 600 bytes of YAML that expand to 9**9 strings: any walk of the expanded tree never ends.
LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi")
)


@pytest.mark.parametrize("option", ["--require", "--facility"])
def test_nested_aliases_are_refused_before_any_walk(tmp_path, option):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(LAUGHS)
    ran = run_cli("check", SHEET, option, bomb, isolated=True, timeout=60)
    assert ran.returncode == 2 and "aliases" in ran.stderr and "bomb.yaml" in ran.stderr, ran.output


def test_an_alias_used_a_few_times_is_still_read(tmp_path):
    from sheetaudit.validate import read_yaml

    p = tmp_path / "ok.yaml"
    p.write_text("base: &b {min: 400}\nscale_up_gbs: *b\nscale_out_gbs: *b\n")
    assert read_yaml(p)["scale_out_gbs"] == {"min": 400}


def test_an_alias_that_refers_to_itself_is_refused(tmp_path):
    from sheetaudit.validate import InvalidInput, read_yaml

    p = tmp_path / "loop.yaml"
    p.write_text("a: &a [1, *a]\n")
    with pytest.raises(InvalidInput, match="loop.yaml"):
        read_yaml(p)


BAD_REQUIREMENTS = [
    ("scale_up_gbs: {min: " + "9" * 400 + "}\n", "scale_up_gbs.min"),
    ("scale_up_gbs: {min: '" + "9" * 400 + " GB/s'}\n", "scale_up_gbs.min"),
    ("scale_up_gbs: {min: .nan}\n", "scale_up_gbs.min"),
    ("scale_up_gbs: {min: .inf}\n", "scale_up_gbs.min"),
    ("scale_out_gbs: {min: -.inf}\n", "scale_out_gbs.min"),
    ("rack_power_kw: {max: 1.0e+300}\n", "rack_power_kw.max"),
    ("rdma: 1\n", "rdma"),
    ("scale_up_domain: {min: 1.5}\n", "scale_up_domain.min"),
    ("efficiency: {min: 0.9, at: " + "9" * 400 + "}\n", "efficiency.at"),
    ("facility: {rack_power_kw: " + "9" * 400 + "}\n", "facility.rack_power_kw"),
]


@pytest.mark.parametrize("text, key", BAD_REQUIREMENTS, ids=[b[1] + str(i) for i, b in enumerate(BAD_REQUIREMENTS)])
def test_a_number_no_requirement_can_mean_is_refused(tmp_path, text, key):
    rfp = tmp_path / "rfp.yaml"
    rfp.write_text(text)
    ran = run_cli("check", SHEET, "--require", rfp)
    lines = ran.stderr.strip().splitlines()
    assert ran.returncode == 2 and len(lines) == 1 and f"{key}: " in lines[0], ran.output
    assert "internal error" not in ran.output


@pytest.mark.parametrize("value", [10**400, float("nan"), float("inf"), -1.0, True])
def test_requirements_as_a_dict_check_numbers_alike(value):
    import sheetaudit

    with pytest.raises(UsageError, match="scale_up_gbs.min"):
        sheetaudit.audit(SHEET, requirements={"scale_up_gbs": {"min": value}}, cache=False)


def test_a_whole_domain_size_still_counts():
    import sheetaudit

    a = sheetaudit.audit(SHEET, requirements={"scale_up_domain": {"min": 8.0}, "rdma": True}, cache=False)
    assert {r["key"] for r in a["requirements"]["results"]} == {"scale_up_domain", "rdma"}


def _audit_json():
    import sheetaudit

    return sheetaudit.audit(SHEET, cache=False)


API_MISUSE = [
    ("audit", (None,), {}),
    ("audit", (12,), {}),
    ("audit", ("\udcff\ud800.pdf",), {}),
    ("audit", (SHEET,), {"ocr": 1}),
    ("audit", (SHEET,), {"max_pages": 2.5}),
    ("audit", (SHEET,), {"max_pages": 10**400}),
    ("audit", (SHEET,), {"cache": "yes"}),
    ("audit", (SHEET,), {"password": b"pw"}),
    ("audit", (SHEET,), {"facility": {"rack_power_kw": float("nan")}}),
    ("audit", (SHEET,), {"facility": {"rack_power_kw": 10**400}}),
    ("audit", (SHEET,), {"requirements": {"rdma": 1}}),
    ("audit", (SHEET,), {"requirements": {"scale_up_domain": {"min": 1.5}}}),
    ("audit_folder", (SAMPLES,), {"timeout": "x"}),
    ("audit_folder", (SAMPLES,), {"timeout": float("nan")}),
    ("audit_folder", (SAMPLES,), {"timeout": -1}),
    ("audit_folder", (SAMPLES,), {"max_memory_mb": -5}),
    ("audit_folder", (SAMPLES,), {"max_memory_mb": 1.5}),
    ("audit_folder", (SAMPLES,), {"jobs": 10**400}),
    ("audit_folder", (None,), {}),
    ("audit_folder", (SAMPLES,), {"output": 7}),
    ("scale", ("AUDIT",), {"tflops": 0, "tokens": 1e9}),
    ("scale", ("AUDIT",), {"tflops": -1, "tokens": 1e9}),
    ("scale", ("AUDIT",), {"tflops": float("nan"), "tokens": 1e9}),
    ("scale", ("AUDIT",), {"message": True}),
    ("scale", ("AUDIT",), {"message": -5}),
    ("scale", ("AUDIT",), {"message": 1.5}),
    ("scale", ("AUDIT",), {"accelerators": [8, 10**400]}),
    ("scale", ("AUDIT",), {"training": "yes"}),
    ("scale", ("AUDIT",), {"tokens": float("inf"), "tflops": 100}),
    ("scale", ("AUDIT",), {"tokens": -1, "tflops": 100}),
    ("scale", ("AUDIT",), {"collective": None}),
    ("scale", ([{"figures": [{}]}],), {}),
    ("scale", ([{"figures": 3}],), {}),
    ("scale", (None,), {}),
    ("scale", (7,), {}),
    ("figures", ([{"figures": [{}]}],), {}),
    ("figures", ([{"figures": None}],), {}),
    ("findings", ([{"figures": [], "findings": [{}]}],), {}),
    ("findings", ([{"figures": [], "findings": 5}],), {}),
    ("figures", (None,), {}),
]


@pytest.mark.parametrize("fn, args, kwargs", API_MISUSE, ids=[f"{m[0]}-{i}" for i, m in enumerate(API_MISUSE)])
def test_api_misuse_is_a_usage_error(fn, args, kwargs):
    import sheetaudit

    args = tuple(_audit_json() if a == "AUDIT" else a for a in args)
    with pytest.raises(UsageError):
        getattr(sheetaudit, fn)(*args, **kwargs)


def test_finite_checks_are_not_fooled_by_huge_ints():
    from sheetaudit.validate import InvalidInput, validate

    with pytest.raises(InvalidInput, match="x: "):
        validate({"x": 10**400}, {"type": "object", "properties": {"x": {"type": "number"}}}, source="t")
    assert math.isfinite(
        validate({"x": 10**15}, {"type": "object", "properties": {"x": {"type": "number"}}}, source="t")["x"]
    )


@pytest.mark.parametrize("command", ["check", "audit"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_timeout_that_is_no_number_of_seconds_is_refused(tmp_path, command, value):
    args = [SHEET] if command == "check" else [SAMPLES, "-o", tmp_path / "out"]
    ran = run_cli(command, *args, "--timeout", value)
    assert ran.returncode == 2 and "--timeout" in ran.output, ran.output
    assert not (tmp_path / "out" / "audit.json").exists()
