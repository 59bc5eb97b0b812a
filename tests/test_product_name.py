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
NOT_NAMES = (
    "Product Highlights",
    "Powerful Networking for the Future of AI",
    "The Challenges of Building",
    "Datasheet",
    "Data Sheet",
    "Product Brief",
    "Incredible Performance",
    "Powering the Next Era",
)


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


# Text sheets (Markdown, plain text, HTML, Chinese among them), as their first heading, front matter or text names the
# product: a technology ("NVLink 4"), a video format ("1080P"), a connector ("12V-2x6"), a heading ("产品介绍") or
# a verb of a press release ("UNVEILS") is never the name.
DEV = ROOT / "tests" / "real" / "dev"
LABELLED = ROOT / "tests" / "labelled"
TEXT_SHEETS = {
    CORPUS / "real-amd-mi100-microarchitecture.md": "AMD Instinct MI100 accelerator",
    CORPUS / "real-aws-trainium2-architecture.txt": "AWS Trainium2",
    CORPUS / "real-broadcom-tomahawk5-announcement.txt": "Tomahawk 5",
    CORPUS / "real-cisco-ucs-c885a-m8-datasheet.md": "Cisco UCS C885A M8 Rack Server",
    CORPUS / "real-huawei-atlas200i-dk-a2-zh.md": "Atlas 200I A2",
    CORPUS / "real-iluvatar-bi150-intraserver-zh.md": "BI150",
    CORPUS / "real-intel-e810-cqda2-iwarp-throughput-kb.txt": "Intel Ethernet Network Adapter E810-CQDA2",
    CORPUS / "real-intel-gaudi3-network-configuration.txt": "Intel Gaudi 3 AI accelerator",
    CORPUS / "real-juniper-qfx5250-64oe-l-techpost.md": "QFX5250-64OE-L",
    CORPUS / "real-kunlunxin-r480-x8-flagperf-zh.md": "R480-X8",
    CORPUS / "real-mthreads-s5000-p2p-interserver-zh.md": "S5000",
    CORPUS / "real-tenstorrent-tt-loudbox-bh-specifications.md": "Tenstorrent TT-LoudBox",
    CORPUS / "real-tenstorrent-wormhole-specifications.md": "Wormhole n150d",
    DEV / "real-aws-inf2-architecture.txt": "Amazon EC2 Inf2",
    DEV / "real-cisco-ucs-6536-fabric-interconnect-datasheet.md": "Cisco UCS 6536 Fabric Interconnect",
    DEV / "real-cisco-ucs-x-series-direct-datasheet.md": "Cisco UCS X-Series Direct",
    DEV / "real-cisco-ucs-x9516-x-fabric-module-datasheet.md": "Cisco UCS X9516 X-Fabric Module",
    DEV / "real-sophgo-sg6-ai-server-zh.md": "算丰 AI 服务器 SG6",
    DEV / "real-cisco-ucs-c240-m8-datasheet.md": "Cisco UCS C240 M8 Rack Server",
    DEV / "real-juniper-ptx10002-60mr-techpost.md": "Juniper PTX10002-60MR",
    DEV / "real-nvidia-q3450-ld-xdr-switch-kernel-patch.txt": "Q3450-LD",
    DEV / "real-runningit-dpu-cx7pt-nic-zh.md": "DPU-CX7PT 网卡",
    DEV / "real-runningit-sonic-tap-switch-zh.md": "Sonic 交换机",
    DEV / "real-tenstorrent-quietbox2-blackhole-specifications.md": "Tenstorrent TT-QuietBox",
    LABELLED / "fathom-ccl-performance-guide.md": "Fathom CCL",
    LABELLED / "halcyon-h-series-fabric-guide.md": "Halcyon H-Series",
    LABELLED / "hanhai-sn384-supernode-zh.md": "瀚海 SN384 AI 超节点",
    LABELLED / "hengchuan-hc9800-roce-switch-zh.txt": "衡川网络 HC-9800",
    LABELLED / "jinghong-jh8-npu-server-zh.md": "景泓 JH8-A910",
    LABELLED / "kestrel-hx8b-gpu-server.html": "Kestrel HX8-B GPU Server",
    LABELLED / "lumen-lx400-supernic.md": "Lumen LX400 SuperNIC",
    LABELLED / "tanager-tx9864-ethernet-switch.txt": "Tanager TX-9864 AI Fabric Switch",
    LABELLED / "tongyuan-ty-g8-test-report-zh.md": "通远 TY-G8 GPU 服务器",
    LABELLED / "vireo-ax1-launch.txt": "AX1",
    LABELLED / "vireo-nx800-supernic.txt": "Vireo NX-800 SuperNIC",
    LABELLED / "vireo-v40-pcie-accelerator.md": "Vireo V40 PCIe Accelerator",
    LABELLED / "yunfeng-y910-card-zh.md": "云锋 Y910",
    LABELLED / "yunhe-k2-400-dpu-en.html": "Yunhe K2-400 DPU",
}


@pytest.mark.parametrize("path", sorted(TEXT_SHEETS), ids=lambda p: p.name)
def test_text_sheets_are_named_by_their_product(path):
    if not path.exists():
        pytest.skip(f"{path} is not here")
    name = name_of(path)
    assert name == TEXT_SHEETS[path]
    assert not any(bad.lower() in name.lower() for bad in NOT_NAMES)


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
