"""How real vendor sheets print their figures, each case in our own words: units only in a table's header, tables in
reStructuredText and HTML, counts of accelerators in many phrasings, several models on one sheet, the kind of sheet,
measured throughput, liquid cooling offered as an option. Each test reads a small sheet through the whole audit."""

import pytest


def figure(audit, quantity, text=None, **attrs):
    """The one figure of this quantity (and printed text, and attributes) the audit found."""
    found = [
        f
        for f in audit.figures
        if f.quantity == quantity
        and (text is None or f.text == text)
        and all(getattr(f, k) == v for k, v in attrs.items())
    ]
    assert found, [(f.quantity, f.text, f.tier, f.scope) for f in audit.figures]
    return found[0]


def values(audit, quantity):
    return sorted({f.normalized["value"] for f in audit.figures if f.quantity == quantity})


# -- one table model: a header's unit and words reach its bare numbers ------------------------------------------

RST_LIST_TABLE = """Interconnect
============

.. list-table::
    :header-rows: 1
    :stub-columns: 1

    *   -
        - Nimbus 1
        - Nimbus 2
    *   - Chip-to-chip links (GB/sec/device)
        - 384
        - 1280
    *   - HBM Bandwidth (TB/sec)
        - 0.8
        - 2.9
    *   - Memory pool size
        - Up to 16 devices
        - Up to 64 devices
"""


def test_units_in_a_list_table_header_reach_the_bare_numbers(sheet):
    a = sheet(RST_LIST_TABLE, name="nimbus.txt")
    link = figure(a, "bandwidth", "1280")
    assert (link.tier, link.scope, link.normalized["value"]) == ("scale-up", "per-accelerator", 1280.0)
    assert figure(a, "bandwidth", "0.8").tier == "memory" and 800.0 in values(a, "bandwidth")
    assert values(a, "domain_size") == [16.0, 64.0]


RST_GRID_TABLE = """Device components
=================

+------------------+---------------------------------------------+
| Device memory    | 96 GiB of device memory with 2.9 TB/sec of  |
|                  | bandwidth.                                  |
+------------------+---------------------------------------------+
| ChipLink         | ChipLink-v3 for device-to-device traffic    |
|                  | provides 1.28 TB/sec bandwidth per device.  |
+------------------+---------------------------------------------+
"""


def test_a_grid_table_cell_spanning_lines_is_one_cell(sheet):
    a = sheet(RST_GRID_TABLE, name="grid.txt")
    assert figure(a, "bandwidth", "2.9 TB/sec").tier == "memory"
    link = figure(a, "bandwidth", "1.28 TB/sec")
    assert (link.tier, link.scope) == ("scale-up", "per-accelerator")


HTML_SPANS = """<h1>Petrel P8 switch family</h1>
<table>
<tr><th rowspan="2">Item</th><th colspan="2">Power consumption (W)</th></tr>
<tr><th>P8-A</th><th>P8-L</th></tr>
<tr><th>Typical</th><td>1,950</td><td>1,980</td></tr>
<tr><th>Cooling</th><td>Air</td><td>Liquid, cold plate only</td></tr>
</table>"""


def test_html_header_rows_and_spans_form_one_grid(sheet):
    a = sheet(HTML_SPANS, name="petrel.html")
    assert values(a, "power") == [1.95, 1.98]
    assert {f.model for f in a.figures if f.quantity == "power"} == {"P8-A", "P8-L"}
    liquid = [f for f in a.findings if f.check == "power.liquid-cooling-required"]
    assert len(liquid) == 1 and liquid[0].message.startswith("P8-L:") and "P8-A is air-cooled" in liquid[0].message


TEST_REPORT = """# 评测结果

| 监控项 | 系统平均功耗 | 系统功耗标准差 | 单卡平均功耗(8卡平均) |
| ---- | ---- | ---- | ---- |
| 监控结果 | 2015.9W | 36.83W | 105.9W |
"""


def test_a_one_row_table_is_a_record_laid_sideways(sheet):
    a = sheet(TEST_REPORT, name="report-zh.md")
    assert values(a, "power") == [0.1059, 2.0159]  # the standard deviation is not a figure
    assert figure(a, "power", "2015.9W").scope == "per-node"
    assert figure(a, "power", "105.9W").scope == "per-accelerator"
    assert a.sheet_kind == "server" and "test report" in a.sheet_kind_reason


