"""What vendors' published PDFs do that authored sheets did not (issue 19), each in our own words: comparisons with
another technology, standards and routing widths that look like figures, power settings that are not a draw, twin
rates in brackets, spans of speeds, port counts in prose, a switch's own latency, cooling said as airflow."""

import pytest

from conftest import figure


def texts(audit, quantity):
    return sorted(f.text for f in audit.figures if f.quantity == quantity)


def test_the_technology_in_a_comparison_is_not_the_figures_link(sheet):
    a = sheet(
        "# Vega V2 PCIe card\n\nTwo Vega V2 PCIe cards can be connected to deliver 600 GB/s bidirectional "
        "bandwidth, or 4x the bandwidth of PCIe Gen5.\n"
    )
    f = figure(a, "600 GB/s")
    assert (f.tier, f.direction, f.normalized["value"]) == ("scale-up", "bidirectional", 300.0)
    assert f.technology != "PCIe"
    assert figure(a, quantity="domain_size").normalized["value"] == 2.0
    assert not [x for x in a.findings if x.check == "bandwidth.exceeds-technology"]


def test_a_generation_named_in_a_comparison_or_a_benchmark_footnote_is_no_figure(sheet):
    a = sheet(
        "# Vega V2\n\nThe fabric delivers 7X higher bandwidth than InfiniBand HDR.\n\n"
        "Training throughput. Baseline cluster: HDR IB network, Vega cluster: NDR IB network.\n"
    )
    assert texts(a, "bandwidth") == []


@pytest.mark.parametrize(
    "line",
    [
        "Layer 2: 802.1w Rapid Spanning Tree, 802.3ck, 802.1Q VLAN tagging",
        "Routing: 128-way ECMP and 64-way MLAG for scalable designs",
        "A fabric of 4-way spine switches built from a 32 x 400G device",
    ],
)
def test_standards_and_routing_widths_are_not_figures(sheet, line):
    a = sheet(f"# Tern T4 Ethernet switch\n\n{line}\n")
    assert texts(a, "power") == [] and texts(a, "domain_size") == []


def test_power_modes_levels_and_minimum_caps_are_not_consumption(sheet):
    a = sheet(
        "# Vega V2 PCIe card\n\nTotal board power: 16-pin 450 W or 600 W power mode: 300 W default, "
        "300 W maximum, 150 W minimum.\n\nThe adapter supports the 301 W-450 W power sense option.\n"
    )
    assert {f.normalized["value"] for f in a.figures if f.quantity == "power"} == {0.3}


def test_a_rate_with_its_full_duplex_twin_in_brackets(sheet):
    a = sheet(
        "# Tern T4 Ethernet switch\n\n| Model | T4-32 |\n|---|---|\n| Throughput (FDX) | 12.8 (25.6) Tbps |\n"
        "| Ports | 32 x 400GbE |\n"
    )
    one, two = figure(a, "12.8 Tbps"), figure(a, "(25.6) Tbps")
    assert one.normalized["value"] == two.normalized["value"] == 1600.0
    assert (one.direction, two.direction) == ("unspecified", "bidirectional")


def test_a_span_of_port_speeds_is_one_figure_and_ports_in_prose_are_counted(sheet):
    a = sheet(
        "# Tern T2 Ethernet switch\n\nPort speeds span from 10Gb/s to 100Gb/s per port. Packed with 32 ports "
        "running at 100GbE, the T2 carries a throughput of 6.4Tb/s.\n"
    )
    assert figure(a, "10Gb/s to 100Gb/s").normalized["value"] == 12.5
    total = figure(a, "6.4Tb/s")
    assert (total.scope, total.normalized["value"]) == ("per-switch", 400.0)  # 32 x 100G each way, doubled


def test_mixed_port_groups_in_prose_carry_their_counts(sheet):
    a = sheet(
        "# Tern T8 Ethernet switch\n\nThe T8-48 is a 1RU system with 48 100G SFP-DD and 8 400G QSFP-DD ports "
        "offering wire speed throughput of up to 8.0 Tbps.\n"
    )
    assert figure(a, "100G").count == 48 and figure(a, "400G").count == 8


def test_a_switchs_own_latency_is_hardware_and_the_nearest_basis_word_wins(sheet):
    a = sheet("# Tern T4 Ethernet switch\n\n| Model | T4-32 |\n|---|---|\n| Latency | 800ns |\n")
    assert figure(a, quantity="latency").basis == "hardware"
    b = sheet(
        "# Tern T2 Ethernet switch\n\nBenefits: an end-to-end solution with 250nsec for 100GbE port-to-port "
        "latency and more\n"
    )
    assert figure(b, quantity="latency").basis == "hardware"


@pytest.mark.parametrize(
    "line", ["Thermal solution: Passive", "Cooled by a passive heat sink.", "Rear view: front-to-rear airflow (red)"]
)
def test_cooling_said_as_heat_sinks_or_airflow_is_air(sheet, line):
    a = sheet(f"# Vega V2\n\nPower: 300 W per card\n\n{line}\n")
    assert figure(a, quantity="cooling").normalized["value"] == "air"


def test_hyphenated_rates_and_peripheral_buses(sheet):
    a = sheet("# Wren W5 blade server\n\nTwo sets of 4 x 10-Gbps unified I/O ports. A 12-Gbps SAS RAID controller.\n")
    f = figure(a, "10-Gbps")
    assert (f.tier, f.scope, f.normalized["value"]) == ("front-end", "per-port", 1.25)
    assert texts(a, "bandwidth") == ["10-Gbps"]


