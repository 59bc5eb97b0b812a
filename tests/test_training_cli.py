"""`sheetaudit scale SHEET... --job job.yaml` as users run it on the bundled samples: the JSON fields of the issue
(checked against sheetaudit/schema/sheetaudit-scale-1.json), the systems ranked, the accelerator read from the
sheet's text, the job file checked like every input, the assumptions listed with their sources."""

import json

import pytest

from conftest import ROOT, run_cli

SAMPLES = ROOT / "samples"
JOBS = SAMPLES / "jobs"
KESTREL = SAMPLES / "kestrel-k8x-gpu-server.pdf"  # 8x H200, "989 TFLOPS of dense FP16", 141 GB, 4.8 TB/s
XUANWU = SAMPLES / "xuanwu-x8-server-zh.pdf"  # 单卡 FP16 稠密算力 1000 TFLOPS, 96 GB
BOREALIS = SAMPLES / "borealis-bx72-rack.pdf"  # 72-GPU domain; compute only as the rack's 1.4 exaFLOPS
FIELDS = {
    "accelerators",
    "layout",
    "step_seconds",
    "tokens_per_second",
    "tokens_per_second_per_accelerator",
    "model_tflops_per_accelerator",
    "mfu",
    "hfu",
    "memory_gb_per_accelerator",
    "fits",
    "breakdown_seconds",
}


@pytest.fixture(scope="module")
def doc():
    r = run_cli("scale", "--format", "json", KESTREL, XUANWU, BOREALIS, "--job", JOBS / "llama-70b.yaml")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_each_system_has_the_fields_of_the_issue(doc):
    k = doc["systems"][0]["training"]
    assert FIELDS <= set(k)
    assert set(k["layout"]) == {"tp", "pp", "dp", "ep", "cp", "vp", "micro"}
    assert set(k["breakdown_seconds"]) == {"compute", "tp", "pp_bubble", "pp_p2p", "dp_exposed", "ep_all_to_all", "cp"}
    assert sum(k["breakdown_seconds"].values()) == pytest.approx(k["step_seconds"], rel=0.01)
    assert k["accelerators"] == 1024 and k["fits"] is True and 0 < k["mfu"] <= k["hfu"] < 1
    assert k["tokens_per_second"] == pytest.approx(512 * 8192 / k["step_seconds"], rel=0.01)
    assert k["time_to_train_days"] == pytest.approx(15e12 / k["tokens_per_second"] / 86400, rel=0.01)


def test_the_json_fits_its_schema(doc):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "sheetaudit" / "schema" / "sheetaudit-scale-1.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)


def test_the_accelerator_comes_from_the_sheets_compute_and_memory_figures(doc):
    k, x = doc["systems"][0]["training"], doc["systems"][1]["training"]
    assert k["hardware"] == {"peak_tflops": 989.0, "memory_gb": 141.0, "memory_gbs": 4800.0}
    assert k["hardware_how"]["peak_tflops"].startswith("stated: 989 TFLOPS")
    assert k["matmul_efficiency"]["key"] == "h200-bf16"
    assert x["hardware"]["peak_tflops"] == 1000.0 and x["hardware"]["memory_gb"] == 96.0


def test_a_system_wide_compute_figure_is_not_used_and_the_vendor_is_asked(doc):
    b = doc["systems"][2]["training"]
    assert "step_seconds" not in b and "peak_tflops" in b["unknown"]
    ask = next(m for m in b["missing"] if m["input"] == "peak_tflops")
    assert "1.4 exaFLOPS" in ask["why"] and "FP4, the whole rack's" in ask["why"] and "dense" in ask["ask"]


def test_systems_are_ranked_by_time_to_train(doc):
    ranked = [r for r in doc["ranking"] if r["rank"]]
    assert [r["rank"] for r in ranked] == [1, 2]
    assert ranked[0]["time_to_train_days"] <= ranked[1]["time_to_train_days"]
    assert doc["ranking"][-1]["rank"] is None and "peak_tflops" in doc["ranking"][-1]["why"]


def test_efficiency_falls_with_accelerators_at_a_fixed_global_batch(doc):
    for s in doc["systems"][:2]:
        curve = s["training"]["curve"]
        mfu = [c["mfu"] for c in curve]
        assert len(curve) >= 5 and mfu[-1] < 0.8 * mfu[0]
        assert all(b < a for a, b in zip(mfu, mfu[1:])), mfu
        assert curve[-1]["tokens_per_second"] > curve[0]["tokens_per_second"]


@pytest.mark.parametrize("job", ["llama-70b", "llama-405b", "moe-671b"])
def test_no_sample_system_gains_efficiency_from_more_accelerators(job):
    """At a fixed global batch each accelerator gets less work: the data-parallel bucket that no compute hides
    grows with the data-parallel size (Megatron's max(40M, 1M x dp) parameters), so even a layout whose other
    collectives all hide loses a little with every doubling."""
    r = run_cli(
        "scale",
        "--format",
        "json",
        *sorted(SAMPLES.glob("*.pdf")),
        *sorted(SAMPLES.glob("*.md")),
        "--job",
        JOBS / f"{job}.yaml",
    )
    assert r.returncode == 0, r.stderr
    curves = [s["training"]["curve"] for s in json.loads(r.stdout)["systems"] if s["training"].get("curve")]
    assert len(curves) >= 3
    for curve in curves:
        mfu = [c["mfu"] for c in curve]
        assert all(b < a for a, b in zip(mfu, mfu[1:])), mfu


