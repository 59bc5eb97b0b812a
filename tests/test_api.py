"""sheetaudit from Python, as a notebook uses it: options checked as the command line checks them, flat tables,
the cache shared between calls (the README's "Use from Python" runs in test_docs.py)."""

import pytest

import sheetaudit
from conftest import SAMPLES, run_cli
from sheetaudit.errors import UsageError

KESTREL = SAMPLES / "kestrel-k8x-gpu-server.pdf"
BOREALIS = SAMPLES / "borealis-bx72-rack.pdf"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETAUDIT_CACHE_DIR", str(tmp_path / "cache"))


def test_audit_returns_what_check_prints_as_json():
    import json

    printed = json.loads(run_cli("check", "--format", "json", "--fail-on", "never", KESTREL).stdout)
    got = sheetaudit.audit(KESTREL, cache=False)
    assert got == {**printed, "source": {**printed["source"], "path": got["source"]["path"]}}


@pytest.mark.parametrize(
    "options, named",
    [
        ({"facility": {"rack_power_kw": 40, "coolin": "air"}}, "coolin: unknown key"),
        ({"facility": "hall.yaml"}, "hall.yaml: no such file"),
        ({"facility": {"rack_power_kw": "forty"}}, "rack_power_kw"),
        ({"facility": {"cooling": "water"}}, "cooling"),
        ({"max_pages": 0}, "max_pages"),
        ({"ocr": "yes"}, "ocr"),
    ],
)
def test_a_bad_option_is_a_usage_error_naming_it(options, named):
    with pytest.raises(UsageError, match=named):
        sheetaudit.audit(KESTREL, **options)


def test_a_facility_as_a_dict_is_the_same_as_its_file(tmp_path):
    hall = tmp_path / "hall.yaml"
    hall.write_text("name: Hall B\nrack_power_kw: 60\ncooling: [air]\n", encoding="utf-8")
    from_file = sheetaudit.audit(BOREALIS, facility=hall)
    from_dict = sheetaudit.audit(BOREALIS, facility={"name": "Hall B", "rack_power_kw": 60, "cooling": ["air"]})
    assert from_file["findings"] == from_dict["findings"]
    assert "power.facility-exceeded" in {f["check"] for f in from_dict["findings"]}


def test_the_second_audit_of_the_same_content_comes_from_the_cache(tmp_path):
    first = sheetaudit.audit(KESTREL)
    entries = list((tmp_path / "cache").glob("*/*.json.gz"))
    assert len(entries) == 1
    copy = tmp_path / "renamed.pdf"
    copy.write_bytes(KESTREL.read_bytes())
    again = sheetaudit.audit(copy)
    assert again["source"]["path"] == str(copy)  # the path it was asked for
    assert {**again, "source": first["source"]} == first
    assert list((tmp_path / "cache").glob("*/*.json.gz")) == entries  # read, not written again


def test_figures_are_flat_and_typed():
    df = sheetaudit.figures([sheetaudit.audit(KESTREL)])
    assert list(df.columns) == sheetaudit.api.FIGURE_COLUMNS
    assert str(df.value.dtype) == "float64" and str(df.page.dtype) == "Int64"
    assert all(str(df[c].dtype) == "string" for c in df.columns if c not in ("value", "printed_value", "page"))
    nvlink = df[df.as_printed == "900 GB/s"].iloc[0]
    assert (nvlink.value, nvlink.unit, nvlink.tier, nvlink["product"]) == (
        450.0,
        "GB/s",
        "scale-up",
        "Kestrel K8X-H GPU Server",
    )
    cooling = df[df.quantity == "cooling"].iloc[0]
    assert cooling.unit == "air" and df.value.isna()[cooling.name]  # a method, not a number


def test_findings_one_row_each():
    a = sheetaudit.audit(BOREALIS)
    df = sheetaudit.findings(a)
    assert len(df) == len(a["findings"]) and set(df.severity) <= {"error", "warning", "info"}


def test_scale_takes_assumptions_by_name_and_refuses_unknown_ones():
    a = sheetaudit.audit(KESTREL)
    df = sheetaudit.scale([a], accelerators=[8, 64], overlap=0.5)
    assert list(df.accelerators) == [8, 64] and df.attrs["assumptions"]["overlap"] == 0.5
    with pytest.raises(UsageError, match="unknown assumption 'overlapp'"):
        sheetaudit.scale([a], overlapp=0.5)


def test_requirements_as_a_dict_are_judged_in_the_contract():
    a = sheetaudit.audit(KESTREL, requirements={"scale_up_gbs": {"min": 400}})
    [got] = a["requirements"]["results"]
    assert got["key"] == "scale_up_gbs" and got["result"] in ("meets", "uncertain")
    with pytest.raises(UsageError, match="unknown key 'scale_up'"):
        sheetaudit.audit(KESTREL, requirements={"scale_up": {"min": 400}})


def test_dir_shows_the_api_and_every_name_in_all_resolves():
    names = dir(sheetaudit)
    assert {"audit", "audit_folder", "figures", "findings", "comparison", "compliance", "scale"} <= set(names)
    assert not any(n in names for n in ("api", "batch", "pipeline", "read"))  # modules are not the API
    assert all(getattr(sheetaudit, n) is not None for n in sheetaudit.__all__)


def test_plotting_is_an_extra_the_readme_names():
    import tomllib

    from conftest import ROOT

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(d.startswith("matplotlib") for d in extras["plot"])
    assert "sheetaudit[plot]" in (ROOT / "README.md").read_text(encoding="utf-8")
