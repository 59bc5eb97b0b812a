"""A figure is reported only when it is a figure of the product the sheet describes: not the speed a standard names,
a slower speed a port falls back to, a module's or a cable's rating, a part's own wattage, a supply's capacity, a
mobile generation or a storage link rate, nor what a future build may bring. Each class in two vendors' wordings
(none is a sentence of a corpus sheet), each with the product's own figure kept beside it."""

import pytest

from test_real_phrasings import values


def rates(audit):
    return values(audit, "bandwidth")


@pytest.mark.parametrize(
    "lines",
    [
        "Ports: 32 x 100GbE QSFP28\n\nStandards:\n\n- IEEE 802.3ae: 10-Gigabit Ethernet\n- IEEE 802.3ba: 40-Gigabit Ethernet",
        "Ports: 32 x 100GbE QSFP28\n\nCompliance: IEEE 802.3by 25 Gb/s Ethernet; IEEE 802.3bj (100 Gb/s backplane)",
    ],
)
def test_a_speed_named_by_a_standard_is_not_the_products(sheet, lines):
    a = sheet(f"# Tern T9 Ethernet switch\n\n{lines}\n")
    assert rates(a) == [12.5]


@pytest.mark.parametrize(
    "line",
    [
        "The 100GbE ports are backward compatible with 40GbE.",
        "100GE 接口向下兼容 40GE",
        "Each 100G port can also be run at lower speeds: 50G, 25G or 10G.",
        "Every 100 Gb/s port auto-negotiates down to 25 Gb/s.",
    ],
)
def test_a_slower_speed_a_port_falls_back_to_is_not_a_figure(sheet, line):
    a = sheet(f"# Tern T9 Ethernet switch\n\n{line}\n")
    assert rates(a) == [12.5]


@pytest.mark.parametrize(
    "line",
    [
        "A single-port 40-Gbps or 4x10-Gbps Ethernet adapter.",
        "One 100GbE port, or 4 x 25GbE in breakout mode.",
        "1 个 400GE 接口，支持分拆为 4 个 100GE 接口",
    ],
)
def test_a_port_split_into_slower_ones_is_one_figure(sheet, line):
    a = sheet(f"# Wren W2 network adapter\n\n{line}\n")
    assert len(rates(a)) == 1


@pytest.mark.parametrize(
    "line",
    [
        "The router supports 100G ZR modules and 400G ZR or 800G ZR+ pluggables on its 800GE ports.",
        "The switch has 32 x 800GE ports and takes 400G-DR4 and 400G FR4 transceivers.",
        "For short links we recommend a 1m 400G passive DAC; each port runs at 800GE.",
    ],
)
def test_a_pluggables_or_cables_rate_is_not_the_products(sheet, line):
    a = sheet(f"# Tern T9 router\n\n{line}\n")
    assert rates(a) == [100.0]


@pytest.mark.parametrize(
    "line",
    [
        "SAS supports 12G/6G/3G/1.5G link rates; SATA supports 6G/3G/1.5G.",
        "Cellular modem: 3G/4G/5G",
        "Use cases: 5G UPF, vBRAS and firewall offload",
        "应用场景：5G 核心网、边缘计算",
    ],
)
def test_storage_link_rates_and_mobile_generations_are_not_port_speeds(sheet, line):
    a = sheet(f"# Wren W2 network adapter\n\nPorts: 2 x 100GbE\n\n{line}\n")
    assert rates(a) == [12.5]


@pytest.mark.parametrize("line", ["Port speed: 5G", "Uplink: one interface at 5G", "端口速率：5G"])
def test_a_bare_5g_that_its_clause_calls_a_ports_speed_is_read(sheet, line):
    a = sheet(f"# Wren W1 access switch\n\n{line}\n")
    assert rates(a) == [0.625]


def test_a_list_of_port_speeds_in_g_is_still_read(sheet):
    a = sheet("# Wren W2 network adapter\n\nSupported speeds: 1G/2.5G/5G/10G\n")
    assert rates(a) == [1.25]


@pytest.mark.parametrize(
    "line",
    [
        "Cooling is modular, so that future enhancements can potentially handle liquid cooling.",
        "A liquid-cooled build is on the roadmap for a future release.",
    ],
)
def test_what_a_future_build_may_bring_is_not_the_products(sheet, line):
    a = sheet(f"# Tern T9 chassis\n\nAir cooled with front-to-back airflow.\n\n{line}\n")
    assert values(a, "cooling") == ["air"]


def test_a_future_speed_the_product_evolves_to_is_not_its_port(sheet):
    a = sheet("# 天鹰 T9 交换机\n\n48 x 100GE 端口，支持 400GE 平滑演进。\n")
    assert rates(a) == [12.5]


