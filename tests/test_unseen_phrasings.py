"""Phrasings found in real documents nobody had tuned for (tests/real/dev), each case in our own words and in at
least two vendors' styles: a port's supported speeds written as a list, breakout options, units written out in the
singular, cooling said by its fans, and the kind of product named by what it routes."""

import pytest

from test_real_phrasings import figure, values


@pytest.mark.parametrize(
    "line",
    [
        "Each OSFP port supports 800GbE, 400GbE, 200GbE and 100GbE modes.",
        "Interface speeds: 1.6TbE down to 100GbE, configurable per port",
        "支持 400G、200G、100G 多种速率",
    ],
)
def test_a_ports_list_of_speeds_is_one_figure_at_its_highest_rate(sheet, line):
    a = sheet(f"# Tern T9 Ethernet switch\n\n{line}\n")
    rates = [f for f in a.figures if f.quantity == "bandwidth"]
    assert len(rates) == 1 and "rate-list" in rates[0].flags


def test_two_speeds_joined_by_and_stay_two_ports(sheet):
    a = sheet("# Wren W2 server\n\nNetworking: one 1 GbE and one 100 GbE port for management and data\n")
    assert values(a, "bandwidth") == [0.125, 12.5]


@pytest.mark.parametrize(
    "line",
    [
        "64 ports of 800GbE that break out to 128 ports of 400GbE or 256 ports of 200GbE",
        "64 x 800GbE; (breakouts) 128 x 400GbE, 256 x 200GbE",
        "Up to 64 ports of 800GbE, or up to 256 ports of 200GbE using breakouts",
    ],
)
def test_speeds_reached_by_breaking_a_port_out_are_not_figures(sheet, line):
    a = sheet(f"# Tern T9 Ethernet switch\n\nPorts: {line}\n")
    assert values(a, "bandwidth") == [100.0]


@pytest.mark.parametrize(
    "line, ns",
    [
        ("Latency is less than 1 microsecond.", 1000.0),
        ("Port-to-port latency: 600 nanosecond typical", 600.0),
        ("latency as low as 1 µsec between two adapters", 1000.0),
    ],
)
def test_units_written_out_in_the_singular(sheet, line, ns):
    a = sheet(f"# Tern T9 Ethernet switch\n\n{line}\n")
    assert figure(a, "latency").normalized["value"] == ns


@pytest.mark.parametrize(
    "line", ["Front-to-back cooling with redundant fans", "The chassis is equipped with 7 fan drawers."]
)
def test_cooling_said_by_its_airflow_or_fans_is_air(sheet, line):
    a = sheet(f"# Tern T9 Ethernet switch\n\n64 ports of 400GbE.\n\n{line}\n")
    assert figure(a, "cooling").normalized["value"] == "air"


@pytest.mark.parametrize("title", ["Kite K5 core router", "Kite FI-64 fabric interconnect", "Kite LC-36 line card"])
def test_a_product_named_by_what_it_routes_is_a_switch_sheet(sheet, title):
    a = sheet(f"# {title}\n\nThe platform offers 36 ports of 400GbE and a system capacity of 14.4 Tbps.\n")
    assert a.sheet_kind == "switch"
    assert figure(a, "bandwidth", "14.4 Tbps").scope == "per-switch"


UNIFIED = (
    "# Kite FI-64 fabric interconnect\n\nThe FI-64 joins blade servers to the LAN and the SAN over one unified "
    "fabric: Ethernet, FCoE and Fibre Channel on the same ports, for enterprise and edge data centres.\n\n"
    "Ports: 36 x 100GbE\n"
)
ROUTER = (
    "# Kite K9 core router\n\nBuilt for WAN peering, metro aggregation and the service provider edge, with "
    "internet-scale routing tables.\n\n| Interfaces | 24 x 400GbE |\n"
)
AI_FABRIC = (
    "# Kite K9-AI switch\n\nA leaf and spine switch for AI back-end fabrics with RoCE, for GPU training "
    "clusters; also at home in enterprise LAN and the edge.\n\nPorts: 64 x 800GbE\n"
)


@pytest.mark.parametrize("text, tier", [(UNIFIED, "front-end"), (ROUTER, "front-end"), (AI_FABRIC, "scale-out")])
def test_a_switch_serving_the_general_network_has_front_end_ports(sheet, text, tier):
    a = sheet(text)
    assert {f.tier for f in a.figures if f.quantity == "bandwidth"} == {tier}


