"""Counts of accelerators as vendors print them, in prose, tables and product names, English and Chinese: a count is a
domain where the sheet names what joins the accelerators (a scale-up link, a cluster network), and only then. Each
case is written in our own words, in at least two vendors' styles, and read through the whole audit."""

import pytest


def domains(audit):
    return sorted((f.normalized["value"], f.tier) for f in audit.figures if f.quantity == "domain_size")


# -- English: counts in prose and product names, joined by a named link ------------------------------------------


@pytest.mark.parametrize(
    "text, size",
    [
        (
            "The Orca rack combines 36 superchips, which include 72 Zephyr GPUs and 36 host CPUs interconnected by "
            "fifth-generation NVLink.",
            72,
        ),
        ("The Kestrel HGX board links eight K200 GPUs through NVLink to serve x86 platforms.", 8),
        ("Each Lumen node packs 8x Lumen Blackfin p150b Tensix Processors, connected with NVLink Switch trays.", 8),
        ("Hyperion fabric: the switch system connects up to 576 GPUs in one NVLink domain.", 576),
    ],
)
def test_an_english_count_joined_by_a_named_link_is_the_scale_up_domain(sheet, text, size):
    assert (float(size), "scale-up") in domains(sheet(f"# Accelerator system\n\n{text}\n"))


def test_a_lower_case_model_number_in_a_product_name_still_counts(sheet):
    """ "8x Tenstorrent Blackhole p150b Tensix Processors": a model number in lower case between count and noun."""
    a = sheet("# Box\n\n| Spec | Value |\n|--|--|\n| Processors | 4x Vireo Blackfin p300c cards, fully connected |\n")
    assert domains(a) == [(4.0, "scale-up")]


@pytest.mark.parametrize(
    "text",
    [
        "TT-Box 2 is powered by two p300c cards for a total of four Blackfin chips, fully connected.",
        "Accelerators: 2x Blackfin p300c cards (4 Blackfin chips), fully connected",
    ],
)
def test_chips_restating_the_cards_are_not_a_second_domain(sheet, text):
    """CONTRACT: the accelerator is the unit the sheet sells; its dies counted again are the same accelerators."""
    assert 4.0 not in [v for v, _ in domains(sheet(f"# Workstation\n\n{text}\n"))]


@pytest.mark.parametrize(
    "text",
    [
        "Each sled contains 4 Trion chips connected through an intra-server PCIe switch.",
        "The superchip connects two Zephyr GPUs to the host CPU over a 900GB/s NVLink-C2C interconnect.",
    ],
)
def test_accelerators_joined_to_their_host_are_no_domain(sheet, text):
    assert domains(sheet(f"# Server\n\n{text}\n")) == []


def test_a_count_the_sheet_does_not_join_is_no_domain(sheet):
    assert domains(sheet("# Workstation\n\nThe workstation takes eight Zephyr GPUs and two host CPUs.\n")) == []


def test_the_factors_of_a_product_are_not_domains(sheet):
    a = sheet("# Cluster\n\nThe cluster: 8 nodes x 8 GPUs = 64 GPUs, joined over a 400G InfiniBand fabric.\n")
    assert 8.0 not in [v for v, _ in domains(a)]


# -- Chinese: 个 / 颗 / 张 with the product's name, joined by a named link ---------------------------------------


@pytest.mark.parametrize(
    "text, size",
    [
        ("Atlas 训练系列产品：4个昇腾AI处理器通过HCCS互联；HCCS环间通过PCIe互联。", 4),
        ("每个HCCS存在4颗处理器，HCCS 带宽 56 GB/s。", 4),
        ("服务器搭载8颗昆仑芯AI加速模块R300，卡间通过XPU Link 全互联，互联带宽 200 GB/s。", 8),
        ("机架内8个OS共64个昇腾AI处理器通过LRS实现2D全互联。", 64),
        ("每2个曜石AI处理器通过SIO互联，组成一个模组。", 2),
        ("青鸾 X8 整机：8张青鸾加速卡经由星链总线全互联。", 8),
    ],
)
def test_a_chinese_count_joined_by_a_named_link_is_the_scale_up_domain(sheet, text, size):
    assert (float(size), "scale-up") in domains(sheet(f"# 产品说明\n\n{text}\n"))


