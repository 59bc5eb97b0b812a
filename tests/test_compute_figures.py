"""An accelerator's compute and memory capacity as figures of the contract (sheetaudit/stages/s7_find_compute.py): compute
normalised to dense TFLOP/s per accelerator at its precision (sparse halved, a system's total divided by its
accelerators), memory capacity in GB; the check that says when a sheet's compute is sparse or a whole system's;
the training what-if reading them from a contract, from one sheet or from an accelerator's and a server's combined."""

import json

import pytest

from conftest import ROOT, checks, figure, finding, run_cli

CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "samples"
KESTREL = SAMPLES / "kestrel-k8x-gpu-server.pdf"


def _corpus(name):
    path = CORPUS / name
    if not path.exists():
        pytest.skip("../shared/corpus is not here")
    import sheetaudit

    return sheetaudit.audit(str(path), cache=False)


def test_a_dense_per_gpu_figure_is_stated(sheet):
    a = sheet(
        "# Helix G8 GPU server\n\nEach GPU delivers up to 989 TFLOPS of dense FP16 compute and carries 141 GB "
        "of HBM3e.\n"
    )
    f = figure(a, "989 TFLOPS", quantity="compute")
    assert (f.precision, f.basis, f.scope, f.normalized, f.certainty) == (
        "fp16",
        "dense",
        "per-accelerator",
        {"value": 989.0, "unit": "TFLOP/s"},
        "stated",
    )
    m = figure(a, "141 GB", quantity="memory")
    assert (m.tier, m.scope, m.normalized["value"]) == ("memory", "per-accelerator", 141.0)
    assert "compute.sparse-or-system-wide" not in checks(a)


def test_a_sparse_figure_is_halved_and_said(sheet):
    a = sheet(
        "# Helix accelerator\n\nFP16 Tensor Core: 1,979 TFLOPS per GPU with sparsity\n\n单卡 FP8 稀疏算力 4000 TFLOPS\n"
    )
    assert figure(a, "1,979 TFLOPS").normalized["value"] == pytest.approx(989.5)
    assert figure(a, "4000 TFLOPS").precision == "fp8" and figure(a, "4000 TFLOPS").normalized["value"] == 2000
    x = finding(a, "compute.sparse-or-system-wide")
    assert x.severity == "info" and "989.5 TFLOP/s dense per accelerator" in x.message


def test_a_system_total_is_divided_out_and_questioned(sheet):
    a = sheet(
        "# Helix G8 GPU server\n\nEight GPUs fully connected through NVSwitch deliver 32 petaFLOPS of FP8 "
        "AI performance.\n"
    )
    f = figure(a, "32 petaFLOPS")
    assert f.scope == "per-node" and f.precision == "fp8" and f.certainty == "inferred"
    assert f.normalized["value"] == 2000 and "basis" in f.inferred  # 32,000 / 8 / 2: sparse by convention
    x = finding(a, "compute.sparse-or-system-wide")
    assert x.severity == "warning" and x.question and "node's" in x.message


def test_rates_host_memory_and_storage_are_not_memory_figures(sheet):
    a = sheet(
        "# Helix G8 GPU server\n\nGPU memory bandwidth: 4.8 TB/s\n\nSystem memory: 2 TB DDR5\n\n"
        "Storage: 30 TB NVMe\n\nMulti-Instance GPU: up to 7 MIGs @ 10GB each\n"
    )
    assert not [f for f in a.figures if f.quantity == "memory"]


@pytest.mark.parametrize(
    "name, dense, sparse_flagged, system_flagged",
    [
        ("real-nvidia-a100-datasheet.pdf", 312, False, False),  # "312 teraFLOPS of deep learning performance"
        ("real-nvidia-h100-datasheet.pdf", 989.5, True, False),  # "1,979 teraFLOPS" in a starred row, "*With sparsity"
        ("real-nvidia-dgx-a100-datasheet.pdf", 312.5, False, True),  # "5 petaFLOPS AI" for eight A100s
    ],
)
def test_the_corpus_datasheets(name, dense, sparse_flagged, system_flagged):
    c = _corpus(name)
    from sheetaudit.atscale.specs import read_specs

    got = read_specs(c)
    assert got["peak_tflops"][0] == pytest.approx(dense)
    assert got["memory_gb"][0] == 80 and got["generation"][0] in ("a100", "h100")
    cases = {f.get("data", {}).get("case") for f in c["findings"] if f["check"] == "compute.sparse-or-system-wide"}
    assert ("sparse" in cases) == sparse_flagged and ("system" in cases) == system_flagged


