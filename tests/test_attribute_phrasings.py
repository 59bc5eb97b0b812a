"""Tier, scope and latency basis on sheets nobody tuned for, each case in our own words and in at least two vendors'
styles: what the product is for decides what its ports carry, a scope stated in words beats a convention, a latency's
basis is read in its own sentence, and a chip's links to its accelerators' fabric are scale-up even over PCIe."""

import pytest


def one(audit, quantity, text):
    """The figure of this quantity whose printed text contains TEXT (the first, where a sheet prints it twice)."""
    found = [f for f in audit.figures if f.quantity == quantity and text in f.text]
    assert found, [(f.quantity, f.text, f.tier, f.scope) for f in audit.figures]
    return found[0]


def tiers(audit, quantity="bandwidth"):
    return {f.tier for f in audit.figures if f.quantity == quantity}


# -- the sheet's network role: what the product is for -------------------------------------------------------------

EDGE_ROUTER = (
    "# Brant BR-9 Routing Platform\n\nThe BR-9 is a 2RU router for metro aggregation, peering and the service "
    "provider edge.\n\nIt offers 24x 400GE and 36x 100GE ports and 9.6 Tbps of forwarding capacity.\n"
)
CORE_ROUTER_TABLE = (
    "# Halden H7 core router\n\n| Item | Value |\n|---|---|\n| Deployment | WAN core, DCI, internet exchange |\n"
    "| Interfaces | 32 x 800GbE |\n| Throughput | 25.6 Tbps |\n"
)
ROUTER_FAMILY = (
    "Help us improve this page.\n\nACX7509 line module (FRU)\n\n  • Supports 16 ports for 400G Ethernet.\n\n"
    "  • Approximately 410 W at 40°C.\n"
)


@pytest.mark.parametrize("text", [EDGE_ROUTER, CORE_ROUTER_TABLE, ROUTER_FAMILY])
def test_a_routers_ports_serve_the_general_network(sheet, text):
    assert tiers(sheet(text)) == {"front-end"}


UNIFIED_CHASSIS = (
    "# Corvo C9 server chassis\n\nThe C9 holds eight compute nodes and joins them to the enterprise LAN "
    "through a unified fabric.\n\nCompute nodes: up to 8 servers, 2 CPUs each.\n\n"
    "● 100 Gbps of connectivity per compute node\n● 8x 100-Gbps QSFP28 uplinks\n"
)
FI_MODULE_SPEC = (
    "# Corvo X Direct\n\nCorvo X Direct brings the fabric interconnect into the server chassis for edge "
    "sites.\n\n| Specification | Value |\n|---|---|\n| Server data path | 1.6 Tbps for 8 compute nodes "
    "(4x 25 Gbps per compute node) |\n| Uplinks | Up to 8x 100 Gbps |\n"
)


@pytest.mark.parametrize("text", [UNIFIED_CHASSIS, FI_MODULE_SPEC])
def test_a_chassis_or_module_on_a_unified_fabric_serves_the_front_end(sheet, text):
    assert tiers(sheet(text)) == {"front-end"}


NFV_CARD_ZH = (
    "# 星河 X2 智能网卡概览\n星河智能网卡采用 DPU 架构，为云数据中心卸载虚拟网络功能（NFV，如 vFW）和接入网关。\n\n"
    "| 产品 | 处理性能 | 转发时延 | 功耗 |\n|---|---|---|---|\n| 星河 X2 | 60Gbps | 100us | 60W |\n\n"
    "- 4*SFP28 接口，支持 25GE\n"
)
NFV_CARD_EN = (
    "# Skerry S4 SmartNIC\n\nThe S4 offloads virtual firewalls (vFW), load balancers and OVS from the server "
    "for telco and cloud gateways.\n\nForwarding latency: 80us. Ports: 2x 100GbE QSFP28.\n"
)


@pytest.mark.parametrize("text", [NFV_CARD_ZH, NFV_CARD_EN])
def test_a_smartnic_for_network_functions_is_front_end_and_its_forwarding_latency_has_no_basis(sheet, text):
    a = sheet(text)
    assert tiers(a) == {"front-end"} and tiers(a, "latency") == {"front-end"}
    assert {f.basis for f in a.figures if f.quantity == "latency"} == {"unspecified"}


@pytest.mark.parametrize(
    "text",
    [
        "# 网络分流器产品介绍\n\n汇聚、复制并分发流量给安全与监控设备。\n\n| 100GE端口数量 | 32 |\n\n32 x 100GE 端口\n",
        "# Tarn T3 network packet broker\n\nAggregates and filters traffic for monitoring tools.\n\nPorts: 48 x 25GbE, 8 x 100GbE\n",
    ],
)
def test_a_packet_brokers_ports_are_front_end(sheet, text):
    assert tiers(sheet(text)) == {"front-end"}


@pytest.mark.parametrize("word", ["processors", "resources", "sources"])
def test_a_word_containing_roce_is_no_rdma(sheet, word):
    a = sheet(
        f"# Corvo V4 virtual interface card\n\nThe V4 joins blade servers to the LAN and the SAN (FCoE) with {word} "
        f"for every {word} of the enterprise; also {word} and {word} and {word}.\n\nPorts: 2x 100GbE\n"
    )
    assert tiers(a) == {"front-end"}


