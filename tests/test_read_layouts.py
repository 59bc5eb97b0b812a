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
