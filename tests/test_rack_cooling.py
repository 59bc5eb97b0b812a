"""Rack power against cooling and the buyer's hall (issue 28, item 1): above the air-cooling limit a rack is an
error only where the sheet says it is air-cooled; a rack the sheet says is liquid-cooled gets the fact, not a
fault; with a facility profile the hall decides, and every output records the hall it was checked against."""

import json

from conftest import SAMPLES, checks, finding, run_cli

from sheetaudit import to_contract
from sheetaudit.options import AuditOptions
from sheetaudit.output import text_out

LIQUID_RACK = "# Orion rack-scale system\n\nRack power: 135 kW maximum\n\nCooling: Direct liquid cooling\n"
AIR_RACK = "# Orion rack-scale system\n\nRack power: 57 kW maximum\n\nCooling: Air-cooled, front-to-back airflow\n"
SILENT_RACK = "# Orion rack-scale system\n\nRack power: 57 kW maximum\n"
BOREALIS = SAMPLES / "borealis-bx72-rack.pdf"


def _errors(a) -> list:
    return [f.check for f in a.findings if f.severity == "error"]


def test_a_liquid_cooled_rack_is_a_fact_not_an_error(sheet):
    a = sheet(LIQUID_RACK)
    assert not _errors(a)
    f = finding(a, "power.rack-density")
    assert f.severity == "info" and f.data["case"] == "liquid" and "needs liquid cooling" in f.message
    assert "power.liquid-cooling-required" in checks(a)
    assert to_contract(a)["status"] == "review"


def test_a_chinese_rack_that_says_liquid_cooling_itself_gets_no_error(sheet):
    a = sheet("# 天穹 SP64 超节点\n\n整机柜功耗: 约 135 kW\n\n散热方式: 冷板式液冷\n")
    assert not _errors(a) and finding(a, "power.rack-density").severity == "info"


def test_a_liquid_cooled_pod_just_above_the_air_limit_gets_no_error(sheet):
    a = sheet("# Vela AI pod\n\nRack power: 41 kW per rack\n\nCooling: direct-to-chip liquid cooling\n")
    assert not _errors(a) and finding(a, "power.rack-density").severity == "info"


def test_a_rack_the_sheet_says_is_air_cooled_is_an_error(sheet):
    f = finding(sheet(AIR_RACK), "power.rack-density")
    assert f.severity == "error" and "air cooling" in f.message and "57 kW" in f.message


def test_a_rack_whose_cooling_is_not_stated_is_a_question(sheet):
    f = finding(sheet(SILENT_RACK), "power.rack-density")
    assert f.severity == "warning" and "does not say how the rack is cooled" in f.message
    assert "How is a rack at" in f.question


def test_a_rack_with_optional_liquid_cooling_asks_which_it_needs(sheet):
    a = sheet(
        "# Qilin Q8 server\n\nRack power: 43 kW per rack\n\nCooling: air-cooled as standard; optional "
        "direct liquid cooling kit\n"
    )
    f = finding(a, "power.rack-density")
    assert f.severity == "warning" and f.data["case"] == "either" and "Which cooling" in f.question


def test_each_model_is_held_against_its_own_cooling(sheet):
    a = sheet(
        "# Tern T32 pods\n\n| | T32-A | T32-L |\n|---|---|---|\n| Cooling | Air | Direct liquid |\n"
        "| Rack power | 46 kW | 94 kW |\n"
    )
    by_case = {f.data.get("case"): f for f in a.findings if f.check == "power.rack-density"}
    assert by_case["air"].severity == "error" and "46 kW" in by_case["air"].message
    assert by_case["liquid"].severity == "info" and "94 kW" in by_case["liquid"].message


def _hall(tmp_path, text: str):
    p = tmp_path / "hall.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_hall_that_can_take_the_rack_raises_nothing_and_exits_0(tmp_path):
    hall = _hall(tmp_path, "name: Hall B\nrack_power_kw: 140\ncooling: [air, liquid]\n")
    r = run_cli("check", BOREALIS, "--facility", hall, "--format", "json")
    assert r.returncode == 0, r.output
    doc = json.loads(r.stdout)
    assert not [f for f in doc["findings"] if f["severity"] == "error"]
    assert not {"power.rack-density", "power.facility-exceeded"} & {f["check"] for f in doc["findings"]}
    assert doc["facility"] == {
        "source": "hall.yaml",
        "name": "Hall B",
        "rack_power_kw": 140,
        "cooling": ["air", "liquid"],
        "text": "Hall B (hall.yaml): 140 kW per rack, air + liquid cooling",
    }
    text = run_cli("check", BOREALIS, "--facility", hall).stdout
    assert "Checked against: Hall B (hall.yaml): 140 kW per rack, air + liquid cooling." in text
    assert "Hall B can take it" in text


def test_a_hall_of_40_kw_air_only_is_the_error_naming_both(tmp_path):
    hall = _hall(tmp_path, "name: Hall A\nrack_power_kw: 40\ncooling: [air]\n")
    r = run_cli("check", BOREALIS, "--facility", hall, "--format", "json")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    (f,) = [f for f in doc["findings"] if f["check"] == "power.facility-exceeded"]
    assert f["severity"] == "error"
    assert "135 kW" in f["message"] and "40 kW per rack of Hall A" in f["message"] and "liquid" in f["message"]
    assert "power.rack-density" not in {f["check"] for f in doc["findings"]}  # the hall decides
    assert doc["status"] == "fail" and doc["facility"]["text"].startswith("Hall A (hall.yaml)")


def test_the_report_and_the_index_name_the_hall(tmp_path):
    from sheetaudit import pipeline
    from sheetaudit.output.html_out import render

    hall = _hall(tmp_path, "rack_power_kw: 140\ncooling: [air, liquid]\n")
    a = pipeline.run(BOREALIS, AuditOptions(facility=pipeline.load_facility(hall)))
    assert "Checked against: hall.yaml: 140 kW per rack, air + liquid cooling." in render(a, images=False)
    assert "Checked against: hall.yaml" in text_out.render(a, cols=100)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "rack.md").write_text(LIQUID_RACK, encoding="utf-8")
    r = run_cli("audit", folder, "-o", tmp_path / "out", "--facility", hall, "-q", "--no-cache")
    assert r.returncode == 0, r.output
    assert "Checked against: hall.yaml: 140 kW per rack, air + liquid cooling." in (
        tmp_path / "out" / "index.html"
    ).read_text(encoding="utf-8")


def test_a_node_sheet_over_the_hall_by_a_typical_rack_is_a_question(sheet):
    a = sheet(
        "# Helix G8 GPU server\n\nSystem power: 14.3 kW max\n\nCooling: air-cooled\n",
        facility={"rack_power_kw": 40, "cooling": ["air"]},
    )
    f = finding(a, "power.facility-exceeded")
    assert f.severity == "warning" and "Derived rack power" in f.message  # rests on nodes per rack, not the sheet