def test_a_chinese_count_of_oses_servers_or_cores_is_no_domain(sheet):
    """ "8个OS共64个…": the OSes are not processors; "16个服务器" counts servers; "64 个 MLU Core" one chip's cores."""
    a = sheet(
        "# 超节点\n\n机架内8个OS共64个昇腾AI处理器通过LRS实现2D全互联。每个交换机下最多连接16个服务器。\n\n"
        "思元加速卡具备 64 个 MLU Core，2张网卡。\n"
    )
    assert domains(a) == [(64.0, "scale-up")]


@pytest.mark.parametrize(
    "text",
    [
        "集群通过RoCE网络互联的1024张加速卡组成训练集群。",
        "训练集群：1024张青鸾加速卡通过以太网互联。",
    ],
)
def test_a_chinese_count_joined_by_a_cluster_network_is_scale_out(sheet, text):
    assert (1024.0, "scale-out") in domains(sheet(f"# 集群方案\n\n{text}\n"))


def test_a_chinese_count_joined_by_pcie_is_no_domain(sheet):
    assert domains(sheet("# 服务器\n\n每台服务器内4颗曜石处理器通过PCIe交换芯片连接。\n")) == []


def test_a_sheet_that_says_its_chips_are_joined_makes_the_boxs_count_its_domain(sheet):
    """No technology the knowledge base knows, but the sheet says the chips are joined ("芯片间互联"): the box's count is
    the scale-up domain, and no tier.domain-size-missing is raised."""
    a = sheet(
        "# 玄鸟 R8 AI 服务器\n\nR8 服务器搭载8颗玄鸟AI加速模块R3，可基于通用基板实现芯片间互联，提供200GB/s片间互联双向聚合带宽。\n"
    )
    assert (8.0, "scale-up") in domains(a)
    assert "tier.domain-size-missing" not in {x.check for x in a.findings}
    b = sheet(
        "# Vireo V8 server\n\nThe V8 server packs 8x Vireo V3 modules; chip-to-chip links run at 200 GB/s per module.\n"
    )
    assert (8.0, "scale-up") in domains(b)
    assert "tier.domain-size-missing" not in {x.check for x in b.findings}


# -- Chinese vocabulary of ports, tiers, scopes, power and latency -----------------------------------------------


def _fig(audit, quantity, value):
    found = [f for f in audit.figures if f.quantity == quantity and f.normalized["value"] == value]
    assert found, [(f.quantity, f.text, f.normalized) for f in audit.figures]
    return found[0]


@pytest.mark.parametrize(
    "cell", ["1\\*Console Micro USB，1*GE RJ45管理网口", "后：2 * USB3.0,1 * VGA,2 x GE 管理口（RJ45）"]
)
def test_a_counted_ge_port_is_a_gigabit_front_end_port(sheet, cell):
    """ "1*GE RJ45管理网口", "2 x GE 管理口": Chinese vendors print GE (gigabit Ethernet) with a count and no speed."""
    a = sheet(f"# 服务器规格\n\n| 项目 | 规格 |\n|--|--|\n| 接口 | {cell} |\n| 整机功耗 | 2 kW |\n")
    f = _fig(a, "bandwidth", 0.125)
    assert (f.tier, f.scope) == ("front-end", "per-port")


@pytest.mark.parametrize(
    "label, tier",
    [("参数面网络", "scale-out"), ("业务面网络", "front-end"), ("存储面网络", "front-end"), ("管理网口", "front-end")],
)
def test_chinese_network_planes_set_the_tier(sheet, label, tier):
    a = sheet(
        f"# 训练服务器\n\n| 项目 | 规格 |\n|--|--|\n| 加速卡 | 8张青鸾加速卡，卡间全互联 |\n| {label} | 2 x 200GE |\n"
    )
    assert _fig(a, "bandwidth", 25.0).tier == tier