# -- counts of accelerators -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,size,tier",
    [
        (
            "The scale-up links join the accelerators inside one box in an All2All manner. "
            "A box consisting of 8 Lyra 3s is the unit of scale-out.",
            8,
            "scale-up",
        ),
        ("Each hive of four Acme accelerators is fully connected over Infinity Fabric.", 4, "scale-up"),
        ("支持单机八卡机内互联。", 8, "scale-up"),
        ("v5 chips form a 3D torus; a 128-chip slice is the smallest shape that crosses two cubes.", 128, "scale-up"),
        ("Each module joins a sixteen-way BLink domain.", 16, "scale-up"),
        ("Across the rack, 2 048 accelerators are joined by the RoCE fabric (two tiers).", 2048, "scale-out"),
    ],
)
def test_count_of_accelerators_in_many_phrasings(sheet, text, size, tier):
    a = sheet(f"# Platform\n\n{text}\n")
    d = figure(a, "domain_size", tier=tier)
    assert d.normalized["value"] == size


def test_part_numbers_switch_chips_and_memory_sizes_are_not_counts(sheet):
    a = sheet(
        "# Server\n\nThe eight GPUs are fully connected through four NVSwitch chips.\n\n"
        "整机搭载 8 颗 JH-910 NPU 模组，机内全互联。单卡 32 GB GDDR 加速卡。\n"
    )
    assert values(a, "domain_size") == [8.0]


# -- units, named rates and what is not a figure -----------------------------------------------------------------


def test_named_rates_and_european_numbers(sheet):
    a = sheet(
        "# Board\n\n| 特征 | 规格 |\n| --- | --- |\n| 网络 | 千兆网口：2 个 |\n\n"
        "Every G4 lane signals at 106,25 Gbit/s (PAM4); the G4-L draws 1 050 W.\n",
        name="board.md",
    )
    assert 0.125 in values(a, "bandwidth") and 13.2812 in values(a, "bandwidth")
    assert 1.05 in values(a, "power")


@pytest.mark.parametrize(
    "line",
    [
        "Shock, operating: 30 G, 11 ms half-sine",
        "OSFP cages accept modules up to 30 W (power class 8)",
        "Link-flap dampening hold-down default 200 ms.",
        "The in-rack CDU is rated for 120 kW of heat rejection.",
        "XH-S30 48G is for video analytics.",
    ],
)
def test_not_figures(sheet, line):
    a = sheet(f"# Sheet\n\n{line}\n")
    assert [f.text for f in a.figures if f.quantity in ("bandwidth", "latency", "power")] == []


# -- scope, direction and the kind of sheet ----------------------------------------------------------------------


def test_the_words_nearest_a_figure_decide_its_scope(sheet):
    a = sheet(
        "# Pod guide\n\nEach node holds eight GPUs joined by NVLink 4 through four NVSwitch chips, 900 GB/s per GPU.\n"
    )
    assert figure(a, "bandwidth", "900 GB/s").scope == "per-accelerator"


def test_measured_bus_bandwidth_is_taken_as_measured(sheet):
    a = sheet(
        "# Tuning guide\n\n| Test | Setup | Result |\n| --- | --- | --- |\n"
        "| All-reduce bus bandwidth, one node | nccl-tests, 8 GPUs over NVLink | ~370 GB/s |\n",
        name="guide.md",
    )
    f = figure(a, "bandwidth", "~370 GB/s")
    assert (f.tier, f.scope, f.normalized["value"]) == ("scale-up", "per-accelerator", 370.0)


def test_a_pod_brochure_that_names_its_switches_is_not_a_switch_sheet(sheet):
    a = sheet(
        "# Vireo AI pod\n\nThe pod joins 32 nodes over leaf switches and spine switches; "
        "each leaf switch has 64 ports.\n",
        name="pod.md",
    )
    assert a.sheet_kind == "pod" and "title" in a.sheet_kind_reason


def test_liquid_offered_beside_an_air_build_is_not_required(sheet):
    a = sheet(
        "# KX8 server\n\nCooling: Air-cooled, 15 hot-swap fans\n\n"
        "Liquid option: DLC cold-plate kit for accelerators and CPUs (factory option)\n"
    )
    assert "power.liquid-cooling-required" not in {f.check for f in a.findings}
    b = sheet("# KX8-L server\n\nCooling: direct liquid cooling only, 40 °C inlet\n")
    assert "power.liquid-cooling-required" in {f.check for f in b.findings}


