"""The technology knowledge base (rules/technologies.yaml): every row sourced, its arithmetic consistent, and
the plausibility checks it drives, on fictional sheets with impossible claims and with plausible ones."""

import copy

import pytest

from sheetaudit.errors import RulesError
from sheetaudit.rules import load_rules
from sheetaudit.technologies import build, load
from conftest import figure, finding, run_cli

NEW_CHECKS = {
    "bandwidth.exceeds-technology",
    "tier.domain-exceeds-technology",
    "bandwidth.host-bottleneck",
    "latency.no-rdma",
}


def rows():
    return [(t["name"], g) for t in load_rules().technologies["technologies"] for g in t.get("generations") or []]


@pytest.mark.parametrize("tech,row", rows(), ids=[f"{t}-{g['gen']}" for t, g in rows()])
def test_every_row_names_its_source_and_when_it_was_checked(tech, row):
    assert len(str(row.get("source", ""))) > 20, f"{tech} {row['gen']}: no source"
    assert str(row.get("checked", ""))[:2] == "20", f"{tech} {row['gen']}: no checked date"


def test_a_row_without_a_source_is_refused():
    doc = copy.deepcopy(load_rules().technologies)
    del doc["technologies"][1]["generations"][0]["source"]
    with pytest.raises(RulesError, match="source"):
        build(doc)


def test_pcie_payloads_are_lane_rate_times_encoding_times_width():
    for g in load().get("PCIe").generations:
        a, b = g.get("encoding")
        for width, v in g.get("payload_gbs").items():
            expected = g.get("lane_gts") * a / b / 8 * int(width[1:])
            assert v == pytest.approx(expected, rel=0.015), (g.label, width)


def test_per_accelerator_rates_are_links_times_link_rate():
    for g in load().generations():
        if g.get("links_per_accelerator") and g.get("per_link_gbs") and g.get("per_accelerator_gbs"):
            assert g.get("per_accelerator_gbs") == g.get("links_per_accelerator") * g.get("per_link_gbs"), g.label


def test_the_stages_read_the_generation_table_they_always_used():
    kb = load()
    nvlink = {g.gen: g for g in kb.get("NVLink").generations}
    assert [nvlink[n].get("per_link_gbs") for n in "12345"] == [20, 25, 25, 25, 50]
    assert [2 * nvlink[n].get("per_accelerator_gbs") for n in "123456"] == [160, 300, 600, 900, 1800, 3600]
    pcie = {g.gen: g.get("x16_quoted_bidirectional") for g in kb.get("PCIe").generations}
    assert pcie == {"1": 8, "2": 16, "3": 32, "4": 64, "5": 128, "6": 256, "7": 512}
    ib = {g.gen: g.get("port_gbps")["4x"] for g in kb.get("InfiniBand").generations}
    assert ib == {"SDR": 10, "DDR": 20, "QDR": 40, "FDR": 56, "EDR": 100, "HDR": 200, "NDR": 400, "XDR": 800}
    assert kb.technologies[0].name == "NVLink-C2C"  # matched before plain NVLink
    assert kb.names("scale-up") >= {
        "NVLink",
        "NVSwitch",
        "Infinity Fabric",
        "UALink",
        "HCCS",
        "ICI",
        "NeuronLink",
        "MLU-Link",
        "MTLink",
    }
    assert kb.standard_networks() == {"Ethernet", "InfiniBand", "RoCE", "EFA"}
    assert kb.port_speeds() >= {1, 2.5, 5, 10, 25, 40, 50, 56, 100, 200, 400, 800, 1600}


@pytest.mark.parametrize(
    "text,label",
    [
        ("NVLink 4", "NVLink 4"),
        ("fourth-generation NVLink", "NVLink 4"),
        ("第五代NVLink", "NVLink 5"),
        ("PCIe 5.0 x16", "PCIe Gen5"),
        ("PCIe Gen4", "PCIe Gen4"),
        ("NDR400", "InfiniBand NDR"),
    ],
)
def test_a_generation_is_recognised_as_sheets_write_it(text, label):
    kb = load()
    assert [g.label for t in kb.technologies for g in t.named(text)] == [label]


IMPOSSIBLE = {
    # fictional sheets, each with one claim its named generation cannot carry
    "bandwidth.exceeds-technology": [
        "# Plover P8 GPU server\n\nGPU interconnect: fourth-generation NVLink, 900 GB/s per direction per GPU\n",
        "# Tern T4 HCA\n\nInfiniBand: HDR, 400 Gb/s per port\n",
        "# Avocet A2 server\n\nHost interface: PCIe Gen4 x16, 64 GB/s per direction\n",
    ],
    "tier.domain-exceeds-technology": [
        "# Godwit G3 pod\n\nScale-up: NVLink 3 through NVSwitch, 600 GB/s per GPU; 128 GPUs per NVLink domain\n",
    ],
    "bandwidth.host-bottleneck": [
        "# Dunlin D1 NIC adapter\n\nNetwork adapter: one 400 Gb/s port; host interface PCIe Gen3 x16\n",
    ],
    "latency.no-rdma": [
        "# Stint S8 GPU server\n\naccelerators_per_node: 8\n\nCluster networking: 8x 200GbE ports, TCP/IP offload\n",
    ],
}