def checks(audit, code):
    return [x for x in audit.findings if x.check == code]


@pytest.mark.parametrize(
    "text",
    [
        "# Vega V2 PCIe card\n\nTwo Vega V2 cards joined by NVLink bridges deliver 900 GB/s bidirectional bandwidth.\n\n"
        "Table 6. Board specifications\n\n| Parameter | Value |\n|---|---|\n| Total maximum NVLink bandwidth | 600 Gbytes per second |\n",
        "# Orca O4 module\n\nO4 modules talk over Infinity Fabric at 800 GB/s per accelerator.\n\n"
        "Peer bandwidth per OAM (Infinity Fabric): 448 GB/s in each direction\n",
    ],
)
def test_a_sheet_that_gives_one_link_two_bandwidths_is_asked_which_holds(sheet, text):
    a = sheet(text)
    [x] = checks(a, "bandwidth.self-contradiction")
    assert x.severity == "warning" and len(x.figures) == 2 and "?" in x.question


def test_counted_groups_of_links_and_twins_are_no_contradiction(sheet):
    a = sheet(
        "# Kite K3 chip\n\nEach K3 chip provides five PCIe Gen6 x8 links to the server switch, 320 GB/s of "
        "bidirectional bandwidth per chip.\n\nEach chip provides two PCIe Gen6 x8 links between racks, 128 GB/s "
        "of bidirectional bandwidth per chip.\n\nNVLink: 25 GB/s per link, or 50 GB/s bidirectional.\n"
    )
    assert not checks(a, "bandwidth.self-contradiction")


def test_a_dpus_own_port_speed_is_not_made_front_end_by_its_bmc(sheet):
    a = sheet(
        "# Kite D3 DPU\n\nKite D3 P-series DPU; 200GbE (default mode) / NDR200 IB; dual-port QSFP112; PCIe Gen5 x16; "
        "16 Arm cores; integrated BMC\n"
    )
    assert {f.tier for f in a.figures if f.quantity == "bandwidth" and f.unit != "GT/s"} == {"scale-out"}


@pytest.mark.parametrize("line", ["Blinking blue (300 msec): remote UID active", "The status LED flashes every 500 ms"])
def test_an_led_blink_period_is_no_latency(sheet, line):
    a = sheet(f"# Kite K5 server\n\n{line}\n")
    assert not [f for f in a.figures if f.quantity == "latency"]


def test_a_server_sheet_giving_only_its_parts_power_is_asked_for_the_systems(sheet):
    a = sheet("# Kite K5 GPU server\n\nEight GPUs joined by NVLink. Each GPU: 700 W TDP. CPU: 2x 350 W TDP.\n")
    [x] = checks(a, "power.missing")
    assert "components" in x.message


def test_a_chips_total_over_several_host_links_is_the_chips(sheet):
    a = sheet(
        "# Kite K3 chip\n\nEach K3 chip provides five PCIe Gen6 x8 links to the server switch, delivering 320 GB/s "
        "of bidirectional bandwidth per chip.\n"
    )
    f = next(f for f in a.figures if f.text.startswith("320"))
    assert f.scope == "per-accelerator"
    assert not [x for x in a.findings if x.severity == "error"]


@pytest.mark.parametrize(
    "text",
    [
        "Key specifications:\n\n▶ Eight GPUs ▶ 1.5TB of GPU memory space ▶ Up to 400Gb/s InfiniBand/Ethernet per port\n",
        "Key specifications:\n\n✓ 2 TB of DDR5 system memory ✓ Four OSFP ports, up to 400 Gb/s InfiniBand\n",
    ],
)
def test_an_inline_bullet_bounds_its_items_clause(sheet, text):
    a = sheet(f"# Heron H8 server\n\n{text}")
    assert figure(a, "bandwidth").tier == "scale-out"  # the memory in the item before is not this link's


@pytest.mark.parametrize(
    "line",
    [
        "The Tern T2 switch can provide for speeds between 1 GbE and 100 GbE.",
        "Ports run at speeds between 10GbE and 100GbE.",
    ],
)
def test_speeds_between_two_rates_are_one_span(sheet, line):
    a = sheet(f"# Tern T2 Ethernet switch\n\n{line}\n")
    assert values(a, "bandwidth") == [12.5]


