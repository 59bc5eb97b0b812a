"""The contract's basis: GB/s per direction in the figure's own scope, ns, kW, with the arithmetic shown."""

import pytest

from conftest import figure


@pytest.mark.parametrize(
    "line,text,expected",
    [
        ("GPU-to-GPU: NVLink 4, 900 GB/s per GPU", "900 GB/s", 450),  # NVLink total: both directions added
        ("GPU-to-GPU: 1.8 TB/s per GPU, bidirectional", "1.8 TB/s", 900),
        ("Cluster network: 8x 400 Gb/s InfiniBand NDR per port", "400 Gb/s", 50),
        ("Scale-out: 800GbE", "800GbE", 100),
        ("Host interface: PCIe Gen5 x16, 32 GT/s per lane", "32 GT/s", 3.938),
        ("Host bandwidth: 64 GB/s per direction", "64 GB/s", 64),
        ("Accelerator interconnect: PCIe Gen4: 64 GB/s", "64 GB/s", 32),  # Gen4 x16 total of both directions
        ("卡间互联: HCCS，每链路 56 GB/s（双向）", "56 GB/s", 28),
        ("Memory: 80 GB HBM3, 3.35 TB/s memory bandwidth", "3.35 TB/s", 3350),
    ],
)
def test_bandwidth_per_direction_in_bytes(sheet, line, text, expected):
    a = sheet(f"# Server X\n\n{line}\n")
    f = figure(a, text, first=True)
    assert f.normalized["unit"] == "GB/s"
    assert f.normalized["value"] == pytest.approx(expected, rel=0.002)
    assert f.arithmetic


def test_switch_total_is_resolved_against_ports_times_rate(sheet):
    a = sheet("# Meridian switch\n\nPorts: 64x 800GbE\n\nSwitching capacity: 51.2 Tb/s\n")
    f = figure(a, "51.2 Tb/s", first=True)
    assert f.normalized["value"] == pytest.approx(6400)
    assert "64 ports" in f.reading
    b = sheet("# Quasar switch\n\nPorts: 64x NDR 400 Gb/s\n\nSwitching capacity: 51.2 Tb/s\n", name="q.md")
    assert figure(b, "51.2 Tb/s", first=True).normalized["value"] == pytest.approx(3200)


def test_latency_in_ns_and_power_in_kw(sheet):
    a = sheet("# Switch S\n\nPort-to-port latency: 0.13 µs\n\nMax power: 1,720 W\n")
    assert figure(a, "0.13 µs", first=True).normalized == {"value": 130.0, "unit": "ns"}
    assert figure(a, "1,720 W", first=True).normalized == {"value": 1.72, "unit": "kW"}
