"""The accelerator read from a sheet's text for the training what-if (sheetaudit/atscale/specs.py): dense peak
compute per accelerator at the job's precision, sparse headlines halved and flagged, system-wide figures flagged
and not used; memory capacity; the generation. On authored sentences, and on the corpus's real datasheets."""
import pytest

from conftest import ROOT
from sheetaudit.atscale.specs import read_specs
from sheetaudit.model import Segment

CORPUS = ROOT.parent / "shared" / "corpus"


def specs(*texts, **kw):
    return read_specs([Segment(text=t, page=1, **kw) for t in texts])


def test_a_dense_per_gpu_figure_is_taken_as_stated():
    got = specs("Each GPU delivers up to 989 TFLOPS of dense FP16 compute and carries 141 GB of HBM3e.")
    assert got["peak_tflops"][0] == 989 and got["peak_tflops"][1].startswith("stated")
    assert got["memory_gb"][0] == 141 and not got["flags"]


def test_a_sparse_figure_is_halved_and_flagged():
    got = specs("H100 delivers 1,979 TFLOPS of FP16 with sparsity.")
    assert got["peak_tflops"][0] == pytest.approx(989.5) and "halved" in got["peak_tflops"][1]
    assert got["flags"] and "sparse" in got["flags"][0]
    assert specs("单卡 FP16 稀疏算力 2000 TFLOPS")["peak_tflops"][0] == 1000


def test_a_starred_table_row_is_sparse_when_the_star_says_so():
    segs = [Segment(text="1,979 teraFLOPS", page=2, kind="cell", label="BFLOAT16 Tensor Core*", column="H100 SXM"),
            Segment(text="1,671 teraFLOPS", page=2, kind="cell", label="BFLOAT16 Tensor Core*", column="H100 NVL"),
            Segment(text="*With sparsity", page=2, kind="footnote")]
    got = read_specs(segs)
    assert got["peak_tflops"][0] == pytest.approx(989.5) and "H100 SXM" in got["peak_tflops"][1]
    segs[-1] = Segment(text="* Preliminary specifications", page=2, kind="footnote")
    assert read_specs(segs)["peak_tflops"][0] == 1979         # a star that does not say sparsity


def test_a_system_wide_figure_is_flagged_and_not_used():
    got = specs("DGX A100 packs 5 petaFLOPS of AI performance into a 6U form factor.")
    assert "peak_tflops" not in got and "whole system" in got["flags"][0]
    got = specs("1.4 exaFLOPS (sparse)")
    assert "peak_tflops" not in got and got["flags"]


def test_other_precisions_are_not_the_jobs():
    got = specs("60 teraflops of FP64 computing", "3,958 teraFLOPS FP8 Tensor Core with sparsity")
    assert "peak_tflops" not in got
    assert read_specs([Segment(text="3,958 teraFLOPS FP8 Tensor Core with sparsity", page=1)], "fp8")[
        "peak_tflops"][0] == 1979


@pytest.mark.parametrize("name, tflops, memory, generation, flagged", [
    ("real-nvidia-a100-datasheet.pdf", 312, 80, "a100", False),
    ("real-nvidia-h100-datasheet.pdf", 989.5, 80, "h100", True),
    ("real-nvidia-dgx-a100-datasheet.pdf", None, 80, "a100", True),
])
def test_the_corpus_datasheets(name, tflops, memory, generation, flagged):
    path = CORPUS / name
    if not path.exists():
        pytest.skip("../shared/corpus is not here")
    from sheetaudit.pipeline import audit
    got = read_specs(audit(str(path)).document.segments)
    assert (got.get("peak_tflops") or (None,))[0] == (pytest.approx(tflops) if tflops else None)
    assert got["memory_gb"][0] == memory and got["generation"][0] == generation
    assert bool(got["flags"]) == flagged