@pytest.mark.parametrize(
    "text", ["每节点功耗 5.6 kW（典型），最大功耗 6.5 kW。", "单台功耗：典型 5.6 kW；最大 6.5 kW。"]
)
def test_chinese_node_power_is_per_node(sheet, text):
    a = sheet(f"# 赤兔 X8\n\n单机8卡，卡间 HCCS 互联。\n\n{text}\n")
    assert _fig(a, "power", 5.6).scope == "per-node"


@pytest.mark.parametrize(
    "text, basis",
    [
        ("交换芯片硬件时延 600 ns", "hardware"),
        ("静态时延 600 ns", "hardware"),
        ("端到端时延 2 us", "end-to-end"),
        ("含软件栈的时延 2 us", "end-to-end"),
    ],
)
def test_chinese_latency_basis(sheet, text, basis):
    a = sheet(f"# 交换机\n\n交换容量 51.2 Tbps，{text}。\n")
    assert [f.basis for f in a.figures if f.quantity == "latency"] == [basis]


@pytest.mark.parametrize(
    "text",
    [
        "The O9 is a 2U server with four PCIe accelerator cards; there is no accelerator-to-accelerator bridge.\n\n"
        "Accelerators: 4x PCIe Gen5 x16 cards, 350 W each",
        "推理服务器搭载4张推理卡，推理卡间不互联，卡间数据经主机 PCIe 交换。\n\n加速卡：4张推理卡",
    ],
)
def test_a_sheet_that_says_its_cards_are_not_joined_has_no_domain(sheet, text):
    assert domains(sheet(f"# Inference server\n\n{text}\n")) == []


@pytest.mark.parametrize(
    "table, size",
    [
        (
            "| GPU | Interconnect | Servers (GPUs per server) |\n|--|--|--|\n| H100 SXM5 | NVLink 900 GB/s | PowerEdge "
            "XE9680 (8) |\n| L40S PCIe | PCIe Gen4 | PowerEdge R760xa (4) |\n",
            8,
        ),
        (
            "| Accelerator | Fabric | Systems |\n|--|--|--|\n| Instinct MI300X OAM | Infinity Fabric | Gigabyte G593-ZX1 (8), "
            "Supermicro AS-8125GS (8) |\n",
            8,
        ),
    ],
)
def test_a_servers_count_in_brackets_is_a_domain_where_its_row_names_the_link(sheet, table, size):
    """ "PowerEdge XE9680 (8)" in a table of GPUs: the server's count, a domain where the row names NVLink; the PCIe
    server's "(4)" is no domain."""
    assert set(domains(sheet(f"# GPU platforms\n\n{table}"))) == {(float(size), "scale-up")}


@pytest.mark.parametrize(
    "rows",
    [
        "| TPU Pod size | 256 chips |\n| Interconnect topology | 2D torus |\n",
        "| Pod size (chips) | 256 |\n| Bidirectional ICI bandwidth per chip (GBps) | 400 |\n",
    ],
)
def test_a_pod_joined_by_ici_or_a_torus_is_the_scale_up_domain(sheet, rows):
    a = sheet(f"# Tensor processor\n\n| Key specification | Value |\n|--|--|\n{rows}")
    assert (256.0, "scale-up") in domains(a)


def test_a_cabinets_count_stays_a_cluster(sheet):
    a = sheet("# Cabinet\n\n| Spec | Value |\n|--|--|\n| GPUs per cabinet | 512 |\n| Fabric | 2D torus of switches |\n")
    assert domains(a) == [(512.0, "scale-out")]


@pytest.mark.parametrize(
    "text",
    [
        "designed for AI clusters with more than one million XPUs.",
        "The fabric scales to clusters of a million accelerators.",
    ],
)
def test_a_million_accelerators_in_a_cluster_is_scale_out(sheet, text):
    assert domains(sheet(f"# Switch\n\nThe switch delivers 102.4 Tb/s, {text}\n")) == [(1e6, "scale-out")]