def test_an_ai_fabric_router_that_also_serves_the_wan_is_weighed_on_the_whole_sheet(sheet):
    a = sheet(
        "# Brant BR-8\n\nA router for AI data-center spines and the WAN.\n\nBuilt for GPU training clusters with "
        "RoCEv2; the leaf and spine of an AI back-end fabric.\n\nPorts: 36 x 800GbE\n"
    )
    assert tiers(a) == {"scale-out"}


def test_a_fabric_interconnects_latency_is_the_front_ends(sheet):
    a = sheet(
        "# Corvo FI-64 fabric interconnect\n\nUnified fabric for LAN and SAN: Ethernet, FCoE and Fibre Channel on "
        "the same ports.\n\nLatency is less than 1 microsecond.\n\nPorts: 36 x 100GbE\n"
    )
    assert one(a, "latency", "1 microsecond").tier == "front-end"


# -- scope stated in words wins over a convention ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, printed, scope",
    [
        ("# Corvo FI-32 fabric interconnect\n\nEnough for 320 Gbps of bandwidth per chassis.\n", "320", "unspecified"),
        (
            "# Corvo FI-32 fabric interconnect\n\n| Chassis uplink | 1600Gbps bandwidth per X9 chassis |\n",
            "1600",
            "unspecified",
        ),
        ("# Corvo X9 system\n\n| Server data path | 1.6 Tbps for 8 compute nodes |\n", "1.6", "unspecified"),
        ("# Corvo X9 system\n\nThe system moves 1.6 Tbps across 8 compute nodes.\n", "1.6", "unspecified"),
        ("# Corvo FI-32 fabric interconnect\n\nUp to 14.84 Tbps per unified fabric domain.\n", "14.84", "per-domain"),
        ("# Corvo FI-32 fabric interconnect\n\n| Switching | 7.42 Tbps per FI |\n", "7.42", "per-switch"),
        ("# Corvo X9 system\n\n200G aggregate bandwidth per X2 compute node\n", "200G", "per-node"),
    ],
)
def test_a_scope_said_in_words_beats_the_convention(sheet, text, printed, scope):
    assert one(sheet(text), "bandwidth", printed).scope == scope


@pytest.mark.parametrize(
    "line",
    [
        "Server data path: 1x 100 Gbps or 4x 25 Gbps per compute node, for a total of 200 Gbps per compute node",
        "Each blade: 4x 25 Gbps per compute node (for a total of 200 Gbps per compute node with two modules)",
    ],
)
def test_counted_links_per_node_are_per_link_and_their_total_per_node(sheet, line):
    a = sheet(f"# Corvo X9 system\n\n{line}\n")
    assert one(a, "bandwidth", "25").scope == "per-link"
    assert one(a, "bandwidth", "200").scope == "per-node"


@pytest.mark.parametrize(
    "text, printed, scope",
    [
        ("# Hale H5 switch\n\nHale H5 is our next-generation 800GB/s ethernet switch.\n", "800", "per-switch"),
        (
            "# Hale R2 router line card\n\nIt has one ASIC with two slices of 800 Gbps Packet Forwarding Engines.\n",
            "800",
            "per-device",
        ),
        ("# Hale R2 router line card\n\nThe X-chiplet offers 14.4Tbps of WAN capacity.\n", "14.4", "per-device"),
        (
            "# Hale R2 router line card\n\nA 7.2Tbps datapath can receive and transmit 7.2Tbps at once.\n",
            "7.2",
            "per-device",
        ),
    ],
)
def test_a_rate_printed_as_what_a_device_is_is_the_devices(sheet, text, printed, scope):
    assert one(sheet(text), "bandwidth", printed).scope == scope


def test_a_fibre_channel_switchs_port_speeds_stay_ports(sheet):
    a = sheet(
        "# Corvo FI-32 fabric interconnect\n\nA 10/40-Gbps Ethernet, FCoE, and native 4-, 8, and 16-Gbps Fibre "
        "Channel switch offering 2.56 Tbps.\n"
    )
    assert one(a, "bandwidth", "16").scope == "per-port"


@pytest.mark.parametrize(
    "text, printed",
    [
        (
            "# Hale H6 switch chip\n\nIt powers AI fabrics with support for 100G/200G SerDes and co-packaged optics.\n",
            "100G",
        ),
        ("# 星河 N4 网卡\n\n| 接口技术 | NRZ (10G, 25G)、PAM4 (50G, 100G) |\n", "100G"),
        ("# Hale R2 router line card\n\n| Fabric (internal) links | 160x 112Gbps |\n", "112"),
        (
            "# Hale R2 router line card\n\nEach port group terminates 8x SerDes operated at speeds from 10Gbps to 106Gbps.\n",
            "106",
        ),
    ],
)
def test_a_serdes_lanes_rate_is_per_lane_signalling(sheet, text, printed):
    f = one(sheet(text), "bandwidth", printed)
    assert f.scope == "per-lane" and "signaling" in f.flags


def test_a_terabit_figure_of_serdes_is_no_lane(sheet):
    a = sheet("# Hale R2 router line card\n\nThe X-chiplet offers 14.4Tbps of WAN SerDes.\n")
    assert one(a, "bandwidth", "14.4").scope != "per-lane"


@pytest.mark.parametrize("line", ["| 总带宽 | 最高 400Gb/s |", "Total bandwidth: up to 400Gb/s"])
def test_an_adapters_total_is_the_devices(sheet, line):
    a = sheet(f"# Skerry N5 NIC\n\nDual-port 200G RDMA adapter for GPU clusters.\n\n{line}\n")
    assert one(a, "bandwidth", "400").scope == "per-device"