def test_a_switch_family_checks_each_model_against_its_own_ports(sheet):
    a = sheet(
        "# Larkspur switch family\n\n| Specification | LS-9100 | LS-9200 |\n| --- | --- | --- |\n"
        "| Ports | 32x 800GbE OSFP | 64x 800GbE OSFP |\n| Switching capacity | 25.6 Tb/s | 51.2 Tb/s |\n",
        name="family.md",
    )
    assert values(a, "bandwidth") == [100.0, 3200.0, 6400.0]  # each capacity per direction, not halved
    assert "bandwidth.aggregate-mismatch" not in {f.check for f in a.findings}


# -- a switch family's data sheet: notes under the table, one label per model column --------------------------


def test_notes_set_as_one_paragraph_each_reach_their_figures(tmp_path):
    """ "¹ ... ² ..." printed as one paragraph under a table: the latency row's ¹ says port-to-port (hardware), and
    the optics wattage in note ² is not the switch's power."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle
    from sheetaudit import pipeline

    body = getSampleStyleSheet()["BodyText"]
    rows = [
        ["", "SX-64", "SX-128"],
        ["Latency (ns)\u00b9", "~700", "~650"],
        ["Typical power (W)\u00b2", "1,080", "1,150"],
    ]
    table = Table(rows)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "grey")]))
    note = (
        "\u00b9 Port-to-port, cut-through mode, 64-byte frames. \u00b2 Typical: 25 \u00b0C ambient, 50% load; "
        "excludes pluggable optics (up to 16 W per 800G OSFP module)."
    )
    path = tmp_path / "switch.pdf"
    SimpleDocTemplate(str(path)).build([Paragraph("SX Series AI fabric switches", body), table, Paragraph(note, body)])
    audit = pipeline.run(path)
    assert set(audit.document.footnotes) == {"\u00b9", "\u00b2"}
    assert figure(audit, "latency", "~700").basis == "hardware"
    assert values(audit, "power") == [1.08, 1.15]


def test_a_label_repeated_in_every_model_column_counts_once_for_the_kind_of_sheet(sheet):
    text = """# SX Series

The SX series puts 51.2 Tbps switching silicon into 2RU systems, up to 102.4 Tbps of switching capacity.

| | SX-64 | SX-128 | SX-256 |
|---|---|---|---|
| System throughput (Tbps) | 51.2 | 51.2 | 25.6 |
| Typical power (W) | 1,080 | 1,150 | 620 |
"""
    audit = sheet(text)
    assert audit.sheet_kind == "switch"
    assert figure(audit, "power", "1,080").scope == "per-switch"


def test_a_chinese_switch_table_power_without_optics_and_its_service_ports(sheet):
    text = """# 天穹 TQ-9860 交换机

| 参数 | TQ-9860-64E |
|---|---|
| 业务端口 | 64 × 800GE OSFP |
| 典型功耗（不含光模块） | 905W |
| 光模块 | 单端口支持功耗 ≤ 24W 的光模块 |

• 无损以太网：支持 PFC 死锁检测，死锁检测周期 100ms 可配置。
"""
    audit = sheet(text)
    assert values(audit, "power") == [0.905]  # the switch's; the optics' 24 W is not a figure
    assert figure(audit, "bandwidth", "800GE").tier != "front-end"  # 业务端口: the switch's data ports
    assert values(audit, "latency") == []  # a detection period is not a latency


def test_numbered_notes_under_a_latency_table_give_each_row_its_basis(sheet):
    text = """Latency
Halyard H8                       0.62 us (1)
Typical 400G NIC                 1.3 us (2)

(1) Adapter pipeline latency, PHY to PCIe, hardware timestamps.
(2) RDMA write latency, host to host, perftest ib_write_lat, 64-byte messages.
"""
    audit = sheet(text, name="nic.txt")
    assert figure(audit, "latency", "0.62 us").basis == "hardware"
    assert figure(audit, "latency", "1.3 us").basis == "end-to-end"
    assert "latency.conditions-missing" not in {f.code for f in audit.findings}  # its note names the test


def test_a_host_cpus_tdp_and_a_domain_named_by_its_fabric(sheet):
    text = """# KS8 OAM server

The modules are wired point to point over Infinity Fabric, so every node forms a single eight-accelerator xGMI
domain. A cabinet of this kind holds four APUs per blade.

| | KS8-A |
|---|---|
| Processors | 2x EPYC 9575F, 64 cores, 400 W TDP each |
| Accelerators | 8x OAM, 1,000 W TDP each |
"""
    audit = sheet(text)
    assert figure(audit, "power", "400 W").scope == "per-device"  # a CPU's, though its row says "Processors"
    assert figure(audit, "domain_size", "eight-accelerator").tier == "scale-up"


def test_chinese_counts_of_modules_and_cpus_and_power_with_optics(sheet):
    text = """# 青云 G880 训练服务器

