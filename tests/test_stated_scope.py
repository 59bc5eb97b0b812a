"""A total whose sentence names the whole it is over ('delivering 80 Gbps to the server', 'of an HLS-3 box',
'per node') is a fact: divided out, never asked about. A port speed beside it is a port's, never divided as a
server's total; a figure printed with its other-direction twin is one question, not two."""

import pytest

from conftest import ROOT, figure, finding

CORPUS = ROOT.parent / "shared" / "corpus"

BLADE = (
    "# Plover P2 Blade Server\n\nThe blade holds two GPUs.\n\n"
    "- Optional rear mezzanine adapter with two 40-Gbps unified I/O ports, delivering 80 Gbps to the server; "
    "adapts to either 10- or 40-Gbps fabric connections\n- Maximum power: 1.2 kW\n"
)


def sent(a) -> list:
    return [x for x in a.findings if x.severity in ("error", "warning") and x.question and not x.asked_in]


def test_a_total_said_to_be_the_servers_is_not_asked_about_its_scope(sheet):
    a = sheet(BLADE)
    x = finding(a, "tier.aggregate-figure")
    assert x.severity == "info" and not x.question
    assert "80 Gbps" in x.message and "as the sheet says" in x.message
    assert not any("whole server" in q.question or "per accelerator" in q.question for q in sent(a))


def test_a_fabric_port_speed_is_not_divided_as_a_server_total(sheet):
    a = sheet(BLADE)
    for f in a.figures:
        if f.text == "40-Gbps":
            assert f.scope == "per-port"
    assert [x.figures for x in a.findings if x.check == "tier.aggregate-figure"] == [[figure(a, "80 Gbps").id]]


def test_a_total_the_sheet_does_not_place_is_still_a_question(sheet):
    """'aggregated bandwidth' says it is a sum, not of what: the vendor is asked."""
    a = sheet(
        "# Helix G8 GPU server\n\naccelerators_per_node: 8\n\n"
        "accelerator_interconnect: 18x 5th Gen NVLink, 14.4 TB/s aggregated bandwidth\n"
    )
    x = finding(a, "tier.aggregate-figure")
    assert x.severity == "warning" and "total for the whole" in x.question


GAUDI = (
    "# Vireo V3 accelerator\n\nEach Vireo V3 accelerator has three scale-out ports running at 200Gbps. "
    "The scale-out bandwidth of a V3 box consisting of 8 Vireo accelerators is 3*8*200Gbps = 600 GB/s "
    "unidirectional bandwidth or 1200 GB/s bidirectional bandwidth.\n"
)


def test_a_figure_and_its_other_direction_twin_are_one_finding(sheet):
    a = sheet(GAUDI)
    x = finding(a, "tier.aggregate-figure")
    assert {figure(a, t).id for t in ("600 GB/s", "1200 GB/s")} == set(x.figures)
    assert "/ 8 = 75 GB/s" in x.message
    assert figure(a, "200Gbps", first=True).scope == "per-port"  # a factor of the sheet's own product


def test_twins_doubted_by_two_checks_make_one_question():
    from sheetaudit.stages.s8_checks.one_question import merge
    from sheetaudit.records import Figure, Finding, Segment

    seg = Segment(page=1, text="a box moves 600 GB/s unidirectional bandwidth or 1200 GB/s bidirectional bandwidth")
    one = Figure(
        id="f1",
        quantity="bandwidth",
        text="600 GB/s",
        value=600.0,
        unit="GB/s",
        page=1,
        context="",
        direction="unidirectional",
        tier="scale-out",
        scope="per-node",
        segment=seg,
        normalized={"value": 600.0, "unit": "GB/s"},
    )
    two = Figure(
        id="f2",
        quantity="bandwidth",
        text="1200 GB/s",
        value=1200.0,
        unit="GB/s",
        page=1,
        context="",
        direction="bidirectional",
        tier="scale-out",
        scope="per-node",
        segment=seg,
        normalized={"value": 600.0, "unit": "GB/s"},
    )
    a = Finding(
        "tier.aggregate-figure",
        1,
        "warning",
        "",
        figures=["f1"],
        question="Is the 600 GB/s on page 1 the total for the whole server? What is it per accelerator, "
        "and per direction?",
    )
    b = Finding(
        "tier.aggregate-figure",
        1,
        "warning",
        "",
        figures=["f2"],
        question="Is the 1200 GB/s on page 1 the total for the whole server? What is it per accelerator, "
        "and per direction?",
    )
    merge([a, b], [one, two], None)
    assert a.question and not b.question and b.asked_in == "tier.aggregate-figure"


@pytest.mark.parametrize(
    "name, asked_not",
    [
        ("real-cisco-ucs-b200-m5-datasheet.pdf", ("the 80 Gbps on page 2", "the 40-Gbps on page 2")),
        (
            "real-intel-gaudi3-network-configuration.txt",
            ("600 GB/s", "1200 GB/s", "3*8*200Gbps", "per port or a total"),
        ),
    ],
)
def test_the_real_sheets_ask_nothing_about_a_stated_scope(name, asked_not):
    path = CORPUS / name
    if not path.exists():
        pytest.skip("the shared corpus is not here")
    from sheetaudit import pipeline

    asked = " ".join(x.question for x in sent(pipeline.run(path)))
    for text in asked_not:
        assert text not in asked