@pytest.mark.parametrize(
    "text, scope",
    [
        (
            "# Kite K3 chip\n\nEach K3 chip provides four PCIe Gen6 x8 links to the server switch, delivering a total of "
            "256 GB/s of bidirectional bandwidth between chips within the same server.\n",
            "per-accelerator",
        ),
        ("# Kite K3 rack\n\nThe rack's fabric delivers 1.8 TB/s per GPU, a total of 130 TB/s.\n", "per-domain"),
    ],
)
def test_a_total_of_is_whose_its_sentence_says(sheet, text, scope):
    a = sheet(text)
    total = [f for f in a.figures if f.quantity == "bandwidth" and f.text.startswith(("256", "130"))]
    assert [f.scope for f in total] == [scope]


@pytest.mark.parametrize(
    "text",
    [
        ".. list-table::\n   :header-rows: 1\n\n   * -\n     - Kite K1 UltraServer\n     - Kite K2 UltraServer\n"
        "   * - Network bandwidth (Gbps)\n     - 12,800\n     - 28,800\n",
        "| | Kite K1 UltraServer | Kite K2 UltraServer |\n|---|---|---|\n| EFA bandwidth (Gbps) | 12,800 | 28,800 |\n",
    ],
)
def test_a_network_rate_no_port_runs_at_is_the_products_sum(sheet, text):
    a = sheet(f"# Kite UltraServer\n\nKite UltraServers join 64 chips into one scale-up domain.\n\n{text}")
    assert one(a, "bandwidth", "12,800").scope == "per-domain"


# -- latency basis: in the figure's own words ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "| Low-latency connectivity | Supports usNIC technology, delivering latency as low as 1 microsecond in back-to-back "
        "connections; standard latency through the switches in approximately 2 microseconds |",
        "| Latency | 1.5 us with two adapters connected back-to-back |",
    ],
)
def test_a_latency_between_two_hosts_is_end_to_end(sheet, line):
    a = sheet(f"# Corvo V5 adapter\n\n| Feature | Detail |\n|---|---|\n{line}\n")
    assert {f.basis for f in a.figures if f.quantity == "latency"} == {"end-to-end"}


@pytest.mark.parametrize(
    "text",
    [
        "# 星河 N4 网卡\n\n网卡支持 2x200G 网络接口，时延<10us；支持高性能 RDMA，提升网络端到端可靠性。\n",
        "# Skerry N5 NIC\n\nDual 200G ports with latency under 10 us. It also supports RDMA for end-to-end reliability.\n",
    ],
)
def test_a_latency_takes_no_basis_from_another_sentence(sheet, text):
    a = sheet(text)
    assert {f.basis for f in a.figures if f.quantity == "latency"} == {"unspecified"}


@pytest.mark.parametrize(
    "text",
    [
        "# 汉河 HS9 交换机\n\n| 转发时延 | 600ns |\n| 端口 | 64 x 400GE |\n",
        "# Tern T9 Ethernet switch\n\nForwarding latency: 600 ns. Ports: 64 x 400GbE.\n",
    ],
)
def test_a_switchs_forwarding_latency_is_its_chips(sheet, text):
    assert {f.basis for f in sheet(text).figures if f.quantity == "latency"} == {"hardware"}


# -- the tier of a chip's links -----------------------------------------------------------------------------------

PCIE_FABRIC = (
    "# Kite K3 UltraServer\n\nKite UltraServers use a PCIe switch-based interconnect for all chip-to-chip "
    "communication.\n\nEach K3 chip provides five PCIe Gen6 x8 links to the inter-server switch, delivering "
    "320 GB/s of bidirectional bandwidth per chip for cross-server communication.\n\n"
    "Host interface: PCIe Gen5 x16 to the host CPU, 64 GB/s per chip.\n"
)
PCIE_FABRIC_TABLE = (
    "# Kite K3 UltraServer\n\nAccelerators talk over PCIe switches: chip-to-chip traffic never crosses "
    "the host.\n\n| Level | Bandwidth per chip | Links |\n|---|---|---|\n"
    "| Inter-server | 320 GB/s | 5 x PCIe Gen6 x8 via the inter-server switch |\n"
    "| Host | 64 GB/s | PCIe Gen5 x16 to the host CPU |\n"
)


@pytest.mark.parametrize("text", [PCIE_FABRIC, PCIE_FABRIC_TABLE])
def test_a_chips_links_to_a_pcie_chip_fabric_are_scale_up_and_its_host_link_host(sheet, text):
    a = sheet(text)
    assert one(a, "bandwidth", "320").tier == "scale-up"
    assert one(a, "bandwidth", "64").tier == "host"


def test_rdma_between_accelerators_of_different_nodes_stays_scale_out(sheet):
    a = sheet(
        "# Vire V8 SuperNIC\n\nThe V8 moves RDMA traffic between accelerators at up to 800 gigabits per second.\n"
    )
    assert one(a, "bandwidth", "800").tier == "scale-out"


def test_pcie_links_on_a_sheet_without_a_chip_fabric_stay_host(sheet):
    a = sheet("# Kite K2 card\n\nEach K2 card has one PCIe Gen5 x16 link, 64 GB/s per chip.\n")
    assert one(a, "bandwidth", "64").tier == "host"


@pytest.mark.parametrize(
    "line",
    [
        "delivering 256 GB/s of bandwidth between chips within the same server over PCIe",
        "PCIe Gen6 between the accelerators in one server: 256 GB/s",
    ],
)
def test_a_bandwidth_between_chips_is_scale_up(sheet, line):
    assert one(sheet(f"# Kite K3 server\n\n{line}\n"), "bandwidth", "256").tier == "scale-up"