def test_a_lane_named_with_words_between(sheet):
    a = sheet("# Vega V2\n\nData rate per Vega V2 VLink lane (each direction): 100 Gbps\n")
    assert figure(a, "100 Gbps").scope == "per-lane"


def test_a_sidebar_of_inline_bullets_is_a_list_of_items(sheet):
    a = sheet(
        "# Tern T2 Ethernet switch\n\nBENEFITS – Zero packet loss – Throughput • 6.4Tb/s • 9.52B packets-per-second "
        "– High density • 32 40/56/100GbE ports in 1RU – Storage and server applications run faster – Lowest "
        "power\n"
    )
    assert {f.tier for f in a.figures if f.quantity == "bandwidth"} == {"scale-out"}


def test_a_figure_takes_the_direction_the_sheet_states_for_it_elsewhere(sheet):
    a = sheet(
        "# Vega V2 accelerator\n\n| Spec | Vega V2 |\n|---|---|\n| Interconnect | VLink: 800GB/s |\n\n"
        "## VLink\n\nVLink connects the accelerators in one scale-up domain at 800 gigabytes per second "
        "(GB/s) bidirectional per accelerator.\n"
    )
    f = figure(a, "800GB/s")
    assert (f.direction, f.normalized["value"]) == ("bidirectional", 400.0)


def test_a_gigabit_port_on_a_switch_is_its_management_port(sheet):
    a = sheet(
        "# Tern T4 Ethernet switch\n\nThe T4 has 32 x 400GbE ports.\n\nStandards: 1000BASE-T, 10/100/1000Mb/s Ethernet RJ45.\n"
    )
    assert {f.tier for f in a.figures if f.normalized["value"] == 0.125} == {"front-end"}
    assert figure(a, "400GbE").tier == "scale-out"


def test_a_width_in_dimensions_is_not_watts(sheet):
    a = sheet("# Wren W8 server\n\nSystem dimensions: 444 W x 131 H x 866 D (mm). Maximum power: 3,200 W\n")
    assert [f.text for f in a.figures if f.quantity == "power"] == ["3,200 W"]


def test_a_switch_total_is_checked_against_its_configuration_of_mixed_ports(sheet):
    a = sheet(
        "# Tern T8 Ethernet switch\n\nThe T8-48 is a 1RU system with 48 100G SFP-DD and 8 400G QSFP-DD ports "
        "offering wire speed throughput of up to 16 Tbps.\n"
    )
    total = figure(a, "up to 16 Tbps")
    assert total.normalized["value"] == 1000.0 and "48 x 100G + 8 x 400G" in total.reading


@pytest.mark.parametrize(
    "line,size",
    [
        ("Eight Vega V2 or V3 accelerators in each server.", 8),
        ("Partner Systems ™ with 4 or 8 GPUs", 8),
        ("服务器搭载8颗曜石 YS-300 AI 处理器。", 8),
        ("Partner systems with 1–8 GPUs", None),
    ],
)
def test_counts_of_accelerators_in_product_prose_on_a_sheet_that_names_its_scale_up_link(sheet, line, size):
    a = sheet(f"# Wren W8 GPU server\n\nNVLink joins the accelerators of the server.\n\n{line}\n")
    found = [f.normalized["value"] for f in a.figures if f.quantity == "domain_size"]
    assert found == ([float(size)] if size else [])


def test_a_nics_heat_sink_cools_the_card_not_the_rack(sheet):
    a = sheet("# Lumen L4 network adapter\n\nA 400Gb/s NIC, cooled by its passive heat sink.\n")
    assert [f for f in a.figures if f.quantity == "cooling"] == []


def test_a_nics_total_bandwidth_is_the_devices(sheet):
    a = sheet("# Lumen L8 SuperNIC\n\nMaximum total bandwidth: 800Gb/s\n\nSpeeds: 2 ports x 400/200/100Gb/s\n")
    assert figure(a, "800Gb/s").scope == "per-device" and figure(a, "400/200/100Gb/s").scope == "per-port"


def test_an_optics_type_is_not_an_rdma_transport(sheet):
    """ "400GBASE-XDR4" names an optic (IEEE 802.3 naming), not XDR InfiniBand: the Ethernet switch still names no
    RDMA transport."""
    a = sheet("# Tern T4 Ethernet switch\n\nPorts: 32 x 400GbE\n\nSupported optics: 400GBASE-XDR4, 400GBASE-DR4\n")
    assert [x for x in a.findings if x.check == "latency.no-rdma"]
    b = sheet("# Tern T4 Ethernet switch\n\nPorts: 32 x 400GbE, RoCE v2\n\nSupported optics: 400GBASE-XDR4\n")
    assert not [x for x in b.findings if x.check == "latency.no-rdma"]


def test_a_blade_servers_io_throughput_is_the_servers(sheet):
    a = sheet(
        "# Tern B5 blade server\n\n- Up to 80 Gbps of I/O throughput\n- Two 40-Gbps unified I/O ports, "
        "delivering 80 Gbps to the server\n"
    )
    assert {f.scope for f in a.figures if f.text.endswith("80 Gbps")} == {"per-node"}
