"""The product's name is what a buyer calls the product: the model or product name, never a section heading
("Product Highlights"), a tagline ("Powerful Networking for the Future of AI") or the document's type
("Datasheet"); and every output prints the same one.

The real vendor PDFs of the shared corpus are named as their covers name them (the expected names written from
the documents themselves); sheets written in several vendors' styles (tests/names/, made by
tests/names/make_name_pdfs.py) show the mechanism holds beyond them."""
import csv
import json
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from sheetaudit.naming import product_name
from sheetaudit.read import read_document

CORPUS = ROOT.parent / "shared" / "corpus"
STYLED = ROOT / "tests" / "names"

REAL_PDFS = {
    "real-arista-7050x4-datasheet.pdf": "Arista 7050X4 Series",
    "real-cisco-ucs-b200-m5-datasheet.pdf": "Cisco UCS B200 M5 Blade Server",
    "real-cisco-ucs-b480-m5-datasheet.pdf": "Cisco UCS B480 M5 Blade Server",
    "real-juniper-mx301-flowspec-techpost.pdf": "MX301",
    "real-mellanox-sn2700-product-brief.pdf": "Mellanox SN2700 Open Ethernet Switch",
    "real-nvidia-a100-datasheet.pdf": "NVIDIA A100 Tensor Core GPU",
    "real-nvidia-blackwell-gtc2024-press-release.pdf": "NVIDIA Blackwell Platform",
    "real-nvidia-connectx-8-supernic-datasheet.pdf": "NVIDIA ConnectX-8 SuperNIC",
    "real-nvidia-dgx-1-volta-datasheet.pdf": "NVIDIA DGX-1",
    "real-nvidia-dgx-a100-datasheet.pdf": "NVIDIA DGX A100",
    "real-nvidia-dgx-basepod-reference-architecture.pdf": "NVIDIA DGX BasePOD",
    "real-nvidia-dgx-family-ebook.pdf": "NVIDIA DGX Systems",
    "real-nvidia-dgx-station-datasheet.pdf": "NVIDIA DGX Station",
    "real-nvidia-h100-datasheet.pdf": "NVIDIA H100 Tensor Core GPU",
    "real-nvidia-h100-pcie-product-brief.pdf": "NVIDIA H100 PCIe GPU",
    "real-nvidia-rtx6000-ada-datasheet.pdf": "NVIDIA RTX 6000 Ada Generation",
    "real-nvidia-t400-datasheet.pdf": "NVIDIA T400",
}

# What the covers print in their largest type or first that is not a name (the old title of several of them).
NOT_NAMES = ("Product Highlights", "Powerful Networking for the Future of AI", "The Challenges of Building",
             "Datasheet", "Data Sheet", "Product Brief", "Incredible Performance", "Powering the Next Era")


def name_of(path: Path) -> str:
    doc = read_document(path)
    doc.path = str(path)
    return product_name(doc)


@pytest.mark.parametrize("sheet", sorted(REAL_PDFS))
def test_real_vendor_pdfs_are_named_by_their_product(sheet):
    path = CORPUS / sheet
    if not path.exists():
        pytest.skip(f"{path} is not here")
    name = name_of(path)
    assert name == REAL_PDFS[sheet]
    assert not any(bad.lower() in name.lower() for bad in NOT_NAMES)


def test_every_real_pdf_of_the_corpus_is_listed():
    if not CORPUS.exists():
        pytest.skip("the shared corpus is not here")
    assert {p.name for p in CORPUS.glob("real-*.pdf")} <= set(REAL_PDFS)


STYLES = {
    # a tagline in the largest type, the name under it, a document type above
    "style-tagline-cover.pdf": "Lumen LX-9 Accelerator Card",
    # the name over two lines, a section heading as large as it under it
    "style-two-line-name.pdf": "KS-5200 Series",
    # a cover in capitals with a photograph's caption and a part number: the name as the body writes it
    "style-capitals-cover.pdf": "Nimbus NB8 AI Server",
    # a title run into its tagline after a colon, model and document type in the PDF's own title
    "style-colon-title.pdf": "Ferrox F3 Fabric Switch",
}


@pytest.mark.parametrize("sheet", sorted(STYLES))
def test_vendor_styles_are_named_by_their_product(sheet):
    assert name_of(STYLED / sheet) == STYLES[sheet]


def test_one_name_in_every_output(tmp_path):
    """The report, the vendor e-mail, the terminal, the JSON, the API's rows, every CSV and the batch index all
    print the one name."""
    folder = tmp_path / "in"
    folder.mkdir()
    sheet = STYLED / "style-tagline-cover.pdf"
    (folder / sheet.name).write_bytes(sheet.read_bytes())
    name = STYLES[sheet.name]
    out = tmp_path / "out"
    r = run_cli("audit", str(folder), "-o", str(out))
    assert r.returncode in (0, 1), r.stderr
    contract = json.loads(run_cli("check", "--format", "json", str(sheet)).stdout)
    assert contract["source"]["product"] == name
    assert name in run_cli("check", str(sheet)).stdout
    for table in ("comparison.csv", "findings.csv", "figures.csv"):
        rows = list(csv.DictReader((out / table).open(encoding="utf-8")))
        assert {row["product"] for row in rows} <= {name} and (rows or table == "findings.csv"), table
    assert name in (out / "index.html").read_text(encoding="utf-8")
    reports = [p for p in out.rglob("*.html") if p.name != "index.html"]
    assert reports
    html = reports[0].read_text(encoding="utf-8")
    assert f"<h1>{name}</h1>" in html
    assert f"We are evaluating {name}" in html or "We are evaluating" not in html
    import sheetaudit
    assert set(sheetaudit.figures([contract])["product"]) == {name}