def test_text_and_html_show_where_the_step_goes(tmp_path):
    r = run_cli("scale", KESTREL, "--job", JOBS / "llama-405b.yaml")
    assert r.returncode == 0, r.stderr
    assert "where the step goes [" in r.stdout and "pipeline bubble" in r.stdout and "<- knee" in r.stdout
    out = tmp_path / "t.html"
    r = run_cli("scale", KESTREL, XUANWU, "--job", JOBS / "moe-671b.yaml", "--format", "html", "-o", out)
    assert r.returncode == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    assert 'class="step-bars"' in html and 'class="mfu-curve"' in html and "expert all-to-all" in html


def test_the_job_fixes_what_it_states():
    r = run_cli("scale", "--format", "json", KESTREL, "--job", JOBS / "llama-405b.yaml")
    t = json.loads(r.stdout)["systems"][0]["training"]
    assert {k: t["layout"][k] for k in ("tp", "pp", "dp", "cp")} == {"tp": 8, "pp": 16, "dp": 128, "cp": 1}


def test_hardware_can_be_given_where_the_sheet_is_silent():
    r = run_cli("scale", "--format", "json", BOREALIS, "--job", JOBS / "llama-70b.yaml", "--tflops", "2250")
    t = json.loads(r.stdout)["systems"][0]["training"]
    assert t["hardware"]["peak_tflops"] == 2250 and t["hardware_how"]["peak_tflops"].startswith("assumed")
    assert t["step_seconds"] > 0


@pytest.mark.parametrize(
    "text, key",
    [
        ("model: {params: 70B, layers: 80, hidden: 8192, heads: 64, seq_len: 8192}\nbatch: {global: 512}\n", "model"),
        (
            "model: {params: 70B, layers: 80, hidden: 8192, heads: 64, seq_len: 8192, vocab: 1}\nbatch: {global: 0}\n",
            "batch.global",
        ),
        (
            "model: {params: 70B, layers: 80, hidden: 8192, heads: 64, seq_len: 8192, vocab: 1}\nbatch: {global: 8}\n"
            "parallel: {tq: 8}\n",
            "parallel.tq",
        ),
        (
            "model: {params: lots, layers: 80, hidden: 8192, heads: 64, seq_len: 8192, vocab: 1}\nbatch: {global: 8}\n",
            "model.params",
        ),
        (
            "model: {params: 70B, layers: 80, hidden: 8192, heads: 64, seq_len: 8192, vocab: 1}\nbatch: {global: 8}\n"
            "precision: fp4\n",
            "precision",
        ),
    ],
)
def test_a_mistake_in_the_job_file_is_one_line_naming_the_key(tmp_path, text, key):
    job = tmp_path / "job.yaml"
    job.write_text(text, encoding="utf-8")
    r = run_cli("scale", KESTREL, "--job", job)
    assert r.returncode == 2
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "job.yaml" in lines[0] and f"{key}:" in lines[0], r.stderr


def test_assumptions_list_the_matmul_efficiency_with_its_source():
    r = run_cli("scale", "--list-assumptions")
    assert "matmul_efficiency = {a100-bf16: 0.65, h100-bf16: 0.6" in r.stdout
    assert "0.6-0.75 of dense BF16 peak" in r.stdout
    r = run_cli(
        "scale",
        "--format",
        "json",
        KESTREL,
        "--job",
        JOBS / "llama-70b.yaml",
        "--assume",
        "matmul_efficiency={h200-bf16: 0.7}",
    )
    d = json.loads(r.stdout)
    assert d["assumptions"]["matmul_efficiency"]["h200-bf16"] == 0.7
    assert d["assumptions"]["matmul_efficiency"]["a100-bf16"] == 0.65  # one entry changed, the rest kept


def test_require_holds_each_system_to_the_jobs_throughput_and_time_to_train(tmp_path):
    rfp = tmp_path / "rfp.yaml"
    rfp.write_text("tokens_per_second: {min: 1000000}\ntime_to_train_days: {max: 170}\n", encoding="utf-8")
    r = run_cli(
        "scale", "--format", "json", KESTREL, XUANWU, BOREALIS, "--job", JOBS / "llama-70b.yaml", "--require", rfp
    )
    assert r.returncode == 0, r.stderr
    got = {
        s["sheet"].rsplit("/", 1)[-1]: {x["key"]: x for x in s["requirements"]["results"]}
        for s in json.loads(r.stdout)["systems"]
    }
    k, x, b = got["kestrel-k8x-gpu-server.pdf"], got["xuanwu-x8-server-zh.pdf"], got["borealis-bx72-rack.pdf"]
    assert k["tokens_per_second"]["result"] == "meets" and k["time_to_train_days"]["result"] == "meets"
    assert x["tokens_per_second"]["result"] == "falls-short" and x["time_to_train_days"]["result"] == "falls-short"
    assert k["tokens_per_second"]["basis"] == "model" and "not a measurement" in k["tokens_per_second"]["why"]
    assert b["tokens_per_second"]["result"] == "not-stated" and "TFLOP/s" in b["tokens_per_second"]["question"]