整机单机8颗曜石 YS-300 OAM 加速模组，模组之间通过 YLink 全互联拓扑实现卡间互联。

| 参数 | 规格 |
|---|---|
| 处理器 | 2 颗 CPU，每颗 64 核 |
| 互联拓扑 | 4卡互联（桥接器） |
| 管理网络 | 1 × 千兆 BMC 管理口（RJ45） |
| 最大功耗 | 29.8W（含光模块 with optics） |
"""
    audit = sheet(text)
    assert {f.value for f in audit.figures if f.quantity == "domain_size"} == {8, 4}  # not the 2 CPUs
    assert figure(audit, "domain_size", text=None, value=8).tier == "scale-up"
    assert values(audit, "power") == [0.0298]  # the optics are part of it, not the figure
    assert 0.125 in values(audit, "bandwidth")  # 千兆: one gigabit, 0.125 GB/s


def test_a_vendors_own_link_is_scale_up_where_the_sheet_says_it_forms_the_domain(sheet):
    text = """# CX3 instances

Each CX3 instance is powered by up to 16 Cumulo C3 accelerators, which are connected inside the instance by
CumuloLink in a 4x4 two-dimensional torus.

CumuloLink provides 1 TB/s of bidirectional bandwidth per accelerator.
"""
    audit = sheet(text)
    assert figure(audit, "bandwidth", "1 TB/s").tier == "scale-up"


def test_a_chinese_test_report_perftest_rows_and_per_chip_power(sheet):
    text = """# 云帆 A8000 测试报告

| 项目 | 结果 |
|---|---|
| 加速模组 | 8 颗 OAM，单颗功耗 700W |
| ib_write_bw（64KB 消息） | 189.2Gb/s |
| 卡间 P2P 时延（8 字节，YCCL） | 4.2us |
| 最大功耗（满配光模块） | 2,180W |
"""
    audit = sheet(text)
    assert figure(audit, "power", "700W").scope == "per-accelerator"  # 单颗: per chip
    assert figure(audit, "bandwidth", "189.2Gb/s").tier == "scale-out"  # perftest over the RDMA network
    assert figure(audit, "latency", "4.2us").basis == "end-to-end"  # through the collective library
    assert 2.18 in values(audit, "power")  # 满配光模块: with its optics


@pytest.mark.parametrize(
    "text,size",
    [
        (
            "A two-tier leaf-spine fabric of SX switches connects up to 8,192 accelerators, each with a 400 Gb/s port.",
            8192,
        ),
        ("A full system of 200 cabinets reaches more than 100,000 APUs with at most three switch hops.", 100000),
    ],
)
def test_a_cluster_joined_by_a_switched_fabric_is_a_scale_out_count(sheet, text, size):
    assert figure(sheet(text), "domain_size", text=None, value=size).tier == "scale-out"


def test_a_fanless_liquid_build_and_a_standard_deviation(sheet):
    text = """| Item | Value |
|---|---|
| Cooling | 100% direct liquid cooling, fanless; facility water up to 32 °C |
| MPI latency | 1.9 µs (8-byte messages, osu_latency) |

Each latency value is the median of 1,000 iterations; run-to-run standard deviation was 0.4 µs.
"""
    audit = sheet(text)
    assert {f.value for f in audit.figures if f.quantity == "cooling"} == {"liquid"}
    assert values(audit, "latency") == [1900.0]


def test_a_table_laid_out_in_columns_of_spaces_is_read_model_by_model(sheet):
    """A plain-text sheet's table aligned with spaces (Chinese characters two columns wide), a cell continued on
    the next line, and a row with one value for every model."""
    text = """衡川 HC-9800 系列交换机

项目                  HC-9864D               HC-9828Q
--------------------------------------------------------------
业务端口              64 × 800GE OSFP        128 × 400GE QSFP112
端口拆分              1 × 800GE /            2 × 200GE
                      2 × 400GE
交换容量（Tbps）      102.4                  51.2
转发时延（ns）        ≤ 650                  ≤ 600
典型功耗（W）         1,450                  1,180
散热方式              风冷，前后风道（两款相同）
"""
    audit = sheet(text, name="switch.txt")
    power = {f.model: f.normalized["value"] for f in audit.figures if f.quantity == "power"}
    assert power == {"HC-9864D": 1.45, "HC-9828Q": 1.18}
    assert sorted(f.value for f in audit.figures if f.quantity == "latency") == [600, 650]
    assert [f.value for f in audit.figures if f.quantity == "cooling"] == ["air", "air"]


def test_a_caption_declares_its_tables_units_and_field_columns_carry_scope_and_direction(sheet):
    text = """# 通远 TS8000 测试报告

