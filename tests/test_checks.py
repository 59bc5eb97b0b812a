"""Every check in rules/checks.yaml, per sheet and across sheets, fires on the sheets its entry says it fires on and
stays quiet on the ones it says pass: the registry's examples, run through the real pipeline (and, for compare.*,
through the batch's comparison). A new check needs no test of its own here, only its examples in the YAML."""

import pytest

from conftest import checks, finding
from sheetaudit.options import AuditOptions
from sheetaudit.rules import load_rules

RULES = load_rules()
REGISTRY = {**RULES.checks, **RULES.comparison}


def examples(key: str) -> list:
    return [
        pytest.param(code, i, ex, id=f"{code}-{i}")
        for code, c in REGISTRY.items()
        for i, ex in enumerate(c.get(key) or [])
    ]


def raised(example, tmp_path) -> set:
    """The codes the tool prints for one example of the registry (see the header of rules/checks.yaml)."""
    import sheetaudit
    from sheetaudit import pipeline

    ex = example if isinstance(example, dict) else {"sheet": example}
    if "sheets" in ex:
        from sheetaudit.batch.compare import compare, sheet_row

        items = []
        for i, text in enumerate(ex["sheets"]):
            contract = sheetaudit.to_contract(sheetaudit.audit(_write(tmp_path / f"sheet{i}.md", text)))
            items.append((sheet_row(f"sheet{i}.md", contract, None), contract))
        return {f["check"] for f in compare(items)}
    path = _pdf(tmp_path / "sheet.pdf", ex["pdf"]) if "pdf" in ex else _write(tmp_path / "sheet.md", ex["sheet"])
    return checks(pipeline.run(path, AuditOptions(facility=ex.get("facility"))))


def _write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


def _pdf(path, pages: list[str]):
    """A PDF of these pages, one line of text per line; an empty page has no text layer at all."""
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=(595, 842))
    for text in pages:
        for i, line in enumerate(text.splitlines()):
            c.setFont("Helvetica", 11)
            c.drawString(60, 780 - 16 * i, line)
        c.showPage()
    c.save()
    return path


@pytest.mark.parametrize("code, i, example", examples("fires_on"))
def test_check_fires_on_its_examples(code, i, example, tmp_path):
    assert code in raised(example, tmp_path)


@pytest.mark.parametrize("code, i, example", examples("passes"))
def test_check_passes_its_examples(code, i, example, tmp_path):
    assert code not in raised(example, tmp_path)


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_every_check_declares_why_fix_and_examples_both_ways(code):
    c = REGISTRY[code]
    assert c["why"] and c["fix"] and c["step"] in (0, 1, 2, 3, 4)
    assert c.get("fires_on") and c.get("passes"), f"{code}: add fires_on and passes examples in rules/checks.yaml"
    assert isinstance(c.get("known_problems", ""), str)


def test_every_check_the_code_raises_is_declared():
    """A code raised in sheetaudit/ but missing from the registry would print without why or fix."""
    import re

    from conftest import ROOT

    used = set()
    for path in (ROOT / "sheetaudit").rglob("*.py"):
        used |= set(re.findall(r"""(?:finding|_finding)\(\s*["']([^"'\s]+)["']""", path.read_text("utf-8")))
    assert used and used <= set(REGISTRY), used - set(REGISTRY)
    assert set(REGISTRY) <= used, f"declared but never raised: {set(REGISTRY) - used}"


def test_derived_figures_show_their_arithmetic(sheet):
    a = sheet("# Helix G8 GPU server\n\nSystem power: 10.2 kW max\n")
    f = finding(a, "power.per-node-only")
    (d,) = f.derived
    assert d.value == pytest.approx(40.8) and "x 4 nodes per rack" in d.arithmetic


def test_floor_load_names_the_load_it_computed(sheet):
    text = (
        "# Orion rack-scale system\n\nRack power: 36 kW\n\nWeight: 1,360 kg\n\n"
        "Dimensions: 600 mm W x 1,068 mm D x 2,236 mm H\n"
    )
    f = finding(sheet(text, facility={"floor_load_kg_m2": 1500}), "power.facility-exceeded")
    assert "2,122 kg/m²" in f.message  # 1,360 kg / (0.6 m x 1.068 m)


def test_a_scanned_page_is_named_and_nothing_is_guessed():
    from conftest import ROOT
    from sheetaudit import pipeline

    a = pipeline.run(ROOT / "tests" / "hostile" / "files" / "mixed-scanned.pdf")
    f = finding(a, "sheet.no-text")
    assert f.pages == [2]


CODE = r"[a-z][a-z0-9]*\.[a-z0-9]+(?:-[a-z0-9]+)*"


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_every_code_is_one_the_scanner_reads(code):
    """A code the scanner above could not read would be a check no test sees raised: codes are lower-case words
    and digits, a dot, then words joined by hyphens (`tier.domain-size-missing`, `bandwidth.pcie5-bottleneck`)."""
    import re

    assert re.fullmatch(CODE, code), f"{code}: not a code the tests can find in the source"


def _severities(c: dict):
    """(case, severity, its entry) for the check and each of its cases."""
    yield "", c["severity"], c
    for name, case in (c.get("cases") or {}).items():
        yield name, case.get("severity", c["severity"]), {**c, **case}