def test_new_quantities_leave_the_scored_figures_alone():
    """The benchmark scores bandwidth, latency, power, domain_size and cooling: compute and memory figures come
    after them, numbered on, and no scored figure's reading changes."""
    c = _corpus("real-nvidia-h100-datasheet.pdf")
    kinds = [f["quantity"] for f in c["figures"]]
    first = next(i for i, q in enumerate(kinds) if q in ("compute", "memory"))
    assert all(q in ("compute", "memory") for q in kinds[first:])
    assert [f["id"] for f in c["figures"]] == [f"f{i}" for i in range(1, len(kinds) + 1)]


def test_a_gpu_sheet_and_a_server_sheet_are_one_system(tmp_path):
    gpu = tmp_path / "gpu.md"
    gpu.write_text(
        "# Kestrel KX9 accelerator\n\n| | KX9 |\n|---|---|\n| BF16 Tensor | 2,000 TFLOPS* |\n"
        "| GPU memory | 192 GB HBM3e |\n| Memory bandwidth | 8 TB/s |\n\n*With sparsity\n",
        encoding="utf-8",
    )
    job = ROOT / "samples" / "jobs" / "llama-70b.yaml"
    r = run_cli("scale", "--format", "json", "--job", job, f"{gpu}+{KESTREL}")
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)["systems"][0]["training"]
    assert t["hardware"]["peak_tflops"] == 1000 and t["hardware"]["memory_gb"] == 192
    assert "[gpu.md]" in t["hardware_how"]["peak_tflops"] and "halved" not in t["hardware_how"]["peak_tflops"]
    assert "/ 2 (with sparsity)" in t["hardware_how"]["peak_tflops"] and t["step_seconds"] > 0


def test_the_api_combines_a_list_of_audits_into_one_system(tmp_path):
    import sheetaudit

    gpu = tmp_path / "gpu.md"
    gpu.write_text(
        "# Kestrel KX9 accelerator\n\nEach accelerator: 1,000 TFLOPS dense BF16, 192 GB HBM3e, "
        "8 TB/s memory bandwidth.\n",
        encoding="utf-8",
    )
    df = sheetaudit.scale(
        [[sheetaudit.audit(gpu, cache=False), sheetaudit.audit(KESTREL)]],
        job=ROOT / "samples" / "jobs" / "llama-70b.yaml",
    )
    assert df["sheet"][0] == "gpu.md+kestrel-k8x-gpu-server.pdf"
    assert df["hardware_peak_tflops"][0] == 1000 and df["hardware_memory_gb"][0] == 192 and df["rank"][0] == 1


def test_the_scaling_what_if_takes_the_sheets_compute_when_no_tflops_is_given():
    r = run_cli("scale", "--format", "json", "--tokens", "8192", KESTREL)
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)["systems"][0]["training"]
    assert "989 TFLOP/s from the sheet" in t["compute"] and t["curve"]
    mine = json.loads(run_cli("scale", "--format", "json", "--tokens", "8192", "--tflops", "989", KESTREL).stdout)
    assert mine["systems"][0]["training"]["compute_s"] == t["compute_s"]


def test_a_systems_total_agrees_with_the_sheets_own_per_accelerator_figure(sheet):
    """A pod's figure that says neither dense nor sparse is held against the chip's: 256 x 197 is the pod's 50.4."""
    a = sheet(
        "# Strato pod\n\nA pod joins 256 chips through ICI links.\n\nPeak compute per chip (bf16): 197 TFLOPs"
        "\n\nBF16 peak compute per pod: 50.43 PFLOPs\n"
    )
    f = figure(a, "50.43 PFLOPs")
    assert f.scope == "per-cluster" and f.normalized["value"] == pytest.approx(197, rel=0.01)
    assert "dense" in f.inferred["basis"]


@pytest.mark.parametrize(
    "name, text, dense",
    [
        ("real-nvidia-rtx6000-ada-datasheet.pdf", "1457.0 TFLOPS", 728.5),  # "4": "Effective FP8 ... sparsity feature"
        ("real-nvidia-dgx-1-volta-datasheet.pdf", "1 petaFLOPS", 125),  # column "8X Tesla V100": no sparse mode
        ("real-nvidia-dgx-station-datasheet.pdf", "500 TeraFLOPS", 125),  # four V100s
    ],
)
def test_footnotes_counted_columns_and_accelerators_without_sparsity(name, text, dense):
    c = _corpus(name)
    f = figure(c, text, first=True, quantity="compute")
    assert f["normalized"]["value"] == pytest.approx(dense)