@pytest.mark.parametrize(
    "text",
    [
        ".. list-table::\n   :header-rows: 2\n   :stub-columns: 1\n\n   * -\n     - Kite K1 UltraServer\n     - Kite K2 UltraServer\n"
        "   * - Configuration\n     -\n     -\n   * - Device Memory Bandwidth (TB/sec)\n     - 313.6\n     - 705.6\n",
        "| | Kite K1 UltraServer | Kite K2 UltraServer |\n|---|---|---|\n| **Memory** | | |\n| Device Memory Bandwidth (TB/sec) | 313.6 | 705.6 |\n",
    ],
)
def test_memory_bandwidth_in_a_model_grid_is_memory(sheet, text):
    a = sheet(f"# Kite UltraServer\n\n{text}")
    assert one(a, "bandwidth", "313.6").tier == "memory"


@pytest.mark.parametrize(
    "table",
    [
        "| Key specification | Value |\n|---|---|\n| Pod size | 256 chips |\n| Interconnect topology | 2D torus |\n"
        "| ICI bandwidth per chip | 400 GBps |\n| All-reduce bandwidth per Pod | 51.2 TB/s |\n",
        "Pod size: 256 chips\nInterconnect: ICI in a 2D torus\nBisection bandwidth per pod: 1.6 TB/s\n",
    ],
)
def test_a_pods_sum_is_its_chip_fabrics_when_the_pod_is_one_torus(sheet, table):
    a = sheet(f"# Kite TPU v9\n\n{table}")
    [f] = [f for f in a.figures if f.quantity == "bandwidth" and "TB/s" in f.text]
    assert f.tier == "scale-up" and f.scope == "per-domain"


@pytest.mark.parametrize(
    "line",
    [
        "Therefore, the UltraServer integrates a total of 64 K3 devices into a single scale-up domain.",
        "In total 64 K3 chips form one scale-up domain.",
    ],
)
def test_a_total_named_a_scale_up_domain_is_scale_up(sheet, line):
    a = sheet(f"# Kite K3 UltraServer\n\n{line}\n")
    assert one(a, "domain_size", "64").tier == "scale-up"


@pytest.mark.parametrize(
    "text, printed",
    [
        ("# Tern T8 switch\n\n64 ports of 800GbE. Additional 25GbE - 1GbE service port on the front panel.\n", "25GbE"),
        ("# Wren W4 workstation\n\n| Connectivity | Gigabit LAN 10/100/1000 Mb/s Base T |\n", "10/100/1000"),
        ("# 算芯 S7 芯片\n\n| 高速接口 | PCIe Gen3 X16 EP; 2x10/100/1000Mbps RGMII |\n", "10/100/1000"),
    ],
)
def test_service_lan_and_mac_ports_are_front_end_ports(sheet, text, printed):
    f = one(sheet(text), "bandwidth", printed)
    assert (f.tier, f.scope) == ("front-end", "per-port")


@pytest.mark.parametrize(
    "text",
    [
        "# 芯网 M4 模块\n\n| AI网络 | 4 x 50GE(PFC/Normal) |\n",
        "# Kite M4 compute module\n\n| AI network | 4 x 50GbE RoCE |\n",
    ],
)
def test_a_row_named_the_ai_network_is_scale_out_however_slow(sheet, text):
    assert tiers(sheet(text)) == {"scale-out"}


@pytest.mark.parametrize(
    "line",
    [
        "| Tensix Processor Connectivity | 2x QSFP-DD Active 200G; Connects to other Tensix Processors only. |",
        "| Card links | 4x QSFP-DD 400G, connecting to other Kite accelerators only |",
    ],
)
def test_ports_that_join_only_the_accelerators_are_scale_up(sheet, line):
    a = sheet(f"# Wren W4 workstation\n\n| Item | Value |\n|---|---|\n{line}\n")
    assert tiers(a) == {"scale-up"}


@pytest.mark.parametrize(
    "row",
    [
        "| Leaf switching | 2x 64-port 800GbE switches, 51.2 Tb/s each |",
        "| Switches | 12x 64-port 400GbE switches (25.6 Tb/s each) |",
    ],
)
def test_a_switchs_capacity_on_a_racks_sheet_is_the_switchs(sheet, row):
    a = sheet(f"# Halde H4 AI rack\n\nA rack of four 8-GPU nodes.\n\n| Item | Value |\n|---|---|\n{row}\n")
    assert one(a, "bandwidth", "Tb/s").scope == "per-switch"
    assert not [x for x in a.findings if x.check == "bandwidth.aggregate-mismatch"]


def test_a_line_cards_capacity_counts_its_own_ports(sheet):
    a = sheet(
        "# Corvo 7816 chassis switch\n\nSwitching capacity — 921.6 Tbps\n\nLine card:\n\n  Ports — 36 x 800GbE OSFP\n"
        "  Capacity — 28.8 Tbps per line card\n"
    )
    assert one(a, "bandwidth", "28.8").scope == "per-device"
    assert not [x for x in a.findings if x.check == "bandwidth.aggregate-mismatch"]


@pytest.mark.parametrize(
    "line",
    ["| Fabric (Internal) Links | 160x 112Gbps |", "| Midplane | Internal links to the fabric cards: 160x 112Gbps |"],
)
def test_a_chassis_internal_fabric_links_are_no_network_tier(sheet, line):
    a = sheet(f"# Hale R2 router line card\n\n| Metric | Value |\n|---|---|\n{line}\n")
    f = one(a, "bandwidth", "112")
    assert (f.tier, f.scope) == ("unknown", "per-lane")


