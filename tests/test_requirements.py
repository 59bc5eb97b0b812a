"""The buyer's requirements (`--require rfp.yaml`): each key on sheets written here, each result kind, the readings
a sheet allows (a bandwidth with no stated direction is read both ways), the outputs (JSON section and its schema,
compliance.csv, the batch's matrix, --fail-on requirement) and bad requirement files (one line, exit 2)."""

from __future__ import annotations

import csv
import json
import os

import pytest

from conftest import ROOT, run_cli

import sheetaudit
from sheetaudit import pipeline
from sheetaudit.options import AuditOptions
from sheetaudit.requirements import evaluate, load_requirements

# A server that meets a training requirement on what it prints: 900 GB/s NVLink per GPU with no direction (450 or
# 900 each way), eight GPUs in the domain, one 400 Gb/s InfiniBand port per GPU, a rack of 38 kW, air-cooled.
ALPHA = """# Alpha A8 GPU Server

Eight Alpha GPUs share one NVLink domain.

| Item | Value |
|---|---|
| GPU-to-GPU bandwidth | 900 GB/s per GPU (NVLink 4) |
| Scale-out network | 8x 400 Gb/s InfiniBand NDR, one per GPU |
| Rack power | 38 kW per rack |
| Cooling | Air-cooled |
"""
# A server that falls short of it everywhere, each figure stated.
BETA = """# Beta B4 Server

Four Beta GPUs share one xGMI domain.

| Item | Value |
|---|---|
| GPU-to-GPU bandwidth | 100 GB/s per GPU per direction (Infinity Fabric) |
| Scale-out network | 4x 100 Gb/s Ethernet, one per GPU |
| Rack power | 130 kW per rack |
| Cooling | Immersion cooling required |
| Hardware latency | 2 µs port to port |
"""
# A sheet that states almost nothing: node power only, a latency of no stated basis.
GAMMA = """# Gamma G8 Server

Eight Gamma GPUs.

| Item | Value |
|---|---|
| Node power | 12 kW |
| Latency | 0.8 µs |
"""
# Two rack configurations, and a latency of no stated basis above the requirement.
DELTA = """# Delta D8 Rack

| Configuration | Rack power |
|---|---|
| Air-cooled rack | 40 kW per rack |
| Liquid-cooled rack | 80 kW per rack |

Latency: 1.5 µs.
"""

REQUIRE = """name: Training cluster 2027
scale_up_gbs: {min: 400}
scale_up_domain: {min: 8}
scale_out_gbs: {min: 50}
hardware_latency_us: {max: 1.0}
rdma: required
rack_power_kw: {max: 60}
cooling: [air, liquid]
efficiency: {min: 0.90, at: 1024}
"""


@pytest.fixture
def judged(tmp_path):
    """judged(SHEET_TEXT, 'key: {...}') -> the result of that one requirement on that sheet (a fresh audit)."""

    def run(text: str, requirement: str, name: str = "sheet.md") -> dict:
        (tmp_path / "rfp.yaml").write_text(requirement + "\n", encoding="utf-8")
        (tmp_path / name).write_text(text, encoding="utf-8")
        req = load_requirements(tmp_path / "rfp.yaml")
        a = pipeline.run(tmp_path / name, AuditOptions(requirements=req))
        [got] = a.requirements["results"]
        return got

    return run


