"""Certainty on every figure, in the JSON and its schema (issue 20), and plausibility from the generation a sheet
names in words or implies by a product. Positive and negative sheets, written for the test."""

import json

import pytest

from conftest import ROOT, checks, figure, finding

import sheetaudit


def test_every_figure_says_how_it_was_read_in_the_json_and_the_schema(sheet):
    import jsonschema

    a = sheet(
        "# Helix G8 server\n\nEight GPUs fully connected through NVSwitch.\n\nNVLink: 900 GB/s per GPU\n\n"
        "Cluster networking: 8x 400 Gb/s InfiniBand NDR ports\n\nSystem power: 10.2 kW\n"
    )
    doc = sheetaudit.to_contract(a)
    schema = json.loads((ROOT / "sheetaudit" / "schema" / "sheetaudit-1.json").read_text("utf-8"))
    jsonschema.validate(doc, schema)
    assert all(f["certainty"] in ("stated", "inferred") and f["certainty_reason"] for f in doc["figures"])
    nv = figure(doc, "900 GB/s")
    assert nv["certainty"] == "inferred" and "direction" in nv["inferred"]  # NVLink's convention, not the sheet
    port = figure(doc, "400 Gb/s")
    assert port["certainty"] == "stated"  # a port speed: the standard's
    assert {"certainty", "inferred", "certainty_reason"} <= set(schema["$defs"]["figure"]["properties"])


def test_the_report_shows_how_each_figure_was_read(sheet):
    from sheetaudit.output.html_out import render

    a = sheet("# Helix G8 server\n\nNVLink: 900 GB/s per GPU\n")
    html = render(a, images=False)
    assert '<th scope="col">Read</th>' in html and "certainty-inferred" in html


@pytest.mark.parametrize(
    "words",
    [
        "fourth-generation NVLink",
        "NVLink 4 (fourth generation)",
        "NVLink Gen4",
        "NVIDIA NVLink, fourth generation",
        "H100 SXM NVLink",
    ],
)
def test_the_generation_named_in_words_decides_the_reference(sheet, words):
    a = sheet(f"# Helix H8 server\n\nGPU interconnect: {words}, 1,800 GB/s per GPU in each direction\n")
    x = finding(a, "bandwidth.exceeds-technology")
    assert x.severity == "error" and "NVLink 4" in x.message and "450 GB/s per direction" in x.message


@pytest.mark.parametrize("words", ["fourth-generation NVLink", "H100 SXM NVLink", "NVLink Gen4"])
def test_a_plausible_figure_of_the_named_generation_passes(sheet, words):
    """900 GB/s per GPU of NVLink 4 is plausible whether or not both directions are added: no doubt to report."""
    a = sheet(f"# Helix H8 server\n\nGPU interconnect: {words}, 900 GB/s per GPU\n")
    assert "bandwidth.exceeds-technology" not in checks(a)
    assert figure(a, "900 GB/s").technology_match["status"] == "matches"


def test_a_generation_named_elsewhere_on_the_sheet_is_a_question(sheet):
    a = sheet(
        "# Helix H8 server\n\nBuilt on fourth-generation NVLink and NVSwitch.\n\nGPU-to-GPU bandwidth over "
        "NVLink: 1,800 GB/s per GPU per direction\n"
    )
    x = finding(a, "bandwidth.exceeds-technology")
    assert x.severity == "warning" and x.certainty == "inferred" and "elsewhere" in x.certainty_reason


def test_an_800g_nic_behind_pcie_gen5_x16_is_a_host_bottleneck(sheet):
    a = sheet("# Halyard H8 SuperNIC\n\nNetwork: one 800 Gb/s XDR InfiniBand port\n\nHost interface: PCIe Gen5 x16\n")
    x = finding(a, "bandwidth.host-bottleneck")
    assert "63 GB/s per direction" in x.message and "100 GB/s" in x.message
    assert "PCIe" in x.question and "?" in x.question


