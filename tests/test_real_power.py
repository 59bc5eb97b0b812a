"""Power as real vendor documents print it (issue 27, item 3), each in our own words and in at least two vendors'
styles: what is not a consumption (supply ratings, pluggables, efficiencies, a monitoring tool's readings), what is
one although glued or conditioned, and whose consumption a figure is."""

import pytest

from conftest import figure


def kw(audit):
    return sorted(f.normalized["value"] for f in audit.figures if f.quantity == "power")


# --- supply capacity is not consumption -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a server's PSU options by efficiency grade, as a spec-table cell
        "# Osprey R2 rack server\n\n| Item | Specification |\n|---|---|\n| Form factor | 2RU rack server |\n"
        "| Power | Hot-plug options: ● Platinum: 1100W DC and 1500W AC ● Titanium: 1300W AC and 2400W AC |\n",
        # a PSU's output by input voltage, in a table row and in a list
        "# Heron H4 GPU server\n\nPower: 2600 W @200-240 VAC Nominal, 1300 W @100-127 VAC Nominal\n",
        "# Heron H4 GPU server\n\nTotal Output Power: 1100W / 100-127Vac / 50-60Hz 1900W / 200-220Vac / 50-60Hz\n",
        # power modules in a router's inventory and a PSU rated to draw, and the wall circuit
        "# Jasper J9 server\n\nPSM 0 REV 01 AC AFO 2400W PSM\n\nThe modules available are 2,400W AC (240V) options.\n",
        "# Jasper J9 workstation server\n\nThe power supply is rated to draw up to 1700W of power. A standard 15A "
        "circuit can handle up to 1800W.\n",
        "# 玄武 X8 服务器\n\n电源：2个 2000W 钛金电源\n",
    ],
)
def test_supply_capacity_is_not_consumption_and_a_system_sheet_without_one_misses_it(sheet, text):
    a = sheet(text)
    assert kw(a) == []
    assert any(f.check == "power.missing" for f in a.findings)


@pytest.mark.parametrize(
    "text, want",
    [
        # "operating" holds "rating": an operating power is a draw
        (
            "# Corax FI-32 fabric interconnect switch\n\nTypical operating power: 230W\n\nMaximum power: 640W\n",
            [0.23, 0.64],
        ),
        (
            "# Corax FI-32 fabric interconnect switch\n\n| Property | FI-32 |\n|---|---|\n"
            "| Typical operating power | 410W with 32 ports running 100% |\n| Maximum output power | 950W |\n",
            [0.41],
        ),
    ],
)
def test_an_operating_power_is_a_draw(sheet, text, want):
    assert kw(sheet(text)) == want


# --- pluggables, efficiencies and readings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, want",
    [
        (
            "# Ardent A16 line card\n\nPower requirement: Approximately 420 W at 40°C, with 16x100GbE ports with each "
            "transceiver at 4.5 W each.\n",
            [0.42],
        ),
        (
            "# Tanager T64 Ethernet switch\n\nMaximum power: 2,500 W (with 64 x 800G OSFP optics, up to 16 W each)\n",
            [2.5],
        ),
        # a cabling table flattened into one line: the power cell follows the cable's reach
        (
            "# Corax FI-32 fabric interconnect switch\n\nConnector (Media) | Cable | Distance | Power (Each Side) ---|---|---|"
            "--- SFP+ SR | MM OM3 | 300m | 1W SFP+ LR | SMF | 10 km | 1.5W SFP+ ER | SMF | 40 km | 2W\n",
            [],
        ),
        ("# Tern Q72 switch\n\nMaximum power assumes all 72 cages populated with 30 W optics.\n", []),
        # an efficiency is not a draw
        ("# Ardent A16 router\n\nThe ASIC consumes as little as 0.06 W per Gbps.\n", []),
        ("# Ardent A16 router\n\nEfficiency: 0.3 W/Gbps at full load.\n", []),
    ],
)
def test_pluggables_and_efficiencies_are_not_the_products_draw(sheet, text, want):
    assert kw(sheet(text)) == want


@pytest.mark.parametrize(
    "text",
    [
        "# Kunlun K8 server test report\n\n监控项示例：\n\n```\n36C 72W 0MiB 32768MiB 0% 41C 118W 28653MiB 32768MiB 94%\n```\n",
        "# Apex A8 server test report\n\nSample output:\n\n N/A 34C P0 61W / 700W | 0MiB / 81559MiB | 0% Default\n",
    ],
)
def test_a_monitoring_tools_readings_are_not_the_products_power(sheet, text):
    assert kw(sheet(text)) == []


# --- glued and conditioned figures are consumption ----------------------------------------------------------------


