"""The command line as users run it: formats, exit codes, rules, help text."""

import json


from conftest import ROOT, run_cli

SAMPLE = ROOT / "samples" / "kestrel-k8x-gpu-server.pdf"


def test_check_json_is_the_contract():
    r = run_cli("check", "--format", "json", SAMPLE)
    doc = json.loads(r.stdout)
    assert doc["schema"] == "sheetaudit/1" and doc["figures"]
    assert r.returncode in (0, 1)


def test_exit_code_follows_fail_on():
    assert run_cli("check", "--fail-on", "never", SAMPLE).returncode == 0
    assert run_cli("check", "--fail-on", "info", SAMPLE).returncode == 1  # the sample raises info findings


def test_text_summary_has_verdict_findings_and_figures():
    out = run_cli("check", SAMPLE).stdout
    assert "bandwidth.direction-unspecified" in out and "per-node" in out and "GB/s" in out


def test_html_to_file_atomically(tmp_path):
    out = tmp_path / "r.html"
    r = run_cli("check", "--format", "html", "-o", out, SAMPLE)
    assert r.returncode in (0, 1), r.stderr
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_unreadable_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"not a pdf at all")
    r = run_cli("check", bad)
    assert r.returncode == 2
    assert "x.pdf" in r.stderr and "Traceback" not in r.stderr


def test_missing_file_is_a_usage_error():
    r = run_cli("check", ROOT / "no-such-file.pdf")
    assert r.returncode == 2


def test_rules_lists_and_explains():
    r = run_cli("rules")
    assert "power.rack-density" in r.stdout and r.returncode == 0
    r = run_cli("rules", "power.rack-density")
    assert "Why it matters" in r.stdout
    assert run_cli("rules", "no.such-check").returncode == 2


def test_facility_profile_raises_facility_exceeded(tmp_path):
    fac = tmp_path / "hall.yaml"
    fac.write_text("rack_power_kw: 20\ncooling: [air]\n")
    r = run_cli("check", "--format", "json", "--facility", fac, ROOT / "samples" / "borealis-bx72-rack.pdf")
    assert "power.facility-exceeded" in {f["check"] for f in json.loads(r.stdout)["findings"]}


def test_every_command_has_help_text():
    from sheetaudit.cli import main

    for name, cmd in main.commands.items():
        assert cmd.help and cmd.help.strip(), name
        for p in cmd.params:
            if hasattr(p, "help") and p.param_type_name == "option":
                assert p.help, f"{name} {p.name}"


def test_report_file_gets_ordinary_permissions(tmp_path):
    import os

    out = tmp_path / "r.json"
    run_cli("check", "--format", "json", "-o", out, SAMPLE)
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_rules_ship_inside_the_package_for_plain_installs():
    """pyproject maps rules/ to sheetaudit._rules; the loader finds either."""
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"]["sheetaudit._rules"] == "rules"
    listed = set(cfg["packages"])
    found = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts[:-1]) for p in (ROOT / "sheetaudit").rglob("__init__.py")
    }
    assert found <= listed, f"packages missing from pyproject: {found - listed}"