PLAUSIBLE = [
    "# Plover P8 GPU server\n\nGPU interconnect: fourth-generation NVLink, 900 GB/s per GPU; eight GPUs fully connected "
    "through NVSwitch\n\nCluster networking: 8x 400 Gb/s InfiniBand NDR, one per GPU\n\nHost interface: PCIe Gen5 x16\n",
    "# Tern T4 HCA\n\nInfiniBand: HDR, 200 Gb/s per port\n\nHost interface: PCIe Gen4 x16\n",
    "# Avocet A2 server\n\nHost interface: PCIe Gen4 x16, 64 GB/s\n",
    "# Godwit G5 rack\n\nScale-up: NVLink 5, 1.8 TB/s per GPU; 72 GPUs per NVLink domain\n",
    "# Stint S8 GPU server\n\naccelerators_per_node: 8\n\nCluster networking: 8x 200GbE ports with RoCE v2 and "
    "GPUDirect RDMA\n",
]


@pytest.mark.parametrize("code,text", [(c, t) for c, ts in IMPOSSIBLE.items() for t in ts])
def test_an_impossible_claim_is_found(sheet, code, text):
    found = [f for f in sheet(text).findings if f.check == code]
    assert found, code
    if code != "latency.no-rdma":  # a quantitative claim: the message shows the reference's arithmetic
        assert "Source:" in found[0].message or "carries" in found[0].message


@pytest.mark.parametrize("text", PLAUSIBLE)
def test_a_plausible_sheet_raises_none_of_them(sheet, text):
    assert not NEW_CHECKS & {f.check for f in sheet(text).findings}


def test_the_message_gives_the_reference_and_how_far_off_the_sheet_is(sheet):
    a = sheet(IMPOSSIBLE["bandwidth.exceeds-technology"][0])
    f = finding(a, "bandwidth.exceeds-technology")
    assert "NVLink 4 carries 18 links x 25 GB/s = 450 GB/s per direction per accelerator" in f.message
    assert "2.0x that" in f.message


def test_each_bandwidth_shows_the_generation_it_matches_or_could_be(sheet):
    a = sheet(PLAUSIBLE[0])
    by_text = {f.text: f.to_json().get("technology_match") for f in a.figures if f.quantity == "bandwidth"}
    assert by_text["900 GB/s"]["status"] == "matches" and by_text["900 GB/s"]["generation"] == "NVLink 4"
    loose = sheet("# Osprey server\n\nGPU-to-GPU bandwidth: 900 GB/s per GPU\n", name="loose.md")
    g = figure(loose, quantity="bandwidth")
    assert "NVLink 4" in g.technology_match["candidates"]


def test_the_report_shows_the_match_beside_the_figure(sheet):
    from sheetaudit.output.html_out import render

    html = render(sheet(PLAUSIBLE[0]), images=False)
    assert "matches NVLink 4: 18 links x 25 GB/s = 450 GB/s per direction per accelerator" in html


def test_tech_lists_the_knowledge_base_and_explains_one_generation():
    listing = run_cli("tech")
    assert listing.returncode == 0 and "NVLink 4" in listing.stdout and "PCIe Gen7" in listing.stdout
    one = run_cli("tech", "NVLink 3")
    assert "12 links x 25 GB/s = 300 GB/s" in one.stdout and "Source:" in one.stdout and "Checked:" in one.stdout
    assert run_cli("tech", "FooLink 9").returncode == 2


def test_the_batch_marks_a_per_accelerator_value_no_technology_carries():
    from sheetaudit.batch.tables import comparison_rows, implausible

    row = {"scale_up": {"value": 7200.0, "how": "stated"}, "scale_out": {"value": 50.0, "how": "stated"}}
    assert "above any technology's ceiling" in implausible(row)
    assert implausible({"scale_up": {"value": 450.0, "how": "stated"}, "scale_out": None}) == ""
    sheet_row = {
        "sheet": "x.pdf",
        "kind": "server",
        "scale_up": row["scale_up"],
        "scale_out": None,
        "ratio": None,
        "port": None,
        "domain": None,
        "latency": {},
        "node_power": None,
        "rack_power": None,
        "cooling": [],
        "findings": {"error": 0, "warning": 0, "info": 0},
        "figures": 1,
        "report": None,
    }
    (out,) = comparison_rows([{"sheet": "x.pdf", "row": sheet_row}])
    assert out["implausible"].startswith("scale-up 7,200 GB/s")  # numbers as numfmt prints them