@pytest.mark.parametrize(
    "text",
    [
        "面向大模型训练的液冷超节点，以 64 卡统一高速互联域替代传统 8 卡服务器，64 卡通过星链总线全互联。",
        "The Orca rack joins 64 GPUs over NVLink in one domain, and replaces the traditional 8-GPU server.",
    ],
)
def test_the_product_a_sheet_replaces_is_not_its_domain(sheet, text):
    assert set(domains(sheet(f"# 超节点 rack\n\n{text}\n"))) == {(64.0, "scale-up")}


@pytest.mark.parametrize(
    "text",
    [
        "TS-SP384 超节点以 TSLink 总线将 384 颗 NPU 组成一个统一的 scale-up 域：48 个计算节点（每节点 8 颗 NPU）。",
        "The TS-SP384 joins 384 NPUs into one scale-up domain over the TSLink bus: 48 compute nodes of 8 NPUs each.",
    ],
)
def test_one_nodes_share_of_a_pods_domain_is_not_a_domain(sheet, text):
    assert domains(sheet(f"# SP384 超节点 superpod\n\n{text}\n")) == [(384.0, "scale-up")]


@pytest.mark.parametrize(
    "text",
    [
        "集群规模：通过参数面网络可扩展至 432 个超节点、共 165,888 颗 NPU。",
        "Scale: up to 432 superpods, for a total of 165,888 NPUs joined by the cluster network.",
    ],
)
def test_a_count_summed_over_many_domains_is_the_cluster(sheet, text):
    a = sheet(f"# 超节点 superpod\n\n超节点内 384 颗 NPU 通过灵衢总线全互联。\n\n{text}\n")
    assert (165888.0, "scale-out") in domains(a)


@pytest.mark.parametrize("cell", ["4 颗 64 核 ARM 处理器，主频 2.6GHz", "2 颗 鲲鹏 920 处理器"])
def test_host_processors_counted_in_chinese_are_no_domain(sheet, cell):
    a = sheet(
        f"# 训练服务器\n\n| 项目 | 规格 |\n|--|--|\n| 处理器 | {cell} |\n| 加速卡 | 8 颗 NPU 模组，机内 8 卡通过 HCCS 全互联 |\n"
    )
    assert sorted({v for v, _ in domains(a)}) == [8.0]


@pytest.mark.parametrize("label", ["GPU 数量", "加速卡数量", "NPU个数"])
def test_a_chinese_count_label_with_the_scale_up_link_in_its_table_gives_the_domain(sheet, label):
    """ "GPU 数量 | 8" beside "卡间互联 | NVLink 900 GB/s": no tier.domain-size-missing where the sheet states its domain."""
    a = sheet(f"# 服务器\n\n| 项目 | 规格 |\n|--|--|\n| {label} | 8 |\n| 卡间互联 | NVLink 900 GB/s |\n")
    assert domains(a) == [(8.0, "scale-up")]
    assert "tier.domain-size-missing" not in {x.check for x in a.findings}


@pytest.mark.parametrize(
    "text",
    [
        "交换机提供 64 个 800GE 端口连接 GPU，交换容量 51.2 Tbps。",
        "64 个 400G 网口接入 GPU 服务器，交换容量 25.6 Tbps。",
    ],
)
def test_ports_that_reach_accelerators_are_no_domain(sheet, text):
    assert domains(sheet(f"# 交换机\n\n{text}\n")) == []


@pytest.mark.parametrize("cell", ["2 颗第五代至强可扩展处理器", "2 颗飞腾 S5000C 处理器"])
def test_chinese_names_of_host_processors_are_no_domain(sheet, cell):
    a = sheet(
        f"# 服务器\n\n| 项目 | 规格 |\n|--|--|\n| 处理器 | {cell} |\n| 加速卡 | 8 颗曜石 OAM 模组，卡间全互联 |\n"
    )
    assert sorted({v for v, _ in domains(a)}) == [8.0]


def test_a_dcu_named_with_its_makers_name_still_counts(sheet):
    a = sheet("# 服务器\n\n| 项目 | 规格 |\n|--|--|\n| 加速卡 | 8 张海光 DCU K100 加速卡，卡间通过 xGMI 全互联 |\n")
    assert domains(a) == [(8.0, "scale-up")]


