"""Tier, scope, direction and basis from a figure's context, in English and Chinese."""

import pytest

from conftest import figure


@pytest.mark.parametrize(
    "line,text,tier,scope",
    [
        (
            "GPU-to-GPU interconnect: NVLink 4 through 4x NVSwitch, 900 GB/s per GPU",
            "900 GB/s",
            "scale-up",
            "per-accelerator",
        ),
        ("Cluster networking: 8x ConnectX-7, InfiniBand NDR, 400 Gb/s per port", "400 Gb/s", "scale-out", "per-port"),
        ("Storage / front-end network: 2x BlueField-3 DPU, dual-port 200 Gb/s", "200 Gb/s", "front-end", "per-port"),
        ("Management: 1x 1 GbE BMC port", "1 GbE", "front-end", "per-port"),
        ("Host interface: NVLink-C2C at 900 GB/s", "900 GB/s", "host", "per-link"),
        ("Scale-up: 21x 200GbE RoCE per accelerator, all-to-all", "200GbE", "scale-up", "per-port"),
        (
            "accelerator_interconnect: 18x 5th Gen NVLink, 14.4 TB/s aggregated bandwidth",
            "14.4 TB/s",
            "scale-up",
            "per-node",
        ),
        ("集群网络: 8 × 200GE RoCE v2 网口", "200GE", "scale-out", "per-port"),
        ("业务/存储网络: 2 × 25GE", "25GE", "front-end", "per-port"),
        ("Total I/O bandwidth: 10.4 TB/s", "10.4 TB/s", "mixed", "per-node"),
    ],
)
def test_tier_and_scope(sheet, line, text, tier, scope):
    f = figure(sheet(f"# Server G8\n\n{line}\n"), text, first=True)
    assert (f.tier, f.scope) == (tier, scope)


def test_ethernet_is_not_always_scale_out(sheet):
    a = sheet("# Aurora server\n\nScale-up: 21x 200GbE RoCE per accelerator\n\nScale-out: 6x 800GbE OSFP\n")
    assert figure(a, "200GbE", first=True).tier == "scale-up"
    assert figure(a, "800GbE", first=True).tier == "scale-out"


def test_direction_from_the_cell_and_from_a_footnote(sheet):
    a = sheet(
        "# Pod\n\nUp to 7.2 TB/s¹ of NVLink bandwidth in every node.\n\n¹ Bidirectional, aggregate across all eight GPUs.\n"
    )
    f = figure(a, "Up to 7.2 TB/s¹", first=True)
    assert (f.direction, f.scope) == ("bidirectional", "per-node")
    assert f.normalized["value"] == pytest.approx(3600)


@pytest.mark.parametrize(
    "line,basis",
    [
        ("Cut-through latency: < 700 ns", "hardware"),
        ("Port-to-port latency: 130 ns", "hardware"),
        ("RDMA latency: 2.1 µs host to host (ib_write_lat, 64-byte messages)", "end-to-end"),
        ("端到端时延: 2 微秒（RoCE v2，集合通信库实测，8 字节消息）", "end-to-end"),
        ("Network latency: as low as 1 µs", "unspecified"),
    ],
)
def test_latency_basis(sheet, line, basis):
    assert figure(sheet(f"# Switch\n\n{line}\n"), quantity="latency").basis == basis


@pytest.mark.parametrize(
    "line,scope",
    [
        ("System power: 10.2 kW max", "per-node"),
        ("Rack power: ~132 kW maximum", "per-rack"),
        ("CPU: 2x Xeon (56 cores, 350 W TDP each)", "per-device"),
        ("hw_notes: B300 TGP 1100W", "per-accelerator"),
        ("整机功耗: 最大 5.6 kW", "per-node"),
    ],
)
def test_power_scope(sheet, line, scope):
    assert figure(sheet(f"# GPU server\n\n{line}\n"), quantity="power").scope == scope


def test_domain_size_needs_a_fabric_that_joins_the_accelerators(sheet):
    a = sheet(
        "# Server\n\nThe eight GPUs are fully connected through four NVSwitch chips.\n\n"
        "It ships with two GPUs of spare parts.\n"
    )
    sizes = [(f.value, f.tier) for f in a.figures if f.quantity == "domain_size"]
    assert sizes == [(8, "scale-up")]
    b = sheet("# Pod\n\nA pod joins 32 nodes, 256 GPUs, over a rail-optimized fabric.\n", name="pod.md")
    assert [(f.value, f.tier) for f in b.figures if f.quantity == "domain_size"] == [(256, "scale-out")]


@pytest.mark.parametrize(
    "line,value",
    [
        ("Cooling: Direct liquid cooling (cold plates)", "liquid"),
        ("Cooling: Air-cooled, front-to-back airflow", "air"),
        ("散热方式: 风冷", "air"),
        ("cooling: Liquid Assisted Air-Cooled (LAAC)", "air"),
        ("cooling: SMC IMMERSION COOLING TECHNOLOGY", "immersion"),
        ("cooling: DLC", "liquid"),
    ],
)
def test_cooling(sheet, line, value):
    a = sheet(f"# Server\n\n{line}\n")
    assert [f.value for f in a.figures if f.quantity == "cooling"] == [value]


def test_chinese_white_paper(sheet):
    a = sheet(
        "灵犀 AI 计算集群 方案白皮书\n\n超节点：72 颗 GPU 通过 NVLink 5.0 全互联，单卡双向带宽 1.8TB/s。\n\n"
        "交换芯片时延约 300 纳秒；端到端时延低于 2 微秒。\n\n单机柜功耗 132 千瓦，需采用液冷。\n",
        name="zh.txt",
    )
    assert a.sheet_kind == "pod"
    bw = figure(a, "1.8TB/s", first=True)
    assert (bw.tier, bw.direction, bw.normalized["value"]) == ("scale-up", "bidirectional", 900)
    assert [(f.value, f.tier) for f in a.figures if f.quantity == "domain_size"] == [(72, "scale-up")]
    lat = {f.basis: f.normalized["value"] for f in a.figures if f.quantity == "latency"}
    assert lat == {"hardware": 300, "end-to-end": 2000}
    assert {"power.rack-density", "power.liquid-cooling-required"} <= {f.check for f in a.findings}


def test_a_nic_described_by_its_pcie_slot_is_still_a_network_port(sheet):
    a = sheet(
        "# Server\n\nhost_network_card_count: 8x BCM957608 (Thor2), Single-Port 400 Gb/s QSFP-DD "
        "PCI Express 5.0 x16 Ethernet Network Interface Card\n\naccelerators_per_node: 8\n"
    )
    f = figure(a, "400 Gb/s", first=True)
    assert (f.tier, f.scope) == ("scale-out", "per-port")
    b = sheet("# Server\n\nhost_networking: Data bandwidth for GPU-PCIe: 504GB/s\n", name="b.md")
    assert figure(b, "504GB/s", first=True).tier == "host"


def test_a_pcie_nic_is_a_network_port_but_pcie_nic_data_bandwidth_is_host(sheet):
    a = sheet(
        "# Server\n\nhost_networking_topology: 8x HPE Slingshot SA210S Ethernet 200Gb 1-port PCIe NIC\n\n"
        "host_networking: Data bandwidth for GPU-PCIe: 504GB/s; PCIe-NIC: 500GB/s\n"
    )
    assert figure(a, "200Gb", first=True).tier == "scale-out"
    assert figure(a, "500GB/s", first=True).tier == "host"