def unasked(registry: dict) -> list[str]:
    """The checks (and cases) of REGISTRY at severity warning or error with no question for the vendor."""
    out = []
    for code, entry in registry.items():
        for case, severity, c in _severities(entry):
            assert severity in ("error", "warning", "info"), f"{code} {case}: severity {severity}"
            if severity in ("error", "warning") and not (c.get("question") or "").strip():
                out.append(f"{code}{' case ' + case if case else ''}: a {severity} needs a question")
    return out


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_every_warning_or_error_has_a_question_for_the_vendor(code):
    """The README's recipe for a check at severity warning or error is complete only with its question: the
    'Ask the vendor' list would otherwise skip it."""
    assert not unasked({code: REGISTRY[code]})


@pytest.mark.parametrize("code", sorted(RULES.checks))
def test_every_question_names_only_values_ask_supplies(code):
    """A question's {names} are values stages/s8_checks/ask.py works out (the header of rules/checks.yaml lists them)."""
    import string

    from sheetaudit.stages.s8_checks.ask import values
    from sheetaudit.records import Finding

    known = set(values(Finding(check=code, step=1, severity="warning", message=""), [], None).makers)
    for case, _, c in _severities(REGISTRY[code]):
        for key in ("question", "buyer"):
            names = {n for _, n, _, _ in string.Formatter().parse(c.get(key) or "") if n}
            assert names <= known, f"{code} {case} {key}: {names - known} unknown"


def test_a_new_check_by_the_recipe_without_a_question_is_caught():
    """The README's recipe followed for an error check, its question left out: the registry test names it; with
    the question written, it passes."""
    import copy

    registry = copy.deepcopy(REGISTRY)
    registry["power.pdu-overload"] = {
        "step": 4,
        "severity": "error",
        "title": "t",
        "why": "w",
        "fix": "f",
        "fires_on": ["x"],
        "passes": ["y"],
    }
    assert unasked(registry) == ["power.pdu-overload: a error needs a question"]
    registry["power.pdu-overload"]["question"] = "Which PDU feeds {figure}?"
    assert not unasked(registry)


def templates(code: str) -> list[tuple[str, str, str]]:
    """(where, template, each) of every message CODE can print: each of its (and its cases') messages, with every
    choice of the parts it names, for a finding with models and one without (stages/s8_checks/wording.compose)."""
    import itertools

    from sheetaudit.stages.s8_checks.wording import PART, compose

    out = []
    for case, _, c in _severities(REGISTRY[code]):
        said = c.get("message")
        if said is None and case == "" and REGISTRY[code].get("cases"):
            continue  # every case words its own
        names = list(said) if isinstance(said, dict) else [""]
        forms = c.get("parts") or {}
        for name in names:
            raw = said[name] if name else said
            slots = [p for p in dict.fromkeys(PART.findall(raw if isinstance(raw, str) else "")) if p != "models"]
            choices = [[None] + ([True] if isinstance(forms.get(p), str) else list(forms.get(p) or ())) for p in slots]
            for chosen in itertools.product(*choices):
                for models in ((), ("M1",)):
                    where = f"{code}{' case ' + case if case else ''}{' message ' + name if name else ''}"
                    template = compose(code, c, name, dict(zip(slots, chosen)), models)
                    out.append((f"{where} parts {dict(zip(slots, chosen))}", template, c.get("each", "")))
    return out


def _sample(field: str):
    """A value of FIELD as a check passes one: pages are page numbers, anything else a number (every format spec a
    template uses, {ratio:ratio} and {share:.0%} among them, takes one)."""
    return [3] if field == "pages" or field.endswith("_pages") else 1.5


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_every_message_formats_with_its_declared_fields(code):
    """A check's words are its entry's `message` (and `each`, one of its items, and `worked_question`), over the
    values its `fields` declares: every template, with every choice of its parts, renders from those values alone,
    and every declared field is named by one of them."""
    import string

    from sheetaudit.stages.s8_checks.wording import render

    declared = set(REGISTRY[code].get("fields") or ())
    data = {k: _sample(k) for k in declared}
    data["items"] = [dict(data)]
    named = set()
    found = templates(code)
    assert found, f"{code}: rules/checks.yaml gives it no message"
    worked = REGISTRY[code].get("worked_question")
    for where, template, each in found + ([(f"{code} worked_question", worked, "")] if worked else []):
        try:
            text = render(template, data, each, ["M1"])
        except KeyError as exc:
            raise AssertionError(f"{where}: {exc.args[0]}; declare it in `fields`") from None
        assert text.strip() and "<" not in text, f"{where}: {text!r}"
        named |= {n.split(".")[0] for t in (template, each) for _, n, _, _ in string.Formatter().parse(t) if n}
    assert declared <= named, f"{code}: fields {sorted(declared - named)} are named by no message"


def test_a_message_naming_an_undeclared_field_is_caught():
    """The test above, on a copy of an entry whose message names a value it does not declare."""
    import copy

    entry = copy.deepcopy(REGISTRY["power.per-node-only"])
    entry["message"] = entry["message"].replace("{nodes}", "{racks}")
    REGISTRY["power.example"] = entry
    try:
        with pytest.raises(AssertionError, match="racks"):
            test_every_message_formats_with_its_declared_fields("power.example")
    finally:
        del REGISTRY["power.example"]


def test_every_warning_or_error_raised_on_the_samples_asks_something():
    from conftest import SAMPLES
    from sheetaudit import pipeline

    for p in sorted(SAMPLES.iterdir()):
        if p.suffix in (".pdf", ".md", ".txt", ".html"):
            for f in pipeline.run(p).findings:
                if f.severity in ("error", "warning"):
                    assert f.question.strip(), f"{p.name}: {f.check} asks nothing"