def test_a_sentence_naming_nothing_continues_the_one_before_it(sheet):
    a = sheet(
        "# Heron H8 server\n\nThe Kite K7 adapter is the latest InfiniBand adapter line. "
        "It can provide 25/50/100/200/400G of throughput.\n"
    )
    assert figure(a, "bandwidth").tier == "scale-out"


@pytest.mark.parametrize(
    "row", ["机内总线协议 | Speed 32GT/s, Width x16（PCIE5）", "Intra-node bus | 32 GT/s x16 (PCIe5)"]
)
def test_a_cell_naming_a_host_link_is_host_under_an_in_node_label(sheet, row):
    a = sheet(f"# Heron H8 server\n\n| Item | Value |\n|---|---|\n| {row} |\n")
    assert figure(a, "bandwidth").tier == "host"


@pytest.mark.parametrize(
    "table",
    [
        "Feature | Benefit\n---|---\n**Eight Kite K7 GPUs fully connected by NVLink** | density for training\n",
        "Feature | Benefit\n---|---\nFront-to-back cooling | hot- and cold-aisle designs\n",
    ],
)
def test_a_markdown_table_without_outer_pipes_reads_its_feature_column(sheet, table):
    a = sheet(f"# Heron H8 server\n\n{table}")
    assert [f.quantity for f in a.figures if f.quantity in ("domain_size", "cooling")]


@pytest.mark.parametrize(
    "row",
    ["PWR-511-AC | Kite PSU, 1RU. AC/DC, 500W, FORWARD", "PS-2K-DC | Power supply, 2RU. DC, 2000 W, reverse airflow"],
)
def test_a_power_supply_in_a_parts_list_is_not_consumption(sheet, row):
    a = sheet(f"# Tern T9 Ethernet switch\n\n| Part | Description |\n|---|---|\n| {row} |\n")
    assert values(a, "power") == []


def test_a_list_under_a_control_plane_lead_in_is_front_end(sheet):
    a = sheet(
        "# Heron BasePOD\n\nThe minimum requirements for each server in the control plane are:\n\n"
        "▶ 2 × Xeon Gold ▶ 512 GB memory ▶ 4 × 200 Gbps network\n"
    )
    assert figure(a, "bandwidth").tier == "front-end"


@pytest.mark.parametrize(
    "table",
    [
        # a converter's bold line spanning the table, over part-number rows
        "Part | Description\n---|---\n**QSFP-DD 400-Gbps Transceivers**\n**QDD-400G-DR4** | 400GBASE-DR4 module, SMF at 500m\n"
        "**Copper Cables**\n**QDD-400-CU2M** | 400G passive copper cable, 2m\n",
        # a Markdown table whose group row leaves its other cells empty
        "| Module | What it is |\n|---|---|\n| Optics | |\n| OP-100-SR4 | 100 Gb/s SR4 optic, MMF, 100 m |\n"
        "| Fibre Channel transceivers | |\n| FC-32-SW | 32-Gbps Fibre Channel shortwave SFP28 |\n",
    ],
)
def test_rates_in_a_table_of_pluggables_are_module_ratings_not_figures(sheet, table):
    a = sheet(f"# Tern T9 Ethernet switch\n\n32 ports of 100GbE.\n\n{table}\nTypical power: 350 W\n")
    assert values(a, "bandwidth") == [12.5]
    assert values(a, "power") == [0.35]  # the group rows end with the table


@pytest.mark.parametrize(
    "ports", ["The switch has 32 fixed 400-Gbps Ethernet and FCoE ports.", "It carries 32 native QSFP-DD 400GbE ports."]
)
def test_a_port_count_with_a_word_before_its_speed_checks_the_capacity(sheet, ports):
    a = sheet(f"# Kite FI-64 fabric interconnect\n\n{ports} Switching capacity of 25.6 Tbps.\n")
    assert figure(a, "bandwidth", "25.6 Tbps").normalized["value"] == 1600.0  # 32 x 50 GB/s, both ways added


@pytest.mark.parametrize(
    "line", ["Memory: 32 DIMM slots ● MRDIMMs at up to 8000 MT/s", "Memory | 24 RDIMMs, 8000 MT/s"]
)
def test_a_dimms_transfer_rate_is_memory_with_no_line_encoding(sheet, line):
    a = sheet(f"# Heron H2 server\n\n{line}\n")
    f = figure(a, "bandwidth")
    assert (f.tier, f.normalized["value"]) == ("memory", 1.0)