# (key, requirement, sheet, result, value): every key with each result it can take on a sheet.
CASES = [
    ("scale_up_gbs", "{min: 400}", ALPHA, "meets", 450.0),  # 450 or 900 per direction: both meet
    ("scale_up_gbs", "{min: 500}", ALPHA, "uncertain", 450.0),  # meets only if the 900 is per direction
    ("scale_up_gbs", "{min: 500}", BETA, "falls-short", 100.0),
    ("scale_up_gbs", "{min: 500}", GAMMA, "not-stated", None),
    ("scale_up_domain", "{min: 8}", ALPHA, "meets", 8.0),
    ("scale_up_domain", "{min: 8}", BETA, "falls-short", 4.0),
    ("scale_up_domain", "{min: 8}", GAMMA, "not-stated", None),
    ("scale_out_gbs", "{min: 50}", ALPHA, "meets", 50.0),
    ("scale_out_gbs", "{min: '400 Gb/s'}", BETA, "falls-short", 12.5),
    ("scale_out_gbs", "{min: 50}", GAMMA, "not-stated", None),
    ("hardware_latency_us", "{max: 1.0}", GAMMA, "meets", 0.8),  # basis unstated: hardware is part of it
    ("hardware_latency_us", "{max: '1000 ns'}", BETA, "falls-short", 2.0),
    ("hardware_latency_us", "{max: 1.0}", DELTA, "uncertain", 1.5),  # hardware above, or end-to-end: unknown
    ("hardware_latency_us", "{max: 1.0}", ALPHA, "not-stated", None),
    ("rdma", "required", ALPHA, "meets", "InfiniBand"),
    ("rdma", "required", BETA, "not-stated", None),  # Ethernet, no RDMA named: silence is not a shortfall
    ("rdma", "required", GAMMA, "not-stated", None),
    ("rack_power_kw", "{max: 60}", ALPHA, "meets", 38.0),
    ("rack_power_kw", "{max: 60}", BETA, "falls-short", 130.0),
    ("rack_power_kw", "{max: 60}", GAMMA, "uncertain", 48.0),  # node power x assumed nodes per rack
    ("rack_power_kw", "{max: 60}", DELTA, "uncertain", 80.0),  # which configuration is offered
    ("rack_power_kw", "{max: 60}", "# Epsilon E1 Server\n\nEight Epsilon GPUs.\n", "not-stated", None),
    ("cooling", "[air, liquid]", ALPHA, "meets", "air"),
    ("cooling", "liquid", BETA, "falls-short", "immersion"),
    ("cooling", "[air]", GAMMA, "not-stated", None),
    ("efficiency", "{min: 0.9, at: 1024}", ALPHA, "meets", None),
    ("efficiency", "{min: 0.9, at: 1024}", BETA, "falls-short", None),
    ("efficiency", "{min: 0.9, at: 1024}", GAMMA, "not-stated", None),
    ("tokens_per_second", "{min: 1000000}", ALPHA, "not-stated", None),  # judged by scale --job only
    ("time_to_train_days", "{max: 90}", ALPHA, "not-stated", None),
]