def test_a_400g_nic_behind_pcie_gen5_x16_is_no_bottleneck(sheet):
    a = sheet("# Solvane SN5 adapter\n\nNetwork: one 400 Gb/s NDR InfiniBand port\n\nHost interface: PCIe Gen5 x16\n")
    assert "bandwidth.host-bottleneck" not in checks(a)


def test_a_fifth_generation_pcie_named_in_words_feeds_the_check(sheet):
    a = sheet("# Halyard H8 SuperNIC\n\nNetwork: one 800 Gb/s port\n\nHost interface: fifth-generation PCIe x16\n")
    assert "bandwidth.host-bottleneck" in checks(a)


def test_a_derived_value_resting_on_an_inferred_figure_is_not_charted(tmp_path):
    """The batch index draws a sheet's per-accelerator bandwidth only where it rests on stated figures."""
    from sheetaudit.batch.compare import sheet_row
    from sheetaudit.batch.index import index_charts

    p = tmp_path / "node.md"
    p.write_text(
        "# Zephyr node\n\nEight accelerators per node.\n\nFabric bandwidth: 7.2 TB/s\n\nCluster networking: "
        "8x 400 Gb/s InfiniBand NDR ports\n",
        encoding="utf-8",
    )
    c = sheetaudit.to_contract(sheetaudit.audit(p))
    row = sheet_row("node.md", c, None)
    if row.get("scale_up") and row["scale_up"]["how"] == "derived":
        assert row["scale_up"].get("inferred")
        charts = index_charts([row])
        assert all("scale-up" not in svg or "7,200" not in svg for _, svg, _ in charts)
    # and one resting on stated figures is charted
    q = tmp_path / "ok.md"
    q.write_text(
        "# Helix node\n\nEight GPUs fully connected through NVSwitch.\n\nNVLink: 900 GB/s per GPU, "
        "bidirectional\n\nCluster networking: 8x 400 Gb/s InfiniBand NDR ports, one per GPU\n",
        encoding="utf-8",
    )
    ok = sheet_row("ok.md", sheetaudit.to_contract(sheetaudit.audit(q)), None)
    assert ok["scale_up"] and not ok["scale_up"].get("inferred")
    assert index_charts([ok])


def test_certainty_of_one_huge_paragraph_costs_about_linear_time():
    """Every figure of a page printed as one paragraph asks the same questions of the same text: asked once."""
    import time

    from sheetaudit.stages.s6_certainty import assess
    from sheetaudit.stages.s4_classify import classify
    from sheetaudit.stages.s3_context import sheet_context
    from sheetaudit.stages.s1_find import find_mentions
    from sheetaudit.records import Document, Segment
    from sheetaudit.stages.s5_normalise import normalise

    line = "The fabric carries 400 Gb/s per port and 900 GB/s NVLink per GPU at 650 W, "

    def cost(chars):
        text = (line * (chars // len(line) + 1))[:chars]
        doc = Document(path="p", sha256="", pages=1, kind="text", segments=[Segment(text, 1, "sentence")])
        figs = normalise(classify(find_mentions(doc), sheet_context(doc, find_mentions(doc))))
        start = time.process_time()
        assess(figs)
        return time.process_time() - start

    cost(2_000)
    small, large = cost(5_000), cost(40_000)
    assert large < 24 * max(small, 0.005), (small, large)


def test_certainty_is_one_stage_run_once(monkeypatch):
    """The pipeline assesses every figure once, as its own stage; the checks after it only read the result."""
    from sheetaudit import pipeline
    from sheetaudit.stages import s6_certainty

    calls = []
    real = s6_certainty.assess

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(s6_certainty, "assess", counted)
    monkeypatch.setattr(pipeline, "assess", counted)
    a = pipeline.run(ROOT / "samples" / "kestrel-k8x-gpu-server.pdf")
    assert calls == [1] and all(f.certainty in ("stated", "inferred") for f in a.figures)