@pytest.mark.parametrize(
    "text",
    [
        "The Vega fabric joins up to 1,024 GPUs over a rail-optimised RoCE network. Each node holds eight GPUs joined by "
        "NVLink 4 through four NVSwitch chips.",
        "集群通过参数面 RoCE 网络互联 1,024 张卡。每节点 8 颗 NPU 通过 HCCS 全互联。",
    ],
)
def test_a_nodes_accelerators_joined_by_their_own_link_are_a_domain_on_a_pod_sheet(sheet, text):
    assert (8.0, "scale-up") in domains(sheet(f"# Vega AI pod 集群 design guide\n\n{text}\n"))


@pytest.mark.parametrize(
    "text",
    [
        "1 卡、2 卡规格的 GPU 之间不经 NVLink，经 PCIe 5.0 通信。",
        "The 2-GPU and 4-GPU sizes run without NVLink: their 4 GPUs talk over PCIe.",
    ],
)
def test_a_link_the_sheet_says_is_not_used_joins_nothing(sheet, text):
    assert domains(sheet(f"# 实例规格族 instance family\n\n{text}\n")) == []


@pytest.mark.parametrize(
    "text", ["| 参数面网卡 | 4 × 400G RoCE 网卡（每 2 卡共享 1 块） |", "| 网卡 | 每 2 卡配 1 块 400G 网卡 |"]
)
def test_cards_sharing_a_nic_are_a_ratio_not_a_domain(sheet, text):
    a = sheet(f"# 服务器\n\n| 项目 | 规格 |\n|--|--|\n| 加速卡 | 8 卡，卡间 NVLink 全互联 |\n{text}\n")
    assert sorted({v for v, _ in domains(a)}) == [8.0]


@pytest.mark.parametrize(
    "text, size, tier",
    [
        ("Chip-to-chip domain: up to 64 devices", 64.0, "scale-up"),
        ("A two-tier fat tree of these switches joins more than ten thousand GPUs.", 10000.0, "scale-out"),
        ("A placement group scales to 20,000 GPUs.", 20000.0, "scale-out"),
        ("片间互联域：64 颗芯片", 64.0, "scale-up"),
    ],
)
def test_domains_named_in_words(sheet, text, size, tier):
    assert (size, tier) in domains(sheet(f"# Sheet\n\n{text}\n"))


@pytest.mark.parametrize(
    "table",
    [
        "| Scalable units | Nodes | GPUs | Leaf switches | Spine switches |\n|---|---|---|---|---|\n| 1 | 32 | 256 | 8 | 4 |\n"
        "| 4 | 128 | 1,024 | 32 | 16 |\n",
        "| 集群规格 | 节点数 | GPU 数量 | Leaf 交换机 | Spine 交换机 |\n|---|---|---|---|---|\n| 小型集群 | 32 | 256 | 8 | 4 |\n"
        "| 中型集群 | 128 | 1,024 | 32 | 16 |\n",
    ],
)
def test_a_column_of_gpu_counts_in_a_fabric_table_is_the_clusters_size(sheet, table):
    a = sheet(f"# Fabric guide 组网指南\n\nEach node holds eight GPUs joined by NVLink.\n\n{table}")
    assert {(256.0, "scale-out"), (1024.0, "scale-out")} <= set(domains(a))


@pytest.mark.parametrize(
    "text",
    [
        "PCIe node: connects up to four GPUs per compute node across 8 nodes X-fabric.",
        "PCIe 节点：连接 4 张 GPU 每节点，多机组网。",
    ],
)
def test_a_boxs_own_count_is_never_a_cluster(sheet, text):
    assert all(t != "scale-out" for _, t in domains(sheet(f"# Chassis\n\n{text}\n")))


def test_the_page_triage_compiles_every_named_rate_together():
    """The named rates are joined into one scan for a PDF's page triage: no entry may define a group another one does."""
    from sheetaudit.stages.s2_triage import _scans

    _scans.cache_clear()
    numeric, _ = _scans()
    assert numeric.search("2 * GE 口")