@pytest.mark.parametrize(
    "row",
    [
        "| CPU | Intel Xeon Silver 4316 (20C/40T, up to 3.4 GHz, 150W) |",
        "| Processor | AMD Ryzen 9 7950X 170W 4.5GHz |",
        "| CPU | Supports two Xeon Scalable processors (up to 205W TDP) |",
    ],
)
def test_a_host_cpus_own_wattage_in_its_part_description_is_not_a_figure(sheet, row):
    a = sheet(f"# Kite K4 workstation\n\n| Item | Value |\n|---|---|\n{row}\n| Max power | 1600 W |\n")
    assert values(a, "power") == [1.6]


def test_a_cpus_tdp_stated_for_the_build_stays(sheet):
    a = sheet("# Kite K8 server\n\n| Item | Value |\n|---|---|\n| Processors | 2x Xeon-class, 350 W TDP each |\n")
    assert values(a, "power") == [0.35]


@pytest.mark.parametrize("label", ["电源型号", "电源模块"])
def test_a_power_supply_model_row_is_not_consumption(sheet, label):
    a = sheet(f"# 天鹰 T9 交换机\n\n| 项目 | 规格 |\n|---|---|\n| 最大功耗 | 287W |\n| {label} | AC: 600W DC: 350W |\n")
    assert values(a, "power") == [0.287]


@pytest.mark.parametrize(
    "table",
    [
        "| Transceiver latency | Value |\n|---|---|\n| SFP+ SR | Approximately 0.1 microsecond |\n| SFP+ LR | 0 us |\n",
        "| Module | Added latency |\n|---|---|\n| QSFP28 AOC | 80 ns |\n",
    ],
)
def test_a_pluggables_latency_and_a_zero_are_not_the_products(sheet, table):
    a = sheet(f"# Tern T9 Ethernet switch\n\nPort-to-port latency: 450 ns\n\n{table}")
    assert values(a, "latency") == [450.0]


@pytest.mark.parametrize(
    "line, value",
    [
        ("PCIe Gen5 provides 4 gigabyte/second per lane.", 4.0),
        ("Each lane moves 2 gigabytes/second.", 2.0),
    ],
)
def test_a_rate_written_in_words_with_a_slash(sheet, line, value):
    a = sheet(f"# Wren W2 network adapter\n\n{line}\n")
    assert value in rates(a)


@pytest.mark.parametrize("line", ["Hybrid liquid and air cooling", "Liquid/air hybrid cooling"])
def test_hybrid_cooling_names_liquid(sheet, line):
    a = sheet(f"# Tern T9 switch\n\n64 ports of 800GbE.\n\n- {line}\n")
    assert "liquid" in values(a, "cooling")


@pytest.mark.parametrize("line", ["风道方向可以灵活选择", "支持前后风道"])
def test_an_airflow_direction_in_chinese_is_air(sheet, line):
    a = sheet(f"# 天鹰 T9 交换机\n\n48 x 100GE 端口，{line}。\n")
    assert values(a, "cooling") == ["air"]


@pytest.mark.parametrize("cell", ["4*10GE(光口)+2*GE(电口）", "2 x GE （电口）"])
def test_a_counted_gigabit_port_with_its_kind_in_brackets(sheet, cell):
    a = sheet(f"# 天鹰 E5 边缘服务器\n\n| 项目 | 规格 |\n|---|---|\n| 板载网卡 | {cell} |\n")
    assert 0.125 in rates(a)


def test_a_row_of_standards_names_no_port(sheet):
    a = sheet(
        "# Wren W2 network adapter\n\nPorts: 2 x 100GbE\n\n| Item | Value |\n|---|---|\n| Standards | 10-Gigabit Ethernet, 25-Gigabit Ethernet, IEEE 802.1Qbb |\n"
    )
    assert rates(a) == [12.5]


def test_two_counted_configurations_of_links_are_both_figures(sheet):
    a = sheet("# Kite X9 chassis\n\nEach compute node connects by 1x 100 Gbps or 4x 25 Gbps links.\n")
    assert rates(a) == [3.125, 12.5]


@pytest.mark.parametrize(
    "table",
    [
        "| Interface | Maximum port density per slot |\n|---|---|\n| 400GbE with QSFP-DD | 36 |\n| 100GbE with breakout cable | 144 |\n",
        "| 规格 | T9-48 |\n|---|---|\n| 万兆端口数量 | 48 |\n| 千兆电口数量 | 2 |\n",
    ],
)
def test_a_table_counting_ports_by_the_speed_in_its_rows(sheet, table):
    a = sheet(f"# Tern T9 switch\n\n{table}")
    assert len(rates(a)) == 2


@pytest.mark.parametrize(
    "line",
    [
        "The 100G ports support 4x10G/4x25G breakout connectivity to the top-of-rack switch.",
        "Each 400G port takes 4x100G breakout cables with the leaf switches.",
    ],
)
def test_a_counted_speed_named_as_a_breakout_is_not_a_figure(sheet, line):
    a = sheet(f"# Wren W2 network adapter\n\n{line}\n")
    assert len(rates(a)) == 1