# -- a data-centre switch serves the fabric, whatever campus or WAN use it also names ---------------------------------

DC_SWITCH_ZH = (
    "# 青岚 QL6800 系列数据中心交换机\n\n青岚 QL6800 是面向数据中心推出的高密度以太网交换机，也可用于园区网的核心或汇聚。\n\n"
    "| 型号 | QL6857 |\n|---|---|\n| 下行端口 | 48x25GE SFP28 |\n| 上行端口 | 8x100GE QSFP28 |\n"
)
DC_ROUTER_EN = (
    "# Brant BR-12 router\n\nThe BR-12 is a 2RU router delivering 28.8 Tbps, built for core, WAN, peering and "
    "AI-driven data-center deployments.\n\nThe router serves metro, WAN, internet peering and edge sites.\n\n"
    "Ports: 36x 800GE QSFP-DD\n"
)


@pytest.mark.parametrize("text", [DC_SWITCH_ZH, DC_ROUTER_EN])
def test_a_switch_whose_opening_names_the_data_centre_or_ai_fabric_is_scale_out(sheet, text):
    assert tiers(sheet(text)) == {"scale-out"}


def test_scale_out_workloads_are_no_network(sheet):
    a = sheet(
        "# Corvo M9 modular chassis\n\nThe M9 simplifies the enterprise data center for traditional scale-out and "
        "enterprise workloads.\n\nEach chassis connects to fabric interconnects.\n\nUplinks: 8x 100-Gbps\n"
    )
    assert tiers(a) == {"front-end"}


# -- a PCIe switch inside a server does not make its sheet a switch's -------------------------------------------------

GPU_BOX_ZH_TW = (
    "NVLink在GPU之間提供高速路徑。該系統支援8個Tesla SXM2 V100 GPU,GPU主板透過NVLink架構連接。"
    "所有GPU之間的直接連接是單個NVlink(25 GB / s)。每個PCI-E PLX交換機都是兩個SXM2模塊和一個PCI-E3.0 x16插槽的根。\n"
    "| Chipset | Intel C621 |\n| Network Controllers | Dual Port 10GBase-T from Intel X540 |\n"
)
GPU_BOX_EN = (
    "Kestrel K8 GPU system. The system supports 8 Tesla SXM2 V100 GPUs joined by NVLink; each PLX switch roots two "
    "SXM2 modules and one PCIe 3.0 x16 slot; a single NVLink link moves 25 GB/s.\n\n"
    "| Chipset | Intel C621 |\n| Network Controllers | Dual Port 10GBase-T |\n"
)


@pytest.mark.parametrize("text", [GPU_BOX_ZH_TW, GPU_BOX_EN])
def test_a_gpu_box_with_pcie_switches_is_a_server_with_its_sxm_domain(sheet, text):
    a = sheet(text)
    assert a.sheet_kind == "server"
    assert one(a, "domain_size", "8").tier == "scale-up"
    link = one(a, "bandwidth", "25 GB")
    assert (link.scope, link.normalized["value"]) == ("per-link", 25.0)
    assert one(a, "bandwidth", "10GBase-T").tier == "front-end"
    assert "power.missing" in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "text",
    [
        "At the heart of the Kite K1 instance are 16 x Kite chips, joined by KiteLink-v2 for chip-to-chip "
        "interconnect.\n",
        "The Vela V2 instance is powered by up to 12 Vela chips, and NeuronLink-v2 connects them chip to chip.\n",
    ],
)
def test_an_instances_chips_in_prose_are_its_domain(sheet, text):
    a = sheet(text)
    assert {(f.tier, f.normalized["value"]) for f in a.figures if f.quantity == "domain_size"} in (
        {("scale-up", 16)},
        {("scale-up", 12)},
    )


@pytest.mark.parametrize(
    "table",
    [
        "| Size | # of Vela chips | Memory (GiB) | NeuronLink-v2 (GiB/sec/chip) |\n|---|---|---|---|\n"
        "| v2.small | 1 | 32 | N/A |\n| v2.large | 6 | 192 | 192 |\n| v2.max | 12 | 384 | 192 |\n",
        "| Instance | GPUs | GPU memory | NVLink bandwidth (GB/s) |\n|---|---|---|---|\n"
        "| k8.2x | 2 | 160 GB | 900 |\n| k8.8x | 8 | 640 GB | 900 |\n",
    ],
)
def test_a_models_count_beside_its_scale_up_link_rate_is_its_domain(sheet, table):
    a = sheet("# Instance sizes\n\n" + table)
    sizes = {f.normalized["value"] for f in a.figures if f.quantity == "domain_size" and f.tier == "scale-up"}
    assert sizes in ({6, 12}, {2, 8})


# -- the path between an accelerator and its NIC is the host link -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Each GPU is connected to a 400 NDR NIC through a PCIe Gen5x16 connection. We have measured approximately "
        "49 GB/s per GPU in P2P transfers between the NIC and the GPUs.",
        "Two accelerators that are connected to the same 200 Gb/s NIC were under test: the vendor has measured over "
        "11 GB/s per accelerator.",
    ],
)
def test_a_measured_rate_between_gpu_and_nic_is_the_host_paths_per_accelerator(sheet, text):
    a = sheet(text)
    f = next(f for f in a.figures if f.quantity == "bandwidth" and f.unit == "GB/s")
    assert (f.tier, f.scope) == ("host", "per-accelerator")
    assert f.normalized["value"] == f.value  # as measured: not halved
    nic = next(f for f in a.figures if f.quantity == "bandwidth" and f.unit != "GB/s")
    assert nic.tier == "scale-out"
    assert "tier.domain-size-missing" not in {x.check for x in a.findings}