def test_require_can_name_its_own_tokens_to_train(tmp_path):
    """'time to train 2T tokens in at most 30 days', whatever the job file's own tokens."""
    rfp = tmp_path / "rfp.yaml"
    rfp.write_text("time_to_train_days: {max: 30, tokens: 2T}\n", encoding="utf-8")
    r = run_cli("scale", "--format", "json", KESTREL, "--job", JOBS / "llama-70b.yaml", "--require", rfp)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["systems"][0]
    got = s["requirements"]["results"][0]
    assert got["value"] == pytest.approx(2e12 / s["training"]["tokens_per_second"] / 86400, rel=0.01)
    assert got["result"] == "meets"  # about 21 days at 1.1 M tokens/s
    rfp.write_text("time_to_train_days: {max: 30, tokens: lots}\n", encoding="utf-8")
    bad = run_cli("scale", KESTREL, "--job", JOBS / "llama-70b.yaml", "--require", rfp)
    assert bad.returncode == 2 and "time_to_train_days.tokens" in bad.stderr


def test_the_python_api_returns_one_row_per_system_ranked():
    import sheetaudit

    audits = [sheetaudit.audit(KESTREL), sheetaudit.audit(BOREALIS)]
    df = sheetaudit.scale(audits, job=JOBS / "llama-70b.yaml", peak_tflops=989, memory_gb=141)
    assert list(df["rank"]) == [1, 2] and df["step_seconds"].is_monotonic_increasing
    assert {"layout_tp", "mfu", "hfu", "fits", "breakdown_seconds_compute", "time_to_train_days"} <= set(df.columns)
    assert set(df.attrs["curves"]) == set(df["sheet"])
    from sheetaudit.errors import UsageError

    with pytest.raises(UsageError, match="batch.global"):
        sheetaudit.scale(
            audits,
            job={
                "model": {"params": 7e9, "layers": 32, "hidden": 4096, "heads": 32, "seq_len": 4096, "vocab": 32000},
                "batch": {"global": 0},
            },
        )


def test_a_gpu_sheet_and_a_server_sheet_make_one_system():
    h100, hgx = (
        ROOT.parent / "shared" / "corpus" / "real-nvidia-h100-datasheet.pdf",
        ROOT.parent / "shared" / "corpus" / "helix-g8-hgx-server.pdf",
    )
    if not h100.exists():
        pytest.skip("../shared/corpus is not here")
    r = run_cli("scale", "--format", "json", f"{h100}+{hgx}", "--job", JOBS / "llama-70b.yaml")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["systems"][0]
    t = s["training"]
    assert s["kind"] == "server" and s["inputs"]["scale_out_gbs_per_accelerator"] == 50  # from the server
    assert t["hardware"]["peak_tflops"] == pytest.approx(989.5)  # from the GPU sheet
    assert "[real-nvidia-h100-datasheet.pdf]" in t["hardware_how"]["peak_tflops"]
    assert any("sparse" in n for n in t["notes"]) and t["step_seconds"] > 0


def test_another_count_for_the_same_job():
    r = run_cli("scale", "--format", "json", KESTREL, "--job", JOBS / "llama-405b.yaml", "--accelerators", "8192")
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)["systems"][0]["training"]
    assert t["accelerators"] == 8192 and t["layout"]["dp"] == 64 and t["layout"]["tp"] == 8
    r = run_cli("scale", KESTREL, "--job", JOBS / "llama-405b.yaml", "--accelerators", "8,16")
    assert r.returncode == 2 and "one count" in r.stderr


def test_the_batch_index_ranks_the_systems_on_the_job_and_judges_its_requirements(tmp_path):
    import shutil

    folder, out = tmp_path / "offers", tmp_path / "out"
    folder.mkdir()
    for p in (KESTREL, XUANWU):
        shutil.copy(p, folder / p.name)
    rfp = tmp_path / "rfp.yaml"
    rfp.write_text("tokens_per_second: {min: 1000000}\n", encoding="utf-8")
    r = run_cli("audit", folder, "-o", out, "--job", JOBS / "llama-70b.yaml", "--require", rfp, "--fail-on", "never")
    assert r.returncode == 0, r.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Training what-if: job llama-70b" in index and "1. kestrel-k8x-gpu-server.pdf" in index
    got = {
        c["source"]["path"].rsplit("/", 1)[-1]: c["requirements"]["results"][0]
        for c in json.loads((out / "audit.json").read_text(encoding="utf-8"))
    }
    assert got["kestrel-k8x-gpu-server.pdf"]["result"] == "meets"
    assert (
        got["xuanwu-x8-server-zh.pdf"]["result"] == "falls-short" and got["xuanwu-x8-server-zh.pdf"]["basis"] == "model"
    )
