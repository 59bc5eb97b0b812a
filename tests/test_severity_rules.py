"""Cry no wolf (issue 20): an error only on certain evidence, a warning only for a real question. Each rule here
failed before severity followed certainty: the sheets are written for the test, each the shape of a real one."""

from conftest import checks, figure, finding


def severities(a, code: str) -> set:
    return {f.severity for f in a.findings if f.check == code}


# --- tier.mixed-sum: a sum needs the document to say so --------------------------------------------------------


def test_port_speeds_that_happen_to_add_up_are_no_mixed_sum(sheet):
    """'10G, 40G and 50G' on a switch sheet: 10 + 40 = 50 by coincidence; nothing calls 50G a sum."""
    a = sheet(
        "# Acme 7050 switch\n\nInterface speeds: 10G, 25G, 40G, 50G, 100G, 200G and 400G combined with "
        "flexible breakouts.\n\nEach port supports 400GbE, 200GbE, 100GbE, 50GbE, 40GbE, 25GbE and 10GbE modes.\n"
    )
    assert "tier.mixed-sum" not in checks(a)


def test_a_total_the_document_calls_one_is_a_mixed_sum_and_an_error(sheet):
    a = sheet(
        "# Vantage pod\n\nUp to 7.2 TB/s of NVLink bandwidth in every node and 3.2 Tbps of cluster "
        "networking.\n\nTotal I/O bandwidth: 10.4 TB/s\n"
    )
    assert severities(a, "tier.mixed-sum") == {"error"}


def test_a_total_with_its_parts_written_out_is_a_mixed_sum(sheet):
    a = sheet("# Palisade node\n\n4.8 TB/s NVLink per node plus 1.6 Tb/s of Ethernet per node, a combined 6.4 TB/s.\n")
    assert "tier.mixed-sum" in checks(a)


def test_both_directions_added_is_not_a_sum_of_tiers(sheet):
    a = sheet(
        "# Xinghe supernode\n\n超节点内单卡互联带宽 800GB/s（双向），超节点总互联带宽 51.2TB/s（双向合计）。\n\n"
        "超节点互联: 64 × 400Gbps 端口\n\n参数面网络: 每颗 NPU 1 × 400Gb/s RoCE v2 端口\n"
    )
    assert "tier.mixed-sum" not in checks(a)


# --- bandwidth.aggregate-mismatch: the sheet's own configuration --------------------------------------------


def test_a_mixed_speed_configuration_is_summed(sheet):
    """48 x 100G + 8 x 400G = 8.0 Tb/s; the 10GbE breakout count is an option, not the configuration."""
    a = sheet(
        "# Acme 7050SDX4 switch\n\nThe 7050SDX4-48D8 is a 1RU system with 48 100G SFP-DD and 8 400G QSFP-DD "
        "ports offering wire speed throughput of up to 8.0 Tbps.\n\nEach QSFP-DD port supports a choice of "
        "speeds between 400GbE, 100GbE and 10GbE modes for up to 128 x 10GbE ports.\n"
    )
    assert "bandwidth.aggregate-mismatch" not in checks(a)


def test_a_total_beside_a_configuration_it_does_not_equal_is_an_error(sheet):
    a = sheet(
        "# Hengchuan HC-9856M switch\n\n业务端口: 48 × 200GE QSFP56 + 8 × 400GE QSFP112\n\n端口拆分: 2 × 200GE / "
        "4 × 100GE\n\n交换容量: 19.2 Tbps\n"
    )
    # 48 x 200 + 8 x 400 = 12.8 Tb/s, 25.6 with both directions: 19.2 is neither (a single term, 48 x 200GE
    # both ways, happens to give 19.2: it is not the configuration)
    assert severities(a, "bandwidth.aggregate-mismatch") == {"error"}


def test_no_configuration_for_the_total_no_mismatch(sheet):
    """A chassis total against its line card's ports: another total (per line card) counts those ports."""
    a = sheet(
        "# Corvina 7816 chassis switch\n\nSwitching capacity: 921.6 Tbps\n\nLine card capacity: 28.8 Tbps per "
        "line card\n\nLine card ports: 36 x 800GbE OSFP\n"
    )
    assert "bandwidth.aggregate-mismatch" not in checks(a)


def test_several_configurations_none_named_is_a_question_not_an_error(sheet):
    a = sheet(
        "# Acme switch family\n\nSwitching capacity: 9.6 Tb/s\n\nUplinks: 32 x 400GbE\n\nDownlinks: 48 x "
        "100GbE and 8 x 400GbE\n"
    )
    assert severities(a, "bandwidth.aggregate-mismatch") == {"warning"}
    x = finding(a, "bandwidth.aggregate-mismatch")
    assert x.certainty == "inferred" and x.message.startswith("How is the 9.6 Tb/s")


# --- stated vs inferred -------------------------------------------------------------------------------------


