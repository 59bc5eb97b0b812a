"""The training step's arithmetic (sheetaudit/atscale/step.py, layout.py): each part of the step behaves as the
published derivations say, on plain numbers (no sheet)."""

import pytest

from sheetaudit.atscale.assumptions import load_assumptions
from sheetaudit.atscale.inputs import Inputs
from sheetaudit.atscale.layout import candidates, search
from sheetaudit.atscale.step import Layout, Training, step
from sheetaudit.atscale.train import accelerator, overlaps
from sheetaudit.atscale.transformer import Model, Moe, model_flops_per_token
from sheetaudit.atscale.whatif import fabric

A = load_assumptions()
GPT175 = Model(params=174.6e9, layers=96, hidden=12288, heads=96, seq_len=2048, vocab=51200)
LLAMA70 = Model(params=70.6e9, layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672, seq_len=8192, vocab=128256)
MOE = Model(
    params=671e9,
    layers=61,
    hidden=7168,
    heads=128,
    seq_len=4096,
    vocab=129280,
    moe=Moe(experts=256, top_k=8, expert_hidden=2048, shared_experts=1, layers=58, active_params=37e9),
)
H100 = {"peak_tflops": 989, "memory_gb": 80, "memory_gbs": 3350, "generation": "h100", "precision": "bf16"}


def fab(domain=8, up=450, out=50):
    return fabric(Inputs("t", scale_up_gbs=up, domain_size=domain, scale_out_gbs=out), A)


def run(model, lay, batch=1536, hw=H100, f=None, **job):
    return step(Training(model=model, global_batch=batch, **job), lay, f or fab(), accelerator(hw, A), overlaps(A))


def test_model_flops_are_six_n_plus_causal_attention():
    per_token = model_flops_per_token(GPT175)
    six_n = 6 * 174.6e9
    attention = 6 * 96 * 12288 * 2048  # 12 l h s, halved for a causal model
    assert per_token == pytest.approx(six_n + attention, rel=0.01)


def test_the_bubble_is_p_minus_1_over_m_v_of_the_ideal_step():
    for vp in (1, 2, 4):
        r = run(GPT175, Layout(tp=8, pp=12, dp=4, vp=vp), batch=96)  # 24 micro-batches
        ideal = r.seconds - r.breakdown["pp_bubble"] - r.breakdown["pp_p2p"] - r.breakdown["dp_exposed"]
        assert r.breakdown["pp_bubble"] / ideal == pytest.approx(11 / (24 * vp), rel=0.02)


def test_breakdown_adds_up_to_the_step():
    for model, lay in (
        (GPT175, Layout(tp=8, pp=12, dp=16)),
        (MOE, Layout(tp=1, pp=16, dp=128, ep=64)),
        (LLAMA70, Layout(tp=8, pp=1, dp=16, cp=4)),
    ):
        r = run(model, lay, batch=2048)
        assert sum(r.breakdown.values()) == pytest.approx(r.seconds, rel=1e-9)
        assert all(v >= 0 for v in r.breakdown.values())


def test_tensor_parallelism_pays_for_leaving_the_scale_up_domain():
    inside = run(GPT175, Layout(tp=8, pp=12, dp=16), f=fab(domain=8))
    across = run(GPT175, Layout(tp=8, pp=12, dp=16), f=fab(domain=4))
    assert across.breakdown["tp"] > 1.5 * inside.breakdown["tp"]  # 4 NICs of 400G per domain against NVLink
    assert across.notes and "more than one scale-up domain" in across.notes[0]


def test_expert_all_to_all_is_cheaper_inside_a_large_domain():
    small = run(MOE, Layout(tp=1, pp=16, dp=128, ep=64), batch=15360, f=fab(domain=8))
    large = run(MOE, Layout(tp=1, pp=16, dp=128, ep=64), batch=15360, f=fab(domain=72, up=900))
    assert small.breakdown["ep_all_to_all"] > 3 * large.breakdown["ep_all_to_all"] > 0


def test_recomputation_costs_compute_and_saves_memory():
    sel = run(GPT175, Layout(tp=8, pp=12, dp=16), recompute="selective")
    full = run(GPT175, Layout(tp=8, pp=12, dp=16), recompute="full")
    assert full.breakdown["compute"] > 1.2 * sel.breakdown["compute"]
    assert full.memory_gb < sel.memory_gb
    assert full.hardware_flops > full.model_flops == sel.model_flops


def test_sharding_divides_the_optimizer_states():
    none = run(LLAMA70, Layout(tp=8, pp=1, dp=64), batch=512, sharding="none")
    opt = run(LLAMA70, Layout(tp=8, pp=1, dp=64), batch=512, sharding="optimizer")
    full = run(LLAMA70, Layout(tp=8, pp=1, dp=64), batch=512, sharding="full")
    assert none.memory_gb > opt.memory_gb > full.memory_gb
    assert none.fits is False and full.fits is True


def test_the_search_keeps_tensor_parallelism_inside_the_domain_and_fits_memory():
    job = Training(model=LLAMA70, global_batch=512)
    r = search(job, 1024, fab(domain=8), accelerator(H100, A), overlaps(A))
    assert r.fits is True and r.layout.tp <= 8 and r.layout.accelerators == 1024
    assert all(c.tp <= 8 and 64 % c.tp == 0 for c in candidates(job, 1024, 8, {}))


def test_the_search_keeps_what_the_job_fixes():
    job = Training(model=GPT175, global_batch=1536)
    r = search(job, 1536, fab(), accelerator(H100, A), overlaps(A), {"tp": 8, "pp": 12})
    assert (r.layout.tp, r.layout.pp, r.layout.dp) == (8, 12, 16)


def test_nothing_fits_says_so_with_the_least_memory():
    tiny = dict(H100, memory_gb=8)
    r = search(Training(model=LLAMA70, global_batch=512), 64, fab(), accelerator(tiny, A), overlaps(A))
    assert r.fits is False and r.memory_gb > 8


def test_fewer_sequences_per_accelerator_lower_utilisation_at_a_fixed_batch():
    job = Training(model=GPT175, global_batch=1536)
    got = [search(job, n, fab(), accelerator(H100, A), overlaps(A), {"tp": 8, "pp": 12}) for n in (384, 768, 1536)]
    tput = [r.model_flops / r.seconds / n for r, n in zip(got, (384, 768, 1536))]
    assert tput[0] > tput[1] > tput[2]


def test_hardware_flops_of_megatron_2021_are_narayanans_eq_3():
    # full recomputation and unfused attention: every FLOP eq. 3 counts is executed
    r = run(GPT175, Layout(tp=8, pp=12, dp=16), recompute="full", attention="unfused", sequence_parallel=False)
    B, s, L, h, V = 1536, 2048, 96, 12288, 51200
    eq3 = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h))
    assert r.hardware_flops == pytest.approx(eq3, rel=0.02)