@pytest.mark.parametrize(
    "key, want, text, result, value", CASES, ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_key_and_result(judged, key, want, text, result, value):
    got = judged(text, f"{key}: {want}")
    assert (got["key"], got["result"]) == (key, result), got
    if value is not None:
        assert got["value"] == pytest.approx(value) if isinstance(value, float) else got["value"] == value
    if result in ("falls-short", "meets") and got["basis"] == "sheet":
        assert got["page"] == 1 and got["text"], got  # the figure and its page
    if result in ("not-stated", "uncertain"):
        assert got["question"] and "?" in got["question"], got  # the question that settles it
    if result in ("meets", "falls-short"):
        assert got["question"] is None


def test_every_key_of_the_rules_has_a_case():
    from sheetaudit.requirements import spec

    keys = {k for k, s in spec()["keys"].items() if s["kind"] not in ("text", "facility")}
    assert keys == {c[0] for c in CASES}


def test_a_direction_unstated_bandwidth_is_judged_on_both_readings(judged):
    """The issue's example: '900 GB/s per GPU' with no direction meets 400 per direction either way; against 500
    it meets only if not both directions are added, and the question asks exactly that."""
    meets = judged(ALPHA, "scale_up_gbs: {min: 400}")
    assert meets["readings"] == [450.0, 900.0]
    unsure = judged(ALPHA, "scale_up_gbs: {min: 500}")
    assert (
        "900 GB/s" in unsure["question"] and "each direction" in unsure["question"] and "page 1" in unsure["question"]
    )
    assert judged(ALPHA, "scale_up_gbs: {min: 1000}")["result"] == "falls-short"


def test_the_efficiency_between_its_readings_is_uncertain(judged):
    """The what-if runs on each reading of the bandwidths it rests on: a bound between the two is uncertain."""
    lo, hi = judged(ALPHA, "efficiency: {min: 0.9, at: 1024}")["readings"]
    got = judged(ALPHA, f"efficiency: {{min: {(lo + hi) / 2}, at: 1024}}")
    assert got["result"] == "uncertain" and got["basis"] == "model" and got["question"]


def test_a_switch_sheet_is_not_asked_about_a_scale_up_domain(tmp_path):
    req = load_requirements(_write(tmp_path, REQUIRE))
    a = pipeline.run(ROOT / "samples" / "gannet-gx800-xdr-switch.html", AuditOptions(requirements=req))
    results = {r["key"]: r["result"] for r in a.requirements["results"]}
    assert results["scale_up_domain"] == "not-applicable" and results["rack_power_kw"] == "not-applicable"
    assert results["hardware_latency_us"] == "meets" and results["rdma"] == "meets"


def _write(tmp_path, text, name="rfp.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


BAD = [
    ("scale_up_gb: {min: 400}\n", "unknown key 'scale_up_gb'"),
    ("scale_up_gbs: {min: 400 kW}\n", "scale_up_gbs.min: unknown unit 'kW'"),
    ("hardware_latency_us: {max: 2 GB/s}\n", "hardware_latency_us.max: unknown unit 'GB/s'"),
    ("scale_up_gbs: {min: fast}\n", "scale_up_gbs.min: expected a number in GB/s, got 'fast'"),
    ("rack_power_kw: 60\n", "rack_power_kw: expected a mapping such as {max: N}, got 60"),
    ("scale_up_gbs: {max: 400}\n", "scale_up_gbs: unknown key 'max' (expected min)"),
    ("cooling: water\n", "cooling: expected one of air, liquid, immersion"),
    ("rdma: maybe\n", "rdma: expected 'required', got 'maybe'"),
    ("efficiency: {min: 0.9}\n", "efficiency: expected 'at'"),
    ("efficiency: {min: 90, at: 1024}\n", "efficiency.min: 90 is out of range"),
    ("efficiency: {min: 0.9, at: 1.5}\n", "efficiency.at: expected a whole number of at least 2"),
    ("facility: {rack_kw: 40}\n", "facility.rack_kw: unknown key"),
    ("facility: {rack_power_kw: .nan}\n", "facility.rack_power_kw: expected a finite number"),
    ("- scale_up_gbs\n", "expected a mapping of requirements"),
    ("scale_up_gbs: {min: [}\n", "not valid YAML"),
]


@pytest.mark.parametrize("text, said", BAD, ids=[b[1][:30] for b in BAD])
def test_a_bad_requirements_file_is_one_line_and_exit_2(tmp_path, text, said):
    rfp = _write(tmp_path, text)
    ran = run_cli("check", ROOT / "samples" / "osprey-o4-inference-server.txt", "--require", rfp)
    assert ran.returncode == 2, ran.output
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and f"requirements file {rfp}" in lines[0] and said in lines[0], lines
    assert "Traceback" not in ran.output


@pytest.mark.parametrize("command", [("audit", "-o", "OUT"), ("scale",)])
def test_audit_and_scale_refuse_a_bad_file_before_any_work(tmp_path, command):
    rfp = _write(tmp_path, "scale_out_gbs: {min: 50 furlongs}\n")
    args = [a if a != "OUT" else tmp_path / "out" for a in command]
    where = ROOT / "samples" / "osprey-o4-inference-server.txt" if command[0] == "scale" else ROOT / "samples"
    ran = run_cli(args[0], where, *args[1:], "--require", rfp)
    assert ran.returncode == 2 and "scale_out_gbs.min: unknown unit 'furlongs'" in ran.stderr, ran.output
    assert not (tmp_path / "out" / "index.html").exists()


def test_units_convert_to_the_keys_own(tmp_path):
    req = load_requirements(
        _write(
            tmp_path,
            "scale_up_gbs: {min: '3.2 Tb/s'}\nhardware_latency_us: {max: 800 ns}\nrack_power_kw: {max: 60000 W}\n",
        )
    )
    assert req["keys"] == {
        "scale_up_gbs": {"min": pytest.approx(400.0)},
        "hardware_latency_us": {"max": pytest.approx(0.8)},
        "rack_power_kw": {"max": pytest.approx(60.0)},
    }


def test_json_section_follows_the_schema_and_fail_on_requirement(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    rfp = _write(tmp_path, REQUIRE)
    beta = _write(tmp_path, BETA, "beta.md")
    ran = run_cli("check", beta, "--require", rfp, "--format", "json", "--fail-on", "requirement")
    assert ran.returncode == 1, ran.output
    doc = json.loads(ran.stdout)
    schema = json.loads((ROOT / "sheetaudit" / "schema" / "sheetaudit-1.json").read_text("utf-8"))
    jsonschema.validate(doc, schema)
    sec = doc["requirements"]
    assert (
        sec["outcome"] == "falls-short" and sec["counts"]["falls-short"] == 7 and sec["name"] == "Training cluster 2027"
    )
    alpha = _write(tmp_path, ALPHA, "alpha.md")
    ran = run_cli("check", alpha, "--require", rfp, "--fail-on", "requirement")
    assert ran.returncode == 0, ran.output  # open questions, nothing falls short
    assert "Against your requirements (Training cluster 2027)" in ran.stdout
    ran = run_cli("check", alpha, "--fail-on", "requirement")
    assert ran.returncode == 2 and "--fail-on requirement needs --require FILE" in ran.stderr


def test_the_facility_may_sit_inside_the_requirements(tmp_path):
    rfp = _write(tmp_path, "rack_power_kw: {max: 200}\nfacility: {name: Hall B, rack_power_kw: 60}\n")
    ran = run_cli("check", _write(tmp_path, BETA, "beta.md"), "--require", rfp, "--format", "json")
    doc = json.loads(ran.stdout)
    assert doc["requirements"]["results"][0]["result"] == "meets"
    assert any(f["check"] == "power.facility-exceeded" for f in doc["findings"])


def test_check_o_says_what_it_wrote(tmp_path):
    out = tmp_path / "report.html"
    ran = run_cli("check", ROOT / "samples" / "osprey-o4-inference-server.txt", "--format", "html", "-o", out)
    assert out.is_file() and f"wrote {out} (html)" in ran.stderr


def test_scale_holds_each_system_against_the_requirements_on_its_assumptions(tmp_path):
    rfp = _write(tmp_path, "efficiency: {min: 0.9, at: 1024}\nscale_up_domain: {min: 8}\n")
    alpha = _write(tmp_path, ALPHA, "alpha.md")
    got = json.loads(run_cli("scale", alpha, "--require", rfp, "--format", "json").stdout)
    [system] = got["systems"]
    assert [r["result"] for r in system["requirements"]["results"]] == ["meets", "meets"]
    slow = json.loads(
        run_cli("scale", alpha, "--require", rfp, "--format", "json", "--assume", "compute_s=0.01").stdout
    )
    assert slow["systems"][0]["requirements"]["results"][0]["result"] == "falls-short"


def test_audit_writes_compliance_csv_and_opens_the_index_with_the_matrix(tmp_path):
    from test_batch import batch

    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in (("alpha.md", ALPHA), ("beta.md", BETA), ("gamma.md", GAMMA)):
        (folder / name).write_text(text, encoding="utf-8")
    rfp = _write(tmp_path, REQUIRE)
    out = tmp_path / "out"
    ran = batch(folder, "-o", out, "-q", "--require", rfp, "--fail-on", "requirement")
    assert ran.returncode == 1, ran.output  # beta falls short
    with (out / "compliance.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [
        "sheet",
        "product",
        "requirement",
        "wanted",
        "low",
        "high",
        "unit",
        "value_text",
        "result",
        "basis",
        "page",
        "question",
    ]
    assert len(rows) == 3 * 8
    by = {(r["sheet"], r["requirement"]): r for r in rows}
    beta = by[("beta.md", "rack_power_kw")]
    assert (beta["low"], beta["high"], beta["unit"], beta["result"], beta["page"], beta["question"]) == (
        "130.0",
        "130.0",
        "kW",
        "falls-short",
        "1",
        "",
    )
    alpha = by[("alpha.md", "scale_up_gbs")]
    assert (alpha["low"], alpha["high"], alpha["value_text"], alpha["result"]) == ("450.0", "900.0", "450–900", "meets")
    assert by[("gamma.md", "rdma")]["result"] == "not-stated" and by[("gamma.md", "rdma")]["question"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.index('id="compliance"') < index.index('id="comparison"')  # the index opens with it
    assert 'href="reports/beta.md.html#req-rack_power_kw"' in index
    audit = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert all("requirements" in a for a in audit)
    # the same folder without --require: no stale matrix is left behind
    batch(folder, "-o", out, "-q")
    assert not (out / "compliance.csv").exists() and 'id="compliance"' not in (out / "index.html").read_text("utf-8")


def test_the_samples_requirements_file_is_the_issues_example():
    req = load_requirements(ROOT / "samples" / "requirements.yaml")
    assert list(req["keys"]) == [
        "scale_up_gbs",
        "scale_up_domain",
        "scale_out_gbs",
        "hardware_latency_us",
        "rdma",
        "rack_power_kw",
        "cooling",
        "efficiency",
    ]
    sec = evaluate(req, sheetaudit.to_contract(pipeline.run(ROOT / "samples" / "borealis-bx72-rack.pdf")))
    rack = next(r for r in sec["results"] if r["key"] == "rack_power_kw")
    assert rack["result"] == "falls-short" and rack["value"] == 120.0  # its best configuration, still above 60


def test_a_requirements_file_that_is_a_pipe_is_one_line_and_exit_2(tmp_path):
    """Read as every input file is (sheetaudit.validate): a plain read of a FIFO would wait for a writer for ever."""
    rfp = tmp_path / "rfp.yaml"
    os.mkfifo(rfp)
    ran = run_cli("check", ROOT / "samples" / "osprey-o4-inference-server.txt", "--require", rfp)
    assert ran.returncode == 2, ran.output
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and f"requirements file {rfp}" in lines[0], lines
