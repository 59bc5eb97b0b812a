"""Figures tied to the product model they describe, so that each model's total is checked against its own ports:
prose that describes two models of one family one after the other, and model grids."""

from conftest import checks, figure


# --- models named in prose ---------------------------------------------------------------------------------

TWO_SWITCHES = """Add support for the QX7200 and QX7400 switches.

QX7200 is a 25.6Tbps switch built on the Lumen-3 ASIC.
The system has 64 QSFP-DD cages in 2U.

QX7200 Features:
 - 64 QSFP-DD ports supporting 10Gbps - 200Gbps speeds.
 - Air-cooled with 5 + 1 fan units.

QX7400 is a 25.6Tbps switch built on the Lumen-4 ASIC.
The system has 32 OSFP cages in 1U.

QX7400 Features:
 - 32 OSFP ports supporting 25Gbps - 800Gbps speeds.
 - Air-cooled with 5 + 1 fan units.
"""


def test_a_text_of_two_models_checks_each_capacity_against_its_own_ports(sheet):
    """64 x 200G = 12.8 Tb/s: the first model's 25.6 is both directions added; 32 x 800G = 25.6 Tb/s is the
    second model's per direction."""
    a = sheet(TWO_SWITCHES, name="patch.txt")
    first, second = [f for f in a.figures if f.text == "25.6Tbps"]
    assert (first.model, first.normalized["value"]) == ("QX7200", 1600.0)
    assert (second.model, second.normalized["value"]) == ("QX7400", 3200.0)
    assert figure(a, "25Gbps - 800Gbps").model == "QX7400"
    assert "bandwidth.aggregate-mismatch" not in checks(a)


def test_headings_led_by_model_codes_split_a_page_into_its_models(sheet):
    """A web page in another vendor's style: one heading per model, its figures in the paragraph under it. The
    second model's total disagrees with its own ports (48 x 100G + 8 x 400G = 8 Tb/s, 16 both ways)."""
    a = sheet(
        "# Helix switches\n\n## HX-3200 data-centre switch\n\nThe HX-3200 delivers 12.8 Tb/s of switching "
        "capacity across 32 x 400GbE ports.\n\n## HX-1600 data-centre switch\n\nThe HX-1600 delivers 12 Tb/s "
        "of switching capacity across 48 x 100GbE ports.\n"
    )
    assert figure(a, "12.8 Tb/s").model == "HX-3200"
    assert figure(a, "12 Tb/s").model == "HX-1600"
    assert "bandwidth.aggregate-mismatch" in checks(a)


def test_a_sheet_whose_sentences_open_with_its_parts_stays_one_product(sheet):
    """Sentences led by an accelerator's and an adapter's codes name parts, not two models of one family."""
    a = sheet(
        "# Orion 8-GPU server\n\nH100 GPUs are joined by NVLink at 900 GB/s per GPU.\n\nConnectX-7 adapters "
        "give each GPU a 400Gb/s InfiniBand port.\n"
    )
    assert not [f.model for f in a.figures if f.model]


# --- model grids ---------------------------------------------------------------------------------------------

FRONT_MATTER_GRID = """---
title: Lanting LT-9000 data-centre switches
specs:
  table: {"rows":[[{"text":"Model"},{"text":"LT-9032"},{"text":"LT-9064"}],[{"text":"Switching capacity (Tbps)"},{"text":"25.6"},{"text":"51.2"}],[{"text":"Ports"},{"text":"32 x 400GE QSFP-DD"},{"text":"48 x 400GE QSFP-DD"}],[{"text":"Airflow"},{"col":"2","text":"front-to-back"}]]}
---

# LT-9000
"""


def test_a_json_grid_in_front_matter_is_read_as_a_model_grid(sheet):
    """A site generator's spec table kept as JSON: each value is a cell of its column's model, the unit in its row
    header. LT-9032: 32 x 400G = 12.8 Tb/s, so 25.6 is both ways; LT-9064's 51.2 matches neither 48 x 400G
    (19.2) nor twice that: an error of that model alone."""
    a = sheet(FRONT_MATTER_GRID)
    small, large = figure(a, "25.6"), figure(a, "51.2")
    assert (small.model, small.normalized["value"]) == ("LT-9032", 1600.0)
    assert large.model == "LT-9064"
    bad = [x for x in a.findings if x.check == "bandwidth.aggregate-mismatch"]
    assert len(bad) == 1 and bad[0].severity == "error" and large.id in bad[0].figures
    assert small.id not in bad[0].figures


def test_a_slash_pair_of_capacities_under_a_unit_row_header_is_two_figures(sheet):
    """'交换容量(Tbps) | 192/576': a chassis's capacity with two fabric configurations, one figure each, of its
    column's model; no port runs at these rates, so it is not a list of supported speeds."""
    a = sheet(
        "# 恒达 HD-12800 系列\n\n| 型号 | 恒达 HD-12804 | 恒达 HD-12808 |\n|---|---|---|\n"
        "| 交换容量(Tbps) | 192/576 | 384/1152 |\n| 业务槽位 | 4 | 8 |\n"
    )
    assert [(f.text, f.model, f.normalized["value"]) for f in a.figures if f.quantity == "bandwidth"] == [
        ("192", "恒达 HD-12804", 24000.0),
        ("576", "恒达 HD-12804", 72000.0),
        ("384", "恒达 HD-12808", 48000.0),
        ("1152", "恒达 HD-12808", 144000.0),
    ]


def test_an_html_grid_of_capacities_with_units_in_the_cells(sheet):
    """Another vendor's page: an HTML grid, 'x.xTbps/yy.yTbps' in each column; the pair is two figures."""
    a = sheet(
        "<html><body><h1>Kite K-series</h1><table><tr><th>Model</th><th>Kite K8</th><th>Kite K16</th></tr>"
        "<tr><td>Switching capacity</td><td>3.2Tbps/12.8Tbps</td><td>6.4Tbps/25.6Tbps</td></tr>"
        "<tr><td>Max power</td><td>250W</td><td>410W</td></tr></table></body></html>",
        name="kite.html",
    )
    caps = [(f.text, f.model) for f in a.figures if f.quantity == "bandwidth"]
    assert caps == [("3.2Tbps", "Kite K8"), ("12.8Tbps", "Kite K8"), ("6.4Tbps", "Kite K16"), ("25.6Tbps", "Kite K16")]


def test_a_total_printed_per_direction_and_both_ways_stays_one_figure(sheet):
    a = sheet("# Orca 9600\n\n| Spec | Value |\n|---|---|\n| System throughput | 51.2/102.4 Tbps |\n")
    assert len([f for f in a.figures if f.quantity == "bandwidth"]) == 1
