"""`sheetaudit scale` as users run it, on the bundled samples: the JSON's shape (README, "What the figures mean at
scale"), missing inputs named with the question to ask, assumptions changed and marked, clear usage errors."""

import json

import pytest

from conftest import ROOT, run_cli

SAMPLES = ROOT / "samples"
KESTREL = SAMPLES / "kestrel-k8x-gpu-server.pdf"  # 8 GPUs, NVLink 900 GB/s, one 400 Gb/s NIC per GPU
BOREALIS = SAMPLES / "borealis-bx72-rack.pdf"  # 72-GPU NVLink domain
OSPREY = SAMPLES / "osprey-o4-inference-server.txt"  # states a 400GbE port, no scale-up


@pytest.fixture(scope="module")
def doc():
    r = run_cli("scale", "--format", "json", KESTREL, BOREALIS, OSPREY)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_json_has_the_contract_shape(doc):
    assert doc["schema"] == "sheetaudit-scale/1"
    assert doc["assumptions"]["scale_up_efficiency"] == 0.82 and doc["assumptions"]["scale_out_efficiency"] == 0.93
    assert "model, not a measurement" in doc["note"]
    k = doc["systems"][0]
    assert k["sheet"].endswith("kestrel-k8x-gpu-server.pdf")
    assert set(k["inputs"]) >= {"scale_up_gbs", "domain_size", "scale_out_gbs_per_node", "figures"}
    assert k["inputs"]["scale_up_gbs"] == 450.0 and k["inputs"]["domain_size"] == 8
    assert k["inputs"]["scale_out_gbs_per_node"] == 400.0 and k["inputs"]["figures"]
    assert k["missing"] == []
    assert [p["accelerators"] for p in k["points"]] == [8, 64, 512, 4096]
    for p in k["points"]:
        assert set(p) >= {"accelerators", "collective", "message_bytes", "seconds", "algbw_gbs", "busbw_gbs", "domains"}
        assert p["collective"] == "all-reduce" and p["message_bytes"] == 1 << 30
        assert p["algbw_gbs"] == pytest.approx(p["message_bytes"] / p["seconds"] / 1e9, rel=1e-3)
        n = p["accelerators"]
        assert p["busbw_gbs"] == pytest.approx(p["algbw_gbs"] * 2 * (n - 1) / n, rel=1e-3)
        assert "comm_share" not in p  # only the training what-if adds them
    assert [p["domains"] for p in k["points"]] == [1, 8, 64, 512]


def test_a_72_gpu_domain_keeps_64_inside(doc):
    b = doc["systems"][1]
    assert b["inputs"]["domain_size"] == 72
    assert b["points"][1]["domains"] == 1 and b["points"][2]["domains"] == 8
    assert b["training"]["domain_edge"] == 72


def test_missing_inputs_are_named_with_the_question(doc):
    o = doc["systems"][2]
    missing = {m["input"]: m for m in o["missing"]}
    assert set(missing) == {"scale_up_gbs", "domain_size", "scale_out_gbs"}
    assert "400GbE" in missing["scale_out_gbs"]["why"] and "NICs per node" in missing["scale_out_gbs"]["ask"]
    assert all(p["seconds"] is None and p["unknown"] for p in o["points"])


def test_assumed_inputs_are_marked_everywhere():
    r = run_cli(
        "scale",
        "--format",
        "json",
        "--assume",
        "scale_up_gbs=400",
        "--assume",
        "domain_size=8",
        "--assume",
        "nics_per_accelerator=1",
        "--accelerators",
        "8,16",
        OSPREY,
    )
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["systems"][0]
    assert s["missing"] == []
    assert set(s["inputs"]["assumed"]) == {"scale_up_gbs", "domain_size", "scale_out_gbs"}
    assert s["inputs"]["scale_out_gbs_per_accelerator"] == 50.0  # 400GbE x 1 NIC per accelerator
    assert all(p["assumed"] for p in s["points"]) and s["points"][1]["seconds"] > 0
    assert json.loads(r.stdout)["assumption_details"]["domain_size"]["origin"] == "user"
    text = run_cli("scale", "--assume", "scale_up_gbs=400", "--assume", "domain_size=8", OSPREY).stdout
    assert "†assumed" in text and "(yours)" in text