@pytest.mark.parametrize(
    "line",
    [
        "bm-gpu-h100-8: 8 × H100 SXM5 NVSwitch, 2 TiB memory",
        "Each node holds eight Nvidia A100 connected by NVLink (40 GB HBM2 each).",
    ],
)
def test_accelerators_counted_by_their_model_name_are_a_domain(sheet, line):
    a = sheet(f"# Kite GPU nodes\n\n{line}\n")
    assert values(a, "domain_size") == [8.0]


def test_a_multiple_of_a_models_performance_is_no_count(sheet):
    a = sheet("# Kite K9 accelerator\n\nDelivers 3x A100 performance on training.\n")
    assert values(a, "domain_size") == []


@pytest.mark.parametrize(
    "line",
    [
        "As many halls can only support a maximum of 60kW racks, a half rack may follow. The rack draws 120 kW.",
        "Most data centres provide up to 15 kW per rack; the rack draws 120 kW.",
    ],
)
def test_what_a_facility_can_feed_is_not_the_products_power(sheet, line):
    a = sheet(f"# Kite R72 rack\n\n{line}\n")
    assert values(a, "power") == [120.0]


@pytest.mark.parametrize(
    "line",
    [
        "200W (GTX 960, 1060): 1 x 6-pin or 1 x 8-pin",
        "300 W: 2 x 8-pin PCIe",
    ],
)
def test_a_wattage_naming_its_connectors_is_a_supply_level(sheet, line):
    a = sheet(f"# Kite eGPU box\n\nPower combinations:\n\n- {line}\n\nThe box draws 650 W at most.\n")
    assert values(a, "power") == [0.65]


@pytest.mark.parametrize(
    "line", ["Up to 2.4M IOPS per HA pair and latency as low as 100µs.", "1M IOPS at 200 µs latency"]
)
def test_a_storage_arrays_latency_beside_its_iops_is_not_the_fabrics(sheet, line):
    a = sheet(f"# Kite AI pod\n\nSwitch latency: 600 ns port-to-port.\n\n{line}\n")
    assert values(a, "latency") == [600.0]


def test_a_list_of_speeds_ending_in_megabits_is_one_figure(sheet):
    a = sheet("# Kite F3 firewall\n\nSixteen 10G/5G/2.5G/1G/100M BASE-T RJ45 ports.\n")
    assert rates(a) == [1.25]


@pytest.mark.parametrize("line", ["每台4张HDR网卡", "two HDR HCAs per node, InfiniBand fabric"])
def test_an_infiniband_generation_named_beside_its_nics(sheet, line):
    a = sheet(f"# 天河 AI 集群\n\n{line}\n")
    assert rates(a) == [25.0]


def test_a_table_row_broken_after_its_label(sheet):
    a = sheet(
        "Model | Q1 245 TB | Q1 92 TB |\n---|---|---|\nMaximum Power Consumption |\n605 W | 470 W |\n"
        "Idle Power Consumption | 315 W | 245 W |\n",
        name="quiver.md",
    )
    assert values(a, "power") == [0.245, 0.315, 0.47, 0.605]


def test_a_count_of_boxes_named_by_their_model_is_no_domain(sheet):
    a = sheet("# Kite cluster\n\nThe system holds 2 login nodes and 15 H100 nodes in 10 racks.\n")
    assert values(a, "domain_size") == []


@pytest.mark.parametrize(
    "line", ["Supports a maximum data throughput of 1.6 TB ingress and 1.6 TB egress.", "Max 2800GB HDR"]
)
def test_bytes_written_for_a_rate_beside_a_network_word_are_bits(sheet, line):
    a = sheet(f"# Kite LC16 line card\n\n{line}\n")
    assert rates(a) in ([200.0], [350.0])


@pytest.mark.parametrize("row", ["| CPU power | 350 W |", "| Grace CPU Superchip | 500 W TDP |"])
def test_a_cpus_power_named_in_its_row_stays(sheet, row):
    a = sheet(f"# Kite C2 CPU server\n\n| Item | Value |\n|---|---|\n{row}\n| Memory | 480 GB |\n")
    assert len(values(a, "power")) == 1


def test_fibre_channel_speeds_in_g_are_still_read(sheet):
    a = sheet("# Kite FI-64 fabric interconnect\n\nEthernet ports: 36 x 100GbE\n\nSAN ports: 8G/16G/32G FC\n")
    assert 4.0 in rates(a)


def test_a_page_counting_accelerators_by_their_model_is_laid_out():
    from sheetaudit.stages.s2_triage import may_hold_figures

    assert may_hold_figures("Each bare-metal server holds 8 × H100 SXM5 joined by NVSwitch.")