# -- one phrase that names both tiers decides neither -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "# Ostrava O6 switch chip\n\nO6 is built for scale-up and scale-out AI networks, with 100G/200G SerDes and "
        "51.2 Tbps of switching capacity.\n",
        "# Lumo L9 switch\n\nThe L9 serves both Scale-Out/Scale-Up fabrics: 64 ports of 800GbE.\n",
    ],
)
def test_scale_up_and_scale_out_named_together_is_no_scale_up(sheet, text):
    assert "scale-up" not in tiers(sheet(text))


# -- a switch that names only its Ethernet silicon is an Ethernet switch ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Add support for the ZX640 switch.\n\nZX640 is a 51.2Tbps switch based on the Spectrum-4 ASIC.\n"
        "Features:\n - 64 OSFP ports supporting 10Gbps - 800Gbps speeds.\n",
        "# Tern T6 announcement\n\nTern ships the T6 switch, built on Tomahawk 6: 102.4 Tbps of switching capacity, "
        "double the bandwidth of any Ethernet switch on the market.\n",
    ],
)
def test_a_switch_named_by_its_ethernet_silicon_without_rdma_is_flagged(sheet, text):
    assert "latency.no-rdma" in {x.check for x in sheet(text).findings}


def test_an_infiniband_switch_on_the_same_silicon_words_is_not(sheet):
    a = sheet("ZX900 is an InfiniBand switch based on the Quantum-3 ASIC with 144 ports of 800Gb/s.\n")
    assert "latency.no-rdma" not in {x.check for x in a.findings}


# -- a direction stated for the whole document ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "All bandwidth figures expressed in this article are Full Duplex: a 7.2Tbps DataPath can receive and transmit "
        "7.2Tbps simultaneously.",
        "Note: all throughput values listed here are per direction.",
    ],
)
def test_a_direction_stated_for_every_figure_holds_for_each(sheet, statement):
    a = sheet(
        f"# Fjord F5 line card\n\n{statement}\n\nThe F5 offers 36 ports 800GbE per slot and 14.4Tbps of WAN capacity.\n"
    )
    assert {f.direction for f in a.figures if f.quantity == "bandwidth"} == {"unidirectional"}


# -- ports, lanes and devices -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["SerDes on the north side, supporting bandwidth from 10Gbps to 106Gbps.", "Lanes run 25Gbps to 112Gbps."]
)
def test_a_span_up_to_a_lane_only_rate_is_a_lanes(sheet, line):
    a = sheet(f"# Fjord F6 line card\n\nThe F6 has 36 ports of 800GbE. {line}\n")
    assert {f.scope for f in a.figures if f.quantity == "bandwidth" and f.value < 200} == {"per-lane"}


@pytest.mark.parametrize(
    "text", ["This system is based on the Quantum-3 36x800Gb/s Switch.", "It is built on the 64x400Gb/s router ASIC."]
)
def test_a_counted_port_speed_before_a_device_is_the_ports(sheet, text):
    a = sheet(f"# Zephyr Z2 switch\n\n{text}\n")
    assert {f.scope for f in a.figures if f.quantity == "bandwidth"} == {"per-port"}
    assert "tier.aggregate-figure" not in {x.check for x in a.findings}


@pytest.mark.parametrize("name", ["XDR", "NDR"])
def test_a_generation_named_alone_is_read_by_its_table(sheet, name):
    a = sheet(
        f"Q-20 is an InfiniBand switch with 144 {name} ports. It provides up-to 800Gbps full bidirectional bandwidth "
        "per port.\n"
    )
    alone = one(a, "bandwidth", name)
    assert alone.direction == "unspecified"
    assert "bandwidth.unit-ambiguous" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "text",
    [
        "# Corvo V14 adapter\n\nHost interface: PCIe x16 Gen3.\n\nPhysical ports: 2 x 40/100-Gbps Ethernet QSFP28.\n",
        "# 星河 S2 智能网卡\n\n| 主机接口 | PCIe*8 Gen3.0/Gen4.0 |\n| 网络接口 | 2 x 100GE QSFP28 |\n",
    ],
)
def test_an_adapters_ports_together_can_outrun_its_host_link(sheet, text):
    assert "bandwidth.host-bottleneck" in {x.check for x in sheet(text).findings}


def test_breakout_lanes_of_one_port_do_not_add_up(sheet):
    a = sheet("# Corvo V15 adapter\n\nHost interface: PCIe x16 Gen3.\n\nPorts: 4x25G breakout of one 100G port.\n")
    assert "bandwidth.host-bottleneck" not in {x.check for x in a.findings}


# -- what a figure's own row, words and brackets say ------------------------------------------------------------------