@pytest.mark.parametrize(
    "line",
    [
        "Up to 8 PCIe 5.0 slots plus 1 dedicated 24-Gbps RAID controller slot",
        "Storage: Cisco 24G tri-mode controller",
        "支持SATA3.0，SATA 支持6G/3G/1.5G 速率",
    ],
)
def test_a_storage_controllers_bus_rate_is_not_an_interconnect_figure(sheet, line):
    a = sheet(f"# Heron H2 server\n\n{line}\n\nNetwork: 2 x 100GbE\n")
    assert values(a, "bandwidth") == [12.5]


def test_a_raid_word_in_the_bullet_before_leaves_a_network_figure_alone(sheet):
    a = sheet("# Heron BasePOD\n\nEach head node: ▶ 2 × 480 GB M.2 RAID for OS ▶ 4 × 200 Gbps network\n")
    assert values(a, "bandwidth") == [25.0]


@pytest.mark.parametrize(
    "line",
    [
        "each port runs at 50G, 25G or 10G",
        "lane rates: NRZ (10G, 25G)、PAM4 (50G, 100G)",
        "SerDes: NRZ (10G, 25G), PAM4 (50G, 100G)",
    ],
)
def test_a_list_of_speeds_ending_in_or_or_in_tagged_groups_is_one_list(sheet, line):
    a = sheet(f"# Tern T9 Ethernet switch\n\n{line}\n")
    assert [f.normalized["value"] for f in a.figures if f.quantity == "bandwidth"] in ([6.25], [12.5])


@pytest.mark.parametrize("line", ["Dual 10GBase-T via an OCP 3.0 card", "2 x 10GBASE-T management ports"])
def test_an_ieee_name_in_any_case_is_its_rate(sheet, line):
    a = sheet(f"# Heron H2 server\n\n{line}\n")
    assert values(a, "bandwidth") == [1.25]


def test_a_400g_module_named_in_chinese_is_the_product_not_a_figure(sheet):
    a = sheet("# 64核400G模块 规格简介\n\n网络: 2 x 100GE\n")
    assert values(a, "bandwidth") == [12.5]


@pytest.mark.parametrize(
    "ports",
    ["36 OSFP ports supporting 2.5Gbps - 800Gbps speeds.", "Interfaces: 36 QSFP-DD ports of up to 800 Gb/s each."],
)
def test_ports_named_with_their_cage_count_check_a_switchs_capacity(sheet, ports):
    a = sheet(f"# Tern Q36 InfiniBand switch\n\nThe Q36 is a 57.6Tbps switch.\n\n{ports}\n")
    assert figure(a, "bandwidth", "57.6Tbps").normalized["value"] == 3600.0  # 36 x 100 GB/s, both ways added


def test_the_speeds_a_port_supports_take_no_direction_from_a_stated_speed(sheet):
    a = sheet(
        "# Tern Q36 InfiniBand switch\n\nIt provides up to 800Gbps full bidirectional bandwidth per port.\n\n"
        "36 OSFP ports supporting 10Gbps - 800Gbps speeds.\n"
    )
    span = next(f for f in a.figures if "rate-list" in f.flags)
    assert (span.direction, span.normalized["value"]) == ("unspecified", 100.0)


@pytest.mark.parametrize(
    "line",
    ["該系統支援8個Tesla V100 GPU，這些GPU透過NVLink連接。", "该系统支持8个Tesla V100 GPU，这些GPU通过NVLink连接。"],
)
def test_a_chinese_count_reads_in_traditional_and_simplified_characters(sheet, line):
    a = sheet(f"# Heron H8 服務器\n\n{line}\n")
    assert figure(a, "domain_size").normalized["value"] == 8


def test_the_rules_simplified_characters_match_their_traditional_forms():
    from sheetaudit.rules import compiled

    assert compiled("热插拔风扇").search("4個熱插拔風扇")
    assert compiled("[个颗]GPU").search("8個GPU") and compiled("[个颗]GPU").search("8个GPU")