3.2 卡间 P2P 带宽（8 卡两两测试取平均，单位：GB/s）

| 测试项 | 单向 | 双向 |
|---|---|---|
| GPU 间 P2P 拷贝 | 55.1 | 108.7 |

3.6 功耗（整机输入功率单位：kW；单卡功耗单位：W）

| 工况 | 整机输入功率 | 单卡功耗 |
|---|---|---|
| 满载 | 9.82 | 741 |
"""
    audit = sheet(text)
    assert figure(audit, "bandwidth", "55.1").direction == "unidirectional"
    assert (
        figure(audit, "power", "9.82").scope == "per-node"
        and figure(audit, "power", "9.82").normalized["value"] == 9.82
    )
    assert figure(audit, "power", "741").scope == "per-accelerator"


def test_a_cloud_shapes_table_counted_ports_and_per_gpu_header_units(sheet):
    text = """# GPU shapes

| Shape | BM.GPU.NX-H8 |
|---|---|
| GPU Memory Bandwidth (TB/s per GPU) | 3.35 |
| RDMA Cluster Network Bandwidth (Gbps) | 8 x 400 |

A cluster network can hold up to 16,384 GPUs. Local NVMe drives deliver up to 6.8 GB/s sequential read each.
"""
    audit = sheet(text)
    assert figure(audit, "bandwidth", "3.35").tier == "memory"
    assert figure(audit, "bandwidth", "400").normalized["value"] == 50  # eight ports of 400 Gb/s
    assert figure(audit, "domain_size", "up to 16,384 GPUs").tier == "scale-out"
    assert 6.8 not in values(audit, "bandwidth")  # a drive's throughput


def test_a_count_after_per_is_a_ratio_not_a_domain(sheet):
    audit = sheet("Cluster network ...... 2x 400GbE RoCE v2 (OSFP), one NIC per two cards\n", name="s.txt")
    assert not [f for f in audit.figures if f.quantity == "domain_size"]


@pytest.mark.parametrize(
    "text,kw",
    [
        ("GPU power: 550-760 W per GPU", 0.76),
        ("板卡功耗：150~180W", 0.18),
        ("| Item | Value |\n|---|---|\n| Power (W) | 700-1000 |\n", 1.0),
    ],
)
def test_a_range_is_read_as_its_upper_end(sheet, text, kw):
    assert values(sheet(text), "power") == [kw]


def test_a_unit_column_and_a_long_bracketed_header(sheet):
    text = """| Parameter | Value | Unit |
|---|---|---|
| Leaf switch port-to-port latency | 130 | ns |
| Maximum cabinet power | 150 | kW |
| Weight, fully populated | 3,100 | kg |

| | XG-4 GPU blade |
|---|---|
| Accelerator link bandwidth (GB/s per accelerator, bidirectional) | 900 |
"""
    audit = sheet(text)
    assert figure(audit, "latency", "130").basis == "hardware"
    assert values(audit, "power") == [150.0]
    assert figure(audit, "bandwidth", "900").direction == "bidirectional"


@pytest.mark.parametrize(
    "text", ["通过 400GE RoCE 网卡横向扩展，支持万卡集群部署。", "采用三层组网可演进至十万卡级规模。"]
)
def test_a_round_scale_class_is_marketing_not_a_count(sheet, text):
    """万卡集群, 十万卡级: a class of scale, as "hyperscale" is; independent labellers of five blind sets counted no
    domain there (a printed number, "1,024 卡", is one)."""
    assert not [f for f in sheet(text).figures if f.quantity == "domain_size"]


def test_bullets_in_a_plain_text_release_are_items_of_their_own(sheet):
    text = """VIREO AX1 AT A GLANCE

  * 8 Vireo Xe chips per server, fully connected over VLink
  * Up to 3.2 TB/s of bidirectional VLink bandwidth per chip
  * 750 W per chip; about 10 kW per server at full load
  * Host: dual 96-core CPUs, 350 W TDP each per server
"""
    audit = sheet(text, name="release.txt")
    assert figure(audit, "domain_size", "8 Vireo Xe chips").tier == "scale-up"
    assert figure(audit, "bandwidth", "Up to 3.2 TB/s").direction == "bidirectional"
    assert figure(audit, "power", "750 W").scope == "per-accelerator"
    assert figure(audit, "power", "about 10 kW").scope == "per-node"
    assert figure(audit, "power", "350 W").scope == "per-device"