def test_a_wattage_glued_to_its_condition_or_to_the_previous_sentence(sheet):
    a = sheet(
        "# Ardent PTX-60 router\n\n| Feature | Details |\n|---|---|\n| Power Consumption | 715Wfor 15% Traffic "
        "Load for 25C, w/o optics.1220Wfor 100% Traffic Load for 40C, w/o optics. |\n"
    )
    assert kw(a) == [0.715, 1.22]
    assert {f.scope for f in a.figures if f.quantity == "power"} == {"per-switch"}
    b = sheet("# Aster A2 switch\n\nPower: 350Wmax, 210Wtyp at 25C\n")
    assert kw(b) == [0.21, 0.35]


@pytest.mark.parametrize(
    "text, want",
    [
        (
            "# Ardent PTX-60 router\n\nEach fan tray operates with a power consumption ranging from 85W to 140W.\n",
            "85W to 140W",
        ),
        (
            "# Ardent PTX-60 router\n\nA fan module draws between 60 W and 95 W depending on inlet temperature.\n",
            "60 W and 95 W",
        ),
    ],
)
def test_a_range_with_its_unit_twice_is_one_figure_its_top(sheet, text, want):
    a = sheet(text)
    f = figure(a, want, quantity="power")
    assert len(kw(a)) == 1 and f.normalized["value"] == max(kw(a))
    assert f.scope == "per-device"  # a fan tray's, not the router's


# --- scope in words wins over the sheet kind's convention ---------------------------------------------------------


@pytest.mark.parametrize(
    "text, want",
    [
        # a flattened table: the 800W's own words are its row label, not the page's other rows
        (
            "# Corax FI-64 fabric interconnect\n\nFeature | Corax FI-64 ---|--- Ports | 64 x 100-Gbps ports, 2 adapter slots "
            "Power supplies (up to 2) | 1200W (AC) Typical operating power | 360W Maximum power (AC) | 820W Fans | 6\n",
            {"360W": "per-switch", "820W": "per-switch"},
        ),
        # a line card's hardware page: its power is the card's, whatever the router
        (
            "# Ardent A16 router\n\n## A16 line card (FRU)\n\nPower requirement:\n\nApproximately 420 W at 40°C.\n",
            {"Approximately 420 W": "per-device"},
        ),
        (
            "# Ardent A16 router\n\nEach fan tray operates with a power consumption of up to 150W.\n",
            {"up to 150W": "per-device"},
        ),
        # a node's power with its accelerators named in brackets, and its lead-in printed apart (a definition list)
        (
            "<html><body><h1>Heron H8 GPU server</h1><dl><dt>System power</dt><dd>12.1 kW max (full load, eight GPUs at "
            "rated TGP); 10.4 kW typical during training</dd></dl></body></html>",
            {"12.1 kW": "per-node", "10.4 kW": "per-node"},
        ),
        # each accelerator at its wattage, in a server's sheet
        (
            "# Osprey R2 rack server\n\n| Item | Specification |\n|---|---|\n| GPU | ● Up to eight single-wide GPUs ● NVIDIA "
            "L40S GPUs supported (up to three L40S at 350W Max power) |\n| System power | 2.4 kW max |\n",
            {"350W": "per-accelerator", "2.4 kW": "per-node"},
        ),
        (
            "# Heron H4 GPU server\n\nAccelerators: 4 OAM modules at 750 W each, joined by a fully connected mesh.\n\n"
            "Node power: 4.2 kW.\n",
            {"750 W": "per-accelerator", "4.2 kW": "per-node"},
        ),
        # a sentence a line break split: the rack holds the nodes the figure sums
        (
            "# Vanta pod\n\nEach node draws up to 11 kW; a standard rack holds\nfour nodes (44 kW), air-cooled.\n",
            {"up to 11 kW": "per-node", "44 kW": "per-rack"},
        ),
    ],
)
def test_scope_in_the_figures_own_words(sheet, text, want):
    a = sheet(text, name="sheet.html" if text.startswith("<html") else "sheet.md")
    got = {f.text: f.scope for f in a.figures if f.quantity == "power"}
    assert got == want


