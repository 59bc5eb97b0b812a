"""What a sheet does not say is a question, never a verdict against it (issue 28, items 2 and 3): a system sheet
that names its fabric but gives no bandwidth for it is REVIEW with the question; a requirement the sheet is silent
on is not-stated, never falls-short; an accelerator card is neither a system nor a switch, and the batch asks
each kind of sheet only what it can answer."""

import json

from conftest import checks, finding, run_cli

from sheetaudit import to_contract

NAMED_ONLY = (
    "# Helix G1 GPU server\n\nEight GPUs joined by NVLink in a hybrid cube-mesh.\n\n"
    "Networking: 4x EDR InfiniBand 100 Gb/s\n\nSystem power: 3.5 kW max\n"
)


def test_a_fabric_named_without_its_bandwidth_is_a_question(sheet):
    a = sheet(NAMED_ONLY)
    f = finding(a, "bandwidth.headline-missing")
    assert f.severity == "warning" and f.data == {"tier": "scale-up", "fabric": "NVLink"}
    assert "NVLink" in f.question and "per direction" in f.question and "?" in f.question
    assert to_contract(a)["status"] == "review"


def test_a_fabric_with_its_bandwidth_asks_nothing_of_it(sheet):
    a = sheet(NAMED_ONLY.replace("hybrid cube-mesh.", "hybrid cube-mesh, 300 GB/s per GPU."))
    assert "bandwidth.headline-missing" not in checks(a)


def test_a_component_sheet_is_not_asked_for_a_system_figure(sheet):
    a = sheet(
        "# Vireo V40 PCIe accelerator card\n\nOne card per slot; NVLink bridge to a second card.\n\nPower: 350 W TDP\n"
    )
    assert "bandwidth.headline-missing" not in checks(a)


ETHERNET_ONLY = (
    "# Beta B4 Server\n\nFour Beta GPUs share one xGMI domain.\n\nxGMI: 800 GB/s per GPU\n\n"
    "Cluster networking: 4x 400GbE ports, PFC and ECN\n\nRack power: 30 kW\n"
)


def test_rdma_never_mentioned_is_not_stated_with_its_question(tmp_path):
    (tmp_path / "rfp.yaml").write_text("rdma: required\n", encoding="utf-8")
    (tmp_path / "beta.md").write_text(ETHERNET_ONLY, encoding="utf-8")
    ran = run_cli("check", tmp_path / "beta.md", "--require", tmp_path / "rfp.yaml", "--format", "json")
    (r,) = json.loads(ran.stdout)["requirements"]["results"]
    assert r["result"] == "not-stated" and "RDMA" in r["question"] and "400GbE" in r["question"]


def test_a_shortfall_read_by_inference_is_uncertain(tmp_path):
    from sheetaudit.requirements.evaluate import _doubt

    assert _doubt({"inferred": {"direction": "convention"}}) == ""
    assert "scope" in _doubt({"inferred": {"scope": "no word beside it says whose it is"}})


CARD = (
    "# Kestrel KX300 OAM accelerator\n\nOne KX300 OAM module: scale-up links 7x 128 GB/s, 896 GB/s per "
    "accelerator\n\nPower: 750 W TDP\n"
)
RACK = "# Orion rack-scale system\n\nRack power: 36 kW\n\nCooling: air-cooled\n"


def test_an_accelerator_card_is_not_asked_for_its_rack_power(tmp_path):
    from sheetaudit.batch.compare import compare, sheet_row

    items = []
    for i, text in enumerate((CARD, RACK)):
        p = tmp_path / f"s{i}.md"
        p.write_text(text, encoding="utf-8")
        c = to_contract(__import__("sheetaudit").audit(p))
        items.append((sheet_row(p.name, c, None), c))
    assert items[0][1]["sheet_kind"] == "accelerator"
    found = {f["check"]: f for f in compare(items)}
    assert "compare.rack-power-omitted" not in found and "compare.cooling-omitted" not in found


def test_the_requirements_verdict_counts_an_accelerator_card_apart():
    from sheetaudit.batch.index import requirements_verdict

    counts = {"meets": 2, "falls-short": 0, "uncertain": 0, "not-stated": 1, "not-applicable": 5}
    said = requirements_verdict(
        [
            {"outcome": "open", "counts": counts, "kind": "accelerator"},
            {"outcome": "open", "counts": counts, "kind": "switch"},
        ]
    )
    assert "1 accelerator sheet" in said and "1 switch or NIC sheet" in said


def test_a_list_inside_parentheses_stays_one_sentence():
    """latency.no-rdma names the Ethernet ports inside parentheses: at most three there, and never cut into bullets
    (it was 23 bullets inside an open parenthesis, in the terminal and the report)."""
    from sheetaudit.stages.s8_checks.wording import render
    from sheetaudit.output.message import split_list

    items = [{"figure": f"{g}GbE", "pages": [p]} for p, g in enumerate((10, 25, 40, 50, 100, 200, 400), 1)]
    msg = render(
        "The scale-out fabric is Ethernet ({items}) and the sheet names no RDMA transport.",
        {"items": items},
        each="{figure} ({pages})",
    )
    assert msg == (
        "The scale-out fabric is Ethernet (10GbE (p1); 25GbE (p2); 40GbE (p3) and 4 more) and the sheet "
        "names no RDMA transport."
    )
    assert split_list(msg) == (msg, [], "")
    listed = render(
        "Stated as both directions added, halved: {items}.", {"items": items[:2]}, each="{figure} ({pages}) = x"
    )
    assert split_list(listed).items == ["10GbE (p1) = x", "25GbE (p2) = x"]  # a list after its sentence: bullets
