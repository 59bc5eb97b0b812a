"""Spellings vendors use, and what each normalises to (GB/s per direction, ns, kW)."""

import pytest

from sheetaudit.stages.s1_find import find_mentions
from sheetaudit.records import Document, Segment


def mentions(text, label=""):
    doc = Document(path="x", sha256="", pages=1, kind="text", segments=[Segment(text, 1, "cell", label=label)])
    return find_mentions(doc)


@pytest.mark.parametrize(
    "text,quantity,value,unit",
    [
        # Rates are a grammar (prefix, bit/byte/transfer, per time): every spelling reports its canonical unit.
        ("400 Gb/s", "bandwidth", 400, "Gb/s"),
        ("400Gbps", "bandwidth", 400, "Gb/s"),
        ("40Gbit/s", "bandwidth", 40, "Gb/s"),
        ("80Gb/Sec", "bandwidth", 80, "Gb/s"),
        ("25 Gb / Sec", "bandwidth", 25, "Gb/s"),
        ("64 GB / s", "bandwidth", 64, "GB/s"),
        ("900 GBps", "bandwidth", 900, "GB/s"),
        ("600 GB/sec", "bandwidth", 600, "GB/s"),
        ("600 gigabytes per second", "bandwidth", 600, "GB/s"),
        ("400 Gigabits per second", "bandwidth", 400, "Gb/s"),
        ("1.8 TB/s", "bandwidth", 1.8, "TB/s"),
        ("3.2 Tbps", "bandwidth", 3.2, "Tb/s"),
        ("3.2 Tbit/sec", "bandwidth", 3.2, "Tb/s"),
        ("64 GiB/s", "bandwidth", 64, "GiB/s"),
        ("12 GiBps", "bandwidth", 12, "GiB/s"),
        ("400GbE", "bandwidth", 400, "GbE"),
        ("200GE", "bandwidth", 200, "GE"),
        ("32 GT/s", "bandwidth", 32, "GT/s"),
        ("18 GT/sec", "bandwidth", 18, "GT/s"),
        ("3200 MT/s", "bandwidth", 3200, "MT/s"),
        ("106,25 Gbit/s", "bandwidth", 106.25, "Gb/s"),
        ("1,6 Tbit/s", "bandwidth", 1.6, "Tb/s"),
        ("130 ns", "latency", 130, "ns"),
        ("0.6 µs", "latency", 0.6, "µs"),
        ("0.6 μs", "latency", 0.6, "μs"),
        ("2 us", "latency", 2, "us"),
        ("2 微秒", "latency", 2, "微秒"),
        ("10.2 kW", "power", 10.2, "kW"),
        ("1,100 W", "power", 1100, "W"),
        ("250w", "power", 250, "w"),
        ("5.6 千瓦", "power", 5.6, "千瓦"),
    ],
)
def test_spelling_is_found_with_value_and_unit(text, quantity, value, unit):
    (m,) = mentions(f"Figure: {text} here")
    assert (m.quantity, m.value, m.unit) == (quantity, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "80 GB HBM3",
        "2 TB DDR5-4800",
        "Document HX-DS-0193 revision 4, March 2024",
        "8U rack mount; 130 kg",
        "10 to 30 °C",
        "5 petaFLOPS AI",
        "600 mm W x 1,068 mm D",
        "SYS-821GE-TNHR-1",
        "BCM957608-P1400GDF00",
        "2,200 W with 800G optics" and "800G optics",
        "165 MB fully shared",
    ],
)
def test_numbers_that_are_not_figures(text):
    assert [m for m in mentions(text) if m.quantity == "bandwidth"] == []


def test_power_supply_rating_is_not_consumption():
    assert mentions("6x 3,000 W Titanium, N+N redundant", label="Power supplies") == []
    assert mentions("8x 33 kW power shelves, 48 V DC busbar") == []


def test_rate_list_is_one_figure_at_its_highest_rate():
    (m,) = mentions("10/25/50/100/200 Gb/s Ethernet")
    assert m.value == 200 and "rate-list" in m.flags
    (m,) = mentions("10Gb/25Gb/40Gb/50Gb/100Gb/200Gb Ethernet")
    assert m.value == 200


def test_bounds_and_counts():
    (m,) = mentions("up to 400 Gb/s InfiniBand")
    assert m.bound == "up-to"
    (m,) = mentions("< 700 ns")
    assert m.bound == "below" and m.value == 700
    (m,) = mentions("8x 400 Gb/s ConnectX-7")
    assert m.count == 8
    (m,) = mentions("64x NDR 400 Gb/s (32x OSFP)")
    assert m.count == 64


def test_bare_g_and_bytes_written_for_bits_are_flagged():
    (m,) = mentions("a rail-optimized 400G fabric")
    assert "bare-unit" in m.flags
    found = mentions("7-slots of 2-port 200G Infiniband (Max 2800GB HDR)")
    assert any("bytes-for-bits" in m.flags and m.value == 2800 for m in found)


def test_footnote_marker_is_kept():
    (m,) = mentions("Up to 7.2 TB/s¹ of NVLink bandwidth")
    assert m.marker == "¹" and m.value == 7.2


def test_wattage_at_the_end_of_a_model_name_counts_but_part_numbers_do_not():
    (m,) = mentions("AMD MI300X-NPS1-SPX-192GB-750W", label="accelerator_model_name")
    assert m.quantity == "power" and m.value == 750
    assert mentions("Order code: T8A-B200-8G-400G") == []