@pytest.mark.parametrize(
    "line",
    [
        "Air Cooled: 7 + 1 redundant fan units",
        "Cooling: 8 x 92mm counter-rotating fans",
        "| 风扇 | 4个热插拔风扇，支持N+1冗余 |",
    ],
)
def test_cooling_said_by_fan_units_or_a_fan_row_is_air(sheet, line):
    table = "| 项目 | 规格 |\n|---|---|\n" if line.startswith("|") else ""
    a = sheet(f"# Tern T9 switch\n\n64 ports of 400GbE.\n\n{table}{line}\n")
    assert figure(a, "cooling").normalized["value"] == "air"


@pytest.mark.parametrize(
    "line, gbs",
    [("Each node: one NVIDIA Infiniband 400 NDR NIC per GPU", 50.0), ("Fabric: two 200 HDR adapters per node", 25.0)],
)
def test_a_generation_named_after_its_rate_is_that_rate(sheet, line, gbs):
    a = sheet(f"# Heron H8 server\n\n{line}\n")
    f = figure(a, "bandwidth")
    assert f.normalized["value"] == gbs and not any(x.check == "bandwidth.unit-ambiguous" for x in a.findings)


def test_a_count_of_ports_before_a_generation_is_no_rate(sheet):
    a = sheet("# Tern Q2 InfiniBand switch\n\nA leaf of 200 HDR ports.\n")
    assert values(a, "bandwidth") == []


@pytest.mark.parametrize(
    "line",
    [
        "ResNet-50 offline with INT8 input requires to support 13GB/s for example.",
        "The highest bandwidth requirement per GPU for our submissions is about 14GB/s.",
    ],
)
def test_what_a_workload_needs_of_the_network_is_not_the_products_figure(sheet, line):
    a = sheet(f"# Heron H8 server\n\nEach GPU has a 200 Gb/s NIC. {line}\n")
    assert values(a, "bandwidth") == [25.0]


def test_a_rate_whose_words_name_no_network_takes_the_tier_of_its_twin(sheet):
    a = sheet(
        "# Kite K7 accelerator card\n\nScale-up: 4x QSFP-DD 800G\n\n## Cabling\n\n"
        "Use passive cables of 1 m to 2 m at 800 Gbps.\n"
    )
    tiers = {f.tier for f in a.figures if f.quantity == "bandwidth"}
    assert tiers == {"scale-up"} and not any(x.check == "tier.unclassified" for x in a.findings)


@pytest.mark.parametrize(
    "line, gbs",
    [
        ("Six 100/40 GigE QSFP28/QSFP+ interfaces (31 to 36).", 12.5),
        ("Front panel: 2 x 10 GigE SFP+ ports for HA.", 1.25),
        ("Sixteen 25/10 GigE SFP28 data interfaces.", 3.125),
    ],
)
def test_gige_is_a_gigabit_ethernet_port_speed(sheet, line, gbs):
    a = sheet(f"# Merlin M3000 security appliance\n\n{line}\n")
    assert values(a, "bandwidth") == [gbs]


@pytest.mark.parametrize(
    "table",
    [
        "| Item | Requirement |\n|---|---|\n| Network | Storage plane: 25 GbE or faster |\n",
        "|名称|要求|\n|--|--|\n|网络|存储面：≥25Gbit/s；参数面：100Gbit/s或200Gbit/s|\n",
        "| Component | Minimum requirements |\n|---|---|\n| NIC | 100 Gb/s |\n",
    ],
)
def test_a_column_of_requirements_holds_no_product_figure(sheet, table):
    a = sheet(f"# Wren cluster scheduler: installation\n\nThe management node must meet these requirements:\n\n{table}")
    assert values(a, "bandwidth") == []


def test_a_column_of_specifications_still_holds_figures(sheet):
    a = sheet("# Wren W2 server\n\n| Item | Specification |\n|---|---|\n| Network | 2 x 25 GbE |\n")
    assert values(a, "bandwidth") == [3.125]


@pytest.mark.parametrize(
    "line",
    [
        "Copper cabling instead of optics lowers the rack's power draw by 20 kW.",
        "Warm-water cooling reduces the facility's chiller power by 15 kW per rack.",
    ],
)
def test_a_power_saving_is_no_power_draw(sheet, line):
    a = sheet(f"# Osprey O72 rack\n\nRack power: 120 kW.\n\n{line}\n")
    assert values(a, "power") == [120.0]


def test_a_saving_of_something_else_leaves_the_power_that_follows(sheet):
    a = sheet("# Tern T9 switch\n\nThe new ASIC cuts latency by 50%, drawing 350 W per switch.\n")
    assert values(a, "power") == [0.35]