def test_an_error_resting_on_an_inferred_technology_is_a_warning_worded_as_a_question():
    """'900 GB/s ... or 5x the bandwidth of PCIe Gen5' read as a PCIe figure: PCIe is the comparator."""
    from sheetaudit.stages.s8_checks import run_checks
    from sheetaudit.stages.s6_certainty import assess
    from sheetaudit.records import Document, Figure, Segment

    seg = Segment(
        text="Two cards connected by a bridge deliver 900 GB/s bidirectional bandwidth or 5x the "
        "bandwidth of PCIe Gen5.",
        page=5,
    )
    f = Figure(
        id="f1",
        quantity="bandwidth",
        text="900 GB/s",
        value=900,
        unit="GB/s",
        page=5,
        context=seg.text,
        tier="host",
        direction="bidirectional",
        scope="per-link",
        technology="PCIe",
        normalized={"value": 450.0, "unit": "GB/s"},
        segment=seg,
    )

    class Sheet:
        kind, scale_up_links = "accelerator", ()

    assess([f], Sheet())
    assert f.certainty == "inferred" and "comparison" in f.inferred["technology"]
    doc = Document(path="brief.pdf", sha256="", pages=5, kind="pdf", segments=[seg])
    findings, _ = run_checks([f], Sheet(), doc)
    assert not [x for x in findings if x.severity == "error"]  # the comparator names no generation of this link
    # and were a check to conclude an error from that reading, it would be a warning worded as a question
    from sheetaudit.stages.s8_checks import finding as make
    from sheetaudit.stages.s6_certainty import temper

    said = {"generation": "PCIe Gen5", "reference": "63 GB/s per direction", "scope": f.scope, "times": 7.1}
    x = make(
        "bandwidth.exceeds-technology",
        [f],
        asked={**said, "figure": "the 900 GB/s on page 5", "unit": "accelerator", "technology": "PCIe"},
        data={**said, "figure": "900 GB/s", "pages": [5], "reading": "900 GB/s", "source": "PCI-SIG"},
    )
    (t,) = temper([x], [f])
    assert t.severity == "warning" and t.certainty == "inferred"
    assert t.message.startswith("The 900 GB/s on page 5 is more than PCIe Gen5 carries (63 GB/s per direction).")
    assert "named only as a comparison" in t.message


def test_a_stated_figure_keeps_its_error(sheet):
    a = sheet("# Helix server\n\nGPU interconnect: NVLink 3, 600 GB/s per direction per GPU\n")
    f = figure(a, "600 GB/s")
    assert f.certainty == "stated"
    assert severities(a, "bandwidth.exceeds-technology") == {"error"}


def test_a_total_beside_a_per_gpu_figure_is_no_certain_per_gpu_figure(sheet):
    """'1.8 TB/s per GPU (14.4 TB/s total)': the 14.4 is not per GPU, whatever the sentence's 'per GPU' says."""
    a = sheet(
        "# Kestrel KX8-B server\n\nGPU-to-GPU interconnect: Fifth-generation NVLink, 1.8 TB/s per GPU (14.4 TB/s "
        "total)\n"
    )
    assert "error" not in severities(a, "bandwidth.exceeds-technology")


# --- warnings only for real questions ----------------------------------------------------------------------


def test_port_speeds_read_by_the_ethernet_standard_raise_no_direction_warning(sheet):
    a = sheet(
        "# Pelican PN5164 switch\n\nPorts: 64 x 800GbE OSFP\n\nSwitching capacity: 51.2 Tb/s\n\n"
        "Port-to-port latency: 600 ns (cut-through)\n\nTypical power: 1,450 W\n"
    )
    assert severities(a, "bandwidth.direction-unspecified") <= {"info"}
    f = figure(a, "800GbE")
    assert f.certainty == "stated" and "standard" in f.certainty_reason


def test_a_measured_bus_bandwidth_raises_no_direction_warning(sheet):
    a = sheet("# Qingyun Q8 test report\n\nall_reduce bus bandwidth: 365 GB/s (8 GPUs, nccl-tests, 8 GiB messages)\n")
    assert "warning" not in severities(a, "bandwidth.direction-unspecified")


def test_an_nvlink_total_without_direction_is_still_a_question(sheet):
    a = sheet("# Helix G8 server\n\nEight GPUs fully connected through NVSwitch.\n\nNVLink: 900 GB/s per GPU\n")
    assert severities(a, "bandwidth.direction-unspecified") == {"warning"}


def test_a_complete_well_written_datasheet_can_pass(sheet):
    import sheetaudit

    a = sheet(
        "# Corvid CX400 network adapter\n\nPorts: two 400 Gb/s InfiniBand NDR ports\n\nHost interface: PCIe "
        "Gen5 x16\n\nRDMA latency: 0.6 µs end-to-end, 2-byte messages (ib_write_lat)\n\nTypical power: 25 W\n"
    )
    assert sheetaudit.to_contract(a)["status"] == "pass", [(f.check, f.severity) for f in a.findings]
