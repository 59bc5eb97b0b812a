"""A small attack run (benchmarks/attack.py) for CI: about a hundred hostile mutants of every input the tool takes
(PDFs, text, HTML, requirement files, facility profiles, job files), each read as the tool reads it in a worker
process. None may end in an internal error, over the time limit or with a dead worker. The full run (10,500
mutants) is `python benchmarks/attack.py`."""

import random
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import attack  # noqa: E402


def test_small_attack_run():
    r = attack.run(scale=0.01, seed=20261202, jobs=2, timeout=30, quiet=True)
    assert set(r["by_kind"]) == set(attack.MIX), r["by_kind"]
    assert not any(r["counts"].get(k) for k in attack.FAILING), attack.report(r)
    assert r["counts"].get("accepted", 0) > 0 and r["counts"].get("refused", 0) > 0


def test_mutants_are_reproducible():
    base = attack.bases()["requirements"][0]
    assert attack.mutate_yaml(base, random.Random("1")) == attack.mutate_yaml(base, random.Random("1"))
    data = (ROOT / "samples" / "gannet-gx800-xdr-switch.html").read_bytes()
    assert attack.mutate_text(data, attack.HTML_PIECES, random.Random(2)) == attack.mutate_text(
        data, attack.HTML_PIECES, random.Random(2)
    )