@pytest.mark.parametrize(
    "text, want",
    [
        (
            "# Helix DPU card\n\n| 接入环境 | 设备配置 | 机架空间 | 总功耗 |\n|--|--|--|--|\n"
            "| 1.2Tbps | 20*2U服务器 | 40U，2个42U标准机柜 | 7600W |\n| 1.2Tbps | 3*4U服务器，20*智能网卡 | 14U | 3100W |\n",
            {"7600W": "per-cluster", "3100W": "per-cluster"},
        ),
        (
            "# Helix H2 DPU adapter\n\nA build-out of sixteen servers in two racks draws 9200 W in all, against 31 kW per rack "
            "for the CPU-only design.\n",
            {"9200 W": "per-cluster", "31 kW": "per-rack"},
        ),
        (
            "# Helix H2 DPU adapter\n\n| | 2U机架式服务器 | Helix 智能网卡 |\n|---|---|---|\n| 功耗 | 360W | 55W |\n",
            {"360W": "per-node", "55W": "per-device"},
        ),
    ],
)
def test_a_sum_over_a_group_of_systems_is_the_clusters(sheet, text, want):
    a = sheet(text)
    assert {f.text: f.scope for f in a.figures if f.quantity == "power"} == want


def test_explicit_per_rack_beats_a_count_of_racks_and_a_thermal_design_cell_is_a_draw(sheet):
    a = sheet(
        "# Orion O8 GPU server\n\nThe O8 holds 8 GPUs. Power: 700 W for each GPU, 10.2 kW per node, 5.1 kW per "
        "chassis.\n\nA build-out in two racks at 31 kW per rack; the whole cluster of sixteen nodes draws 160 kW.\n"
        "\n| Model | O8-S | O8-N |\n|---|---|---|\n| Max Thermal Design | Up to 700W | 350-400W (configurable) |\n"
    )
    got = {f.text: f.scope for f in a.figures if f.quantity == "power"}
    assert got == {
        "700 W": "per-accelerator",
        "10.2 kW": "per-node",
        "5.1 kW": "per-node",
        "31 kW": "per-rack",
        "160 kW": "per-cluster",
        "Up to 700W": "per-accelerator",
        "350-400W": "per-accelerator",
    }


@pytest.mark.parametrize(
    "text",
    [
        "# Nimbus N2 accelerator cards\n\n| Spec | Nimbus N2 card |\n|---|---|\n| Total Board Power | 450W |\n\n"
        "## Power and Operating Conditions\n\n| Topic | Specification |\n|---|---|\n| Peak Power Consumption | 1.2kW |\n",
        "# Vireo V4 chips\n\nEach V4 chip: TGP 300 W.\n\nThe desk-side box has demonstrated drawing 900W of power under load.\n",
    ],
)
def test_on_an_accelerators_sheet_a_wattage_twice_the_accelerators_is_the_systems(sheet, text):
    a = sheet(text)
    scopes = sorted((f.normalized["value"], f.scope) for f in a.figures if f.quantity == "power")
    assert scopes[0][1] == "per-accelerator" and scopes[-1][1] == "per-node"


@pytest.mark.parametrize(
    "text, want",
    [
        ("# Falcon F8 GPU server\n\nEach PSU provides 3,000 W; the system draws 7,400 W typical.\n", [7.4]),
        (
            "# Falcon F8 GPU server\n\n| Item | Specification |\n|---|---|\n| Standby power | 15 W |\n| System power | 9.8 kW |\n",
            [9.8],
        ),
        ("# Ardent A16 router\n\nFan power: 45 W idle, 220 W max per fan tray.\n", [0.22]),
        (
            "# Lumen L4 SuperNIC adapter\n\nPower: 24 W typical; the adapter draws 9 W idle and 2 W in stand-by.\n",
            [0.024],
        ),
        # a system's idle power, as a test report prints it, is a figure
        (
            "# 青云 Q8 服务器测试报告\n\n| 项目 | 结果 |\n|---|---|\n| 整机功耗（空闲） | 1.95 kW |\n| 整机功耗（满载） | 7.46 kW |\n",
            [1.95, 7.46],
        ),
    ],
)
def test_supply_standby_and_a_components_idle_wattage_are_not_consumption(sheet, text, want):
    assert kw(sheet(text)) == want


@pytest.mark.parametrize(
    "text, want",
    [
        (
            "# 天衡 TH-SP256 超节点\n\n| 项目 | 规格 |\n|---|---|\n| 计算柜功耗 | ≤ 45 kW / 柜 |\n| 总线柜功耗 | ≤ 16 kW / 柜 |\n"
            "| 整系统功耗 / System power | 约 420 kW |\n",
            {"≤ 45 kW": "per-rack", "≤ 16 kW": "per-rack", "约 420 kW": "per-domain"},
        ),
        (
            "# Strato S9 AI pod\n\n| Item | Value |\n|---|---|\n| Rack power | 60 kW |\n| System power | 960 kW |\n",
            {"60 kW": "per-rack", "960 kW": "per-cluster"},
        ),
    ],
)
def test_a_system_power_above_every_racks_is_the_whole_supernodes_or_pods(sheet, text, want):
    assert {f.text: f.scope for f in sheet(text).figures if f.quantity == "power"} == want