@pytest.mark.parametrize(
    "table",
    [
        "| Machine type | GPU model | Max total bandwidth | GPU to GPU networking technology |\n|---|---|---|---|\n"
        "| K4 | B200 | 3,600 Gbps | GPUDirect RDMA |\n| K3 | H100 | 1,000 Gbps | GPUDirect-TCPX |\n",
        "| Instance | GPUs | Maximum total network bandwidth | Transport |\n|---|---|---|---|\n"
        "| v8.large | 8 | 3,200 Gbps | RDMA |\n| v8.small | 4 | 800 Gbps | RDMA |\n",
    ],
)
def test_an_instance_tables_total_over_rdma_is_the_nodes_scale_out(sheet, table):
    a = sheet("# Networking and GPU instances\n\n" + table)
    bws = [f for f in a.figures if f.quantity == "bandwidth"]
    assert {(f.tier, f.scope) for f in bws} == {("scale-out", "per-node")}
    assert "tier.unclassified" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "line",
    [
        "Login nodes: one NDR HCA, 100 Gigabit Ethernet external connection.",
        "Each node has 25 GbE external connectivity to the campus.",
    ],
)
def test_an_external_connection_is_front_end(sheet, line):
    a = sheet(f"# Fjell cluster\n\n{line}\n")
    assert one(a, "bandwidth", "Gb").tier == "front-end" if "25 GbE" in line else True
    assert {f.tier for f in a.figures if f.quantity == "bandwidth" and "100" in f.text or "25" in f.text} == {
        "front-end"
    }


@pytest.mark.parametrize("line", ["TDP: 680 W (for full GH200 superchip)", "Superchip power: 1000 W"])
def test_a_superchips_power_is_the_accelerators(sheet, line):
    a = sheet(f"# Fjell node\n\n4x GH200 Grace Hopper Superchips per node.\n\n{line}\n")
    assert one(a, "power", "W").scope == "per-accelerator"


@pytest.mark.parametrize(
    "line",
    [
        "NVLink 4 GPU-to-GPU links, 300 GB/s between pairs of GPUs (150 GB/s per direction).",
        "Chip-to-chip: 1.6 TB/s over the mesh (800 GB/s each way).",
    ],
)
def test_a_figure_whose_bracket_gives_its_half_per_direction_adds_both(sheet, line):
    a = sheet(f"# Fjell node\n\n{line}\n")
    first = next(f for f in a.figures if f.quantity == "bandwidth")
    assert first.direction == "bidirectional" and first.normalized["value"] == first.value / 2 * (
        1000 if first.unit == "TB/s" else 1
    )


@pytest.mark.parametrize(
    "text",
    [
        "20 GPGPU nodes, each with 1,024 GB of DDR4-RAM, eight A100 GPUs (40 GB HBM2 @ 1,555 GB/s; HGX board with "
        "NVLink), two HDR200 Infiniband HCAs, 25 GbE.",
        "Node: 512 GB DDR5, 4 x H100 GPUs (80 GB HBM3; NVLink bridge), one NDR200 InfiniBand HCA, 25 GbE.",
    ],
)
def test_a_port_named_by_its_own_fabric_keeps_it_whatever_its_sentence_names(sheet, text):
    a = sheet(f"# Fjell cluster\n\n{text}\n")
    ib = next(f for f in a.figures if f.quantity == "bandwidth" and "DR200" in f.text)
    eth = next(f for f in a.figures if f.quantity == "bandwidth" and "GbE" in f.text)
    assert (ib.tier, eth.tier) == ("scale-out", "front-end")


def test_a_rate_another_generation_has_is_not_beyond_the_one_named_elsewhere(sheet):
    a = sheet(
        "# Cases\n\nCase 1: 12 GPU servers, each with 4 HDR NICs.\n\nCase 2: a 400Gbps InfiniBand network for 64 "
        "servers.\n"
    )
    assert "bandwidth.exceeds-technology" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "title, kind",
    [
        ("Add support for the Q3401-RD XDR DGX flavor switch", "switch"),
        ("The DGX GB200 NVL72 rack: a supercomputer in a rack", "rack"),
    ],
)
def test_a_dgx_named_as_a_qualifier_does_not_make_a_server(sheet, title, kind):
    a = sheet(f"# {title}\n\nThis system is based on the platform with 36x800Gb/s ports and 120kW of power.\n")
    assert a.sheet_kind == kind


# -- a switch's stated totals against its own ports -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Introduce support for the next-generation 800GB/s switch ZX600.\n\nZX600 is 51.2 Tbps Ethernet switch. It "
        "can provide up to 64x800Gb/s (ETH) bandwidth per port.\n",
        "# Zephyr Z9 switch\n\nThe Z9 is a 3.2 Tbps switch.\n\nIt offers 25.6 Tbps of switching capacity over 32x "
        "800GbE ports.\n",
    ],
)
def test_a_second_total_the_ports_do_not_make_is_a_mismatch(sheet, text):
    found = [x for x in sheet(text).findings if x.check == "bandwidth.aggregate-mismatch"]
    assert found and all(x.severity == "warning" for x in found)  # which total holds is the vendor's to say


@pytest.mark.parametrize(
    "row",
    [
        "| SFP+ copper (CU) | Twinax | 1, 3 and 5m | Approximately 0.1 W | Approximately 0.1 microsecond |",
        "| QSFP28 AOC | Active optical | 10m | 2.5 W | about 50 ns |",
    ],
)
def test_a_cables_latency_in_a_cabling_table_is_the_modules(sheet, row):
    a = sheet(
        "# Corvo FI-32 fabric interconnect\n\n| Cable | Type | Reach | Power | Latency |\n|---|---|---|---|---|\n"
        f"{row}\n\nPorts: 32 x 40-Gbps\n"
    )
    assert not [f for f in a.figures if f.quantity == "latency"]
    assert "latency.hardware-only" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "text",
    [
        "Each of the four passive QSFP-DD ports provides 800 Gbps connectivity. These ports connect exclusively to "
        "other Blackhole cards.",
        "- **k150:** This card provides more local memory (32 GB) than the k100. It also features four 800 Gbps "
        "QSFP-DD ports used for networking with other Kite cards.",
    ],
)
def test_card_to_card_ports_told_in_the_next_or_own_sentence_are_scale_up_per_port(sheet, text):
    a = sheet(f"# Kite cards\n\n{text}\n")
    f = one(a, "bandwidth", "800")
    assert (f.tier, f.scope) == ("scale-up", "per-port")