def test_training_what_if_adds_comm_share_and_efficiency(tmp_path):
    contract = tmp_path / "kestrel.json"
    contract.write_text(run_cli("check", "--format", "json", KESTREL).stdout, encoding="utf-8")
    r = run_cli(
        "scale", "--format", "json", "--params", "70B", "--compute-s", "2", "--assume", "scale_out_gbs=6.25", contract
    )
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["systems"][0]
    assert s["points"][0]["message_bytes"] == 140 * 10**9  # 70e9 params x 2 bytes
    effs = [p["efficiency"] for p in s["points"]]
    assert effs == sorted(effs, reverse=True) and 0 < effs[-1] < effs[0] <= 1
    for p in s["points"]:
        assert p["comm_share"] == pytest.approx(1 - p["efficiency"], abs=1e-3)  # overlap 0: all comm is exposed
    # At a fixed global batch, what 8 GPUs compute in 2 s each: each GPU's share halves with every doubling while the
    # 140 GB all-reduce does not shrink. 8 s each at 2 GPUs against 0.38 s over NVLink (95%), 4 s at 4 against 0.57 s
    # (under 90%), 1 s at 16 against 5.6 s over one 50 Gb/s share per GPU (under 50%).
    assert [p["compute_s"] for p in s["points"]] == [2.0, 0.25, 0.03125, pytest.approx(2 * 8 / 4096, rel=1e-4)]
    assert s["training"]["batch_accelerators"] == 8
    assert s["training"]["below"]["0.9"] == 4 and s["training"]["below"]["0.5"] == 16
    wider = json.loads(
        run_cli(
            "scale",
            "--format",
            "json",
            "--params",
            "70B",
            "--compute-s",
            "2",
            "--assume",
            "scale_out_gbs=6.25",
            "--assume",
            "batch_accelerators=64",
            contract,
        ).stdout
    )
    assert wider["systems"][0]["training"]["below"]["0.5"] > 16  # a larger batch carries further


def test_text_output_says_it_is_a_model():
    r = run_cli("scale", "--accelerators", "8,64", KESTREL)
    assert r.returncode == 0 and "A model, not a measurement" in r.stdout
    assert "busbw GB/s" in r.stdout and "leaves the scale-up domain above 8" in r.stdout


def test_assumptions_from_a_file_and_the_list(tmp_path):
    f = tmp_path / "site.yaml"
    f.write_text("overlap: 0.5\nscale_out_efficiency: 0.9\n", encoding="utf-8")
    r = run_cli("scale", "--format", "json", "--assumptions", f, "--assume", "overlap=0.25", KESTREL)
    a = json.loads(r.stdout)["assumptions"]
    assert a["overlap"] == 0.25 and a["scale_out_efficiency"] == 0.9  # the command line wins over the file
    listing = run_cli("scale", "--list-assumptions").stdout
    assert "scale_up_efficiency = 0.82" in listing and "source:" in listing and "why:" in listing


@pytest.mark.parametrize(
    "args, says",
    [
        (["--assume", "nonsense=1"], "unknown assumption 'nonsense'"),
        (["--assume", "scale_up_efficiency=1.5"], "a fraction above 0"),
        (["--assume", "overlap"], "expected KEY=VALUE"),
        (["--message", "lots"], "expected a size"),
        (["--accelerators", "1,8"], "at least 2"),
        (["--params", "7e9", "--message", "1GiB"], "training what-if all-reduces"),
        (["--tflops", "900"], "--tflops needs --tokens"),
    ],
)
def test_bad_options_are_clear_usage_errors(args, says):
    r = run_cli("scale", *args, KESTREL)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr


def test_a_json_that_is_not_an_audit_is_refused(tmp_path):
    bad = tmp_path / "other.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    r = run_cli("scale", bad)
    assert r.returncode == 2 and f"{bad}: missing schema, figures; expected the JSON of 'sheetaudit check" in r.stderr
