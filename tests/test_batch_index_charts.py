"""The batch index shows the comparison as pictures too: bandwidth per accelerator and rack power vs the limit."""

import re

from conftest import ROOT, run_cli


def test_index_has_bandwidth_and_rack_power_charts(tmp_path):
    inp = tmp_path / "in"
    inp.mkdir()
    for name in ("kestrel-k8x-gpu-server.pdf", "borealis-bx72-rack.pdf", "pelican-pn5164-ethernet-switch.pdf"):
        (inp / name).write_bytes((ROOT / "samples" / name).read_bytes())
    r = run_cli("audit", inp, "-o", tmp_path / "out", "-q", "--no-cache", isolated=True)
    assert r.returncode in (0, 1), r.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'class="chart chart-index-bw"' in html or "index-bw" in html
    assert "Rack power against the air-cooling limit" in html and "air-cooling limit 40 kW" in html
    bw = html[html.index("Bandwidth per accelerator, per direction") :]
    assert re.search(r"kestrel-k8x-gpu-server\.pdf", bw) and "450 GB/s" in bw
    assert "<script src" not in html and "http://" not in html.split("<body", 1)[1].replace("http://www.w3.org", "")


def test_the_scale_model_is_computed_once_for_the_wide_and_the_phone_chart(monkeypatch):
    """The index's scaling chart comes in two widths; the model of every system behind it (most of the index's
    time) is computed once for both."""
    import sheetaudit
    from sheetaudit.atscale import whatif
    from sheetaudit.batch.index import index_charts

    systems = [
        (name, sheetaudit.audit(ROOT / "samples" / name, cache=False))
        for name in ("kestrel-k8x-gpu-server.pdf", "borealis-bx72-rack.pdf")
    ]
    calls = []
    real = whatif.for_report
    monkeypatch.setattr(whatif, "for_report", lambda *a, **k: calls.append(a) or real(*a, **k))
    [scale] = [c for c in index_charts([], systems) if c[0].startswith("What this means at scale")]
    assert len(calls) == 1 and 'width="680"' in scale[1] and 'width="340"' in scale[2]
