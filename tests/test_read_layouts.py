"""Vendors' layouts the PDF reader must read as it reads the same text: pages drawn by samples/make_layouts.py (the
layouts of tests/layouts) from small documents written here."""

import sys
from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from sheetaudit.read import read_document  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "samples"))
import make_layouts  # noqa: E402

sys.path.pop(0)


def drawn(tmp_path, layout, blocks, title="Alder AS-400 Switch Family"):
    path = tmp_path / f"{layout}.pdf"
    make_layouts.render(path, title, make_layouts.LAYOUTS[layout](blocks), layout)
    return read_document(path)


def cells(doc):
    return {(s.label, s.column): s.text for s in doc.segments if s.kind == "cell"}


def test_model_grid_keeps_a_sparse_variant_column_with_its_model(tmp_path):
    """A grid whose first row names the models and whose later models have values on a few rows only (the rest
    span the row in the vendor's table): each model's column stays in the box, under its model's name."""
    grid = [
        ["Model", "Alder AS-4032", "Alder AS-4064", "Alder AS-8064"],
        ["Switching capacity", "12.8 Tb/s", "25.6 Tb/s", "51.2 Tb/s"],
        ["Forwarding rate", "5,300 Mpps", "10,600 Mpps", "21,200 Mpps"],
        ["Line card slots", "4", "8", "16"],
        ["Fabric", "Clos cell switching with virtual output queues", "", ""],
        ["Airflow", "Front to back, reversible", "", ""],
        ["Virtualisation", "M-LAG, VXLAN routing and bridging, BGP-EVPN, QinQ access to VXLAN", "", ""],
        ["Layer 2 and 3", "VLAN, STP, LACP; static routes, IPv4 and IPv6 dynamic routing", "", ""],
        ["Reliability", "Hardware BFD, in-service upgrade", "", ""],
        ["Telemetry", "Streaming telemetry, ERSPAN", "", ""],
    ]
    got = cells(drawn(tmp_path, "grid", [("p", "A family of modular data-centre switches."), ("table", grid)]))
    assert got[("Switching capacity", "Alder AS-8064")] == "51.2 Tb/s", got
    assert got[("Forwarding rate", "Alder AS-4064")] == "10,600 Mpps", got
    assert got[("Line card slots", "Alder AS-8064")] == "16", got
    assert got[("Switching capacity", "Alder AS-4032")] == "12.8 Tb/s", got


def test_chinese_wrapped_in_a_ruled_cell_reads_as_one_run(tmp_path):
    """A ruled table of four narrow columns wraps Chinese anywhere, mid-word; the cell's lines join without a space
    (a space would part "加速处理" from "器" and the count from its accelerators)."""
    rows = [
        ["硬件形态", "互联方式", "调度策略", "说明"],
        ["甲型服务器", "每个服务器内8个加速处理器通过高速总线互联组成全连接", "优先占满整个节点", "无"],
        ["乙型超节点", "2个加速处理器通过片间总线互联，形成8个模组", "必须调度到同一个模组上", "无"],
    ]
    prose = ("p", "加速处理器的亲和性调度。" * 20)
    got = cells(drawn(tmp_path, "sidecol", [prose, ("table", rows)], title="亲和性调度"))  # four columns in 300 pt
    assert got[("甲型服务器 硬件形态", "互联方式")] == "每个服务器内8个加速处理器通过高速总线互联组成全连接", got
    assert got[("乙型超节点 硬件形态", "调度策略")] == "必须调度到同一个模组上", got


def test_label_set_against_the_middle_of_a_two_line_value(tmp_path):
    """A borderless spec table in a narrow side column, each label centred against a value that wraps over two
    lines (so no label shares a baseline with a value line): each value keeps its own label."""
    rows = [
        ["Specification", "Value"],
        ["Ports", "32x 400GbE QSFP-DD, breakout to 2x 200GbE"],
        ["Throughput", "Up to 12.8 Tb/s switching, 5.3 Bpps forwarding"],
        ["Latency", "Under 500 ns port to port, cut-through"],
        ["Typical power", "Up to 650 W with optics, 380 W without"],
        ["Cooling", "Front-to-back airflow, five fans, hot-swap"],
    ]
    prose = ("p", "The Alder AS-4032 is a leaf switch for AI back-end fabrics. " * 12)
    got = cells(drawn(tmp_path, "sidecol", [prose, ("table", rows)]))
    by_label = {label: text for (label, _), text in got.items()}
    assert by_label["Latency"] == "Under 500 ns port to port, cut-through", got
    assert by_label["Typical power"] == "Up to 650 W with optics, 380 W without", got
    assert by_label["Ports"] == "32x 400GbE QSFP-DD, breakout to 2x 200GbE", got


def test_caption_flush_with_a_padded_table_is_no_parent_label():
    """A caption set flush with the table's edge over labels padded a few points in from it (a page of tests/layouts:
    "Table 5. AC Power Supply" over "Typical operating power | 212W"): the caption is no parent row of indented
    sub-rows, so no label takes it in (it would read as a power supply's rating, not what the device draws)."""
    doc = read_document(make_layouts.OUT / "grid-real-cisco-ucs-6300-fabric-interconnects-datasheet.pdf")
    label_of = {s.text: s.label for s in doc.segments if s.kind == "cell"}
    assert label_of["212W"] == "Typical operating power", label_of
    assert label_of["650W"] == "Maximum power", label_of