@pytest.mark.parametrize(
    "line, printed, scope",
    [
        (
            "Each pair of GPUs sits behind a PCIe bridge to a Mellanox GDR NIC with bandwidth of 200 Gb/s.",
            "200",
            "per-device",
        ),
        ("The Kestrel K9 SuperNIC supports 800Gb/s or XDR IB or 2 x 400GbE link speeds.", "800", "per-device"),
        ("PCIe Gen5 provides 4 GB/s per lane and 64 GB/s for x16 connection.", "64", "per-link"),
        ("A Gen4 slot moves 32 GB/s over an x16 link.", "32", "per-link"),
    ],
)
def test_whose_rate_the_words_beside_it_say(sheet, line, printed, scope):
    assert one(sheet(f"# Notes\n\n{line}\n"), "bandwidth", printed).scope == scope


@pytest.mark.parametrize(
    "table",
    [
        "| Chips per host | 8 |\n| Per-host NIC configuration | 2 x 100 Gbps NIC |\n"
        "| Data center network bandwidth per Pod | 6.4 Tbps |\n",
        "| Accelerators per node | 8 |\n| Node NICs | 2 x 200 Gbps |\n| Cluster network | fat tree, 400 nodes |\n",
    ],
)
def test_two_nics_in_a_table_of_the_cluster_network_are_scale_out(sheet, table):
    a = sheet("# Kite K5 pod\n\n| Specification | Value |\n|---|---|\n" + table)
    assert one(a, "bandwidth", "00 Gbps").tier == "scale-out"


@pytest.mark.parametrize(
    "text, kind",
    [
        (
            "# Corvo 9108 Modular Chassis\n\nThe modular system holds eight compute nodes for enterprise workloads.\n",
            "server",
        ),
        (
            "# Corvina 7816R Modular Chassis\n\nA 16-slot modular chassis switch with line cards for AI spines.\n",
            "switch",
        ),
    ],
)
def test_a_modular_chassis_is_a_switch_only_beside_switching_words(sheet, text, kind):
    assert sheet(text + "\nUplinks: 8x 100-Gbps\n").sheet_kind == kind


@pytest.mark.parametrize(
    "line", ["Its combination of 64 x 1.6T Ethernet interfaces", "It offers 64 x 1.6 Tb/s OSFP ports"]
)
def test_counted_ports_at_the_fastest_port_speed_are_ports(sheet, line):
    a = sheet(f"# Zephyr Z10 switch\n\nThe Z10 delivers 102.4 Tbps of switching capacity. {line}.\n")
    assert {f.scope for f in a.figures if f.quantity == "bandwidth" and f.value < 10} == {"per-port"}
    assert "bandwidth.aggregate-mismatch" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "line, printed, tier",
    [
        ("| Host System Connectivity | 2x RJ45 10GBase-T, 4x USB 2.0, 1x VGA |", "10GBase-T", "front-end"),
        ("| LAN | Dual 10GBASE-T ports |", "10GBASE-T", "front-end"),
        ("| Front-end nodes | 100 GbE connection to the campus network backbone |", "100 GbE", "front-end"),
        ("| Chassis | the 3.2Tbps integrated switch fabric joins the blades |", "3.2Tbps", "unknown"),
    ],
)
def test_a_ports_ieee_name_or_its_place_says_its_tier(sheet, line, printed, tier):
    a = sheet(f"# Kite K3 system\n\n| Item | Value |\n|---|---|\n{line}\n")
    assert one(a, "bandwidth", printed).tier == tier


def test_a_cell_takes_the_tier_its_column_agrees_on(sheet):
    a = sheet(
        "# Networking and GPU instances\n\n| Machine type | GPU model | Max total bandwidth | Transport |\n|---|---|---|---|\n"
        "| K4 | B200 | 3,600 Gbps | GPUDirect RDMA |\n| K3 | H100 | 1,000 Gbps | GPUDirect RDMA |\n"
        "| G2 | L4 | 100 Gbps | N/A |\n"
    )
    assert one(a, "bandwidth", "100 Gbps").tier == "scale-out"
    assert "tier.unclassified" not in {x.check for x in a.findings}


@pytest.mark.parametrize("line", ["1.6 TB ingress and 1.6 TB egress", "egress bandwidth of 800 Gbps"])
def test_an_ingress_or_egress_rate_is_one_directions(sheet, line):
    a = sheet(f"# Fjord F7 line card\n\nEach PFE supports {line}.\n")
    assert {f.direction for f in a.figures if f.quantity == "bandwidth"} == {"unidirectional"}


def test_a_sheet_of_domain_sizes_has_figures(sheet):
    a = sheet("# 亲和性说明\n\n| 产品 | 说明 |\n|---|---|\n| Atlas 训练系列产品 | 4个昇腾AI处理器通过HCCS互联 |\n")
    assert "sheet.no-figures" not in {x.check for x in a.findings}
