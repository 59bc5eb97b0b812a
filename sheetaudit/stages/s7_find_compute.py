"""An accelerator's compute and memory capacity as figures of the contract, beside the interconnect figures:
`compute` (TFLOP/s as printed, normalised to dense TFLOP/s per accelerator at its precision) and `memory` (the
accelerator's memory capacity in GB, in its own scope). The training what-if reads them (sheetaudit/atscale).

Vendors print compute their own way, and each way is normalised and said (rules/vocabulary.yaml `compute`):
- sparse throughput ("1,979 teraFLOPS" in a row marked "*", "*With sparsity" under the table; "with sparsity" in
  the sentence) is twice dense: halved, basis `sparse`;
- a system's compute ("5 petaFLOPS of AI performance" for an 8-GPU server) is divided by the accelerators the sheet
  counts; with no dense or sparse word it is read as sparse (the vendors' convention for a system's headline),
  marked inferred;
- a figure with no precision named ("312 teraFLOPS of deep learning performance") is 16-bit tensor compute,
  marked inferred."""

from __future__ import annotations

from ..records import Figure
from ..rules import load_rules, rx

WINDOW = 60  # characters either side of a number in which its precision, sparsity and scope are read
UNITS = {"t": "TFLOP/s", "p": "PFLOP/s", "e": "EFLOP/s", "g": "GFLOP/s"}
CLAUSE_END = rx(r"[.;|。；](?:\s|$)|\s[•▪●◦■►]\s")
NUMBER = rx(r"(?<![\w.,])\d")  # a number of its own ("FP16", "H100" are names): the next figure's words


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _window(text: str, start: int, end: int, width: int = WINDOW) -> tuple[str, str]:
    """The words before and after a span, inside its clause (a sentence end, a semicolon or a bar ends it) and
    up to the next number ("5 petaFLOPS AI 10 petaOPS INT8": INT8 is the second figure's)."""
    left = text[max(0, start - width) : start]
    cut = list(CLAUSE_END.finditer(left)) + list(NUMBER.finditer(left))
    left = left[max(c.end() for c in cut) :] if cut else left
    right = text[end : end + width]
    cut2 = [c.start() for c in (CLAUSE_END.search(right), NUMBER.search(right)) if c]
    return left, right[: min(cut2)] if cut2 else right


def _nearest(entries: list[dict], key: str, left: str, right: str):
    """The entry whose pattern is nearest the number (before or after it), ties to the earlier entry."""
    best, best_d = None, None
    for e in entries:
        pat = rx(e["pattern"])
        d = min(
            [len(left) - m.end() for m in pat.finditer(left)] + [m.start() for m in pat.finditer(right)], default=None
        )
        if d is not None and (best_d is None or d < best_d):
            best, best_d = e[key], d
    return best


def _first(entries: list[dict], key: str, text: str):
    return next((e[key] for e in entries if text and rx(e["pattern"]).search(text)), None)


def _star_sparse(doc, voc: dict) -> bool:
    """Whether the sheet says its star marks sparse throughput ("*With sparsity" under the table)."""
    pat = rx(voc["star_is_sparse"])
    texts = [s.text for s in doc.segments if s.kind in ("footnote", "sentence", "line", "cell", "page")]
    texts += [f"{k} {v}" for k, v in (doc.footnotes or {}).items()]
    return any(pat.search(t.strip()) or (len(t) > 200 and rx(r"[*†]\s*with sparsity").search(t)) for t in texts)


SUPERSCRIPTS = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹", "123456789")


def _footnote(doc, marker: str | None) -> str:
    """The text of the numbered footnote a figure's marker points to ("4 Effective FP8 teraFLOPS (TFLOPS) using
    the new sparsity feature"), from the reader's footnotes or a footnote line that runs several together."""
    marker = (marker or "").strip().translate(SUPERSCRIPTS)
    if not marker.isdigit():
        return ""
    texts = [f"{k} {v}" for k, v in (doc.footnotes or {}).items()]
    texts += [s.text for s in doc.segments if s.kind == "footnote"]
    pat = rx(rf"(?:^|\s){marker}\s+([A-Z*][^|]*?)(?=\s+(?:I\s+)?(?!{marker}\b)\d\s+[A-Z]|$)")
    return next((m.group(1) for t in texts for m in [pat.search(t)] if m), "")


def _domain_count(figures: list[Figure]) -> int | None:
    sizes = [
        int(f.normalized["value"])
        for f in figures
        if f.quantity == "domain_size"
        and f.tier == "scale-up"
        and f.normalized
        and isinstance(f.normalized.get("value"), (int, float))
    ]
    return max(sizes) if sizes else None


def _system_scope(texts: tuple, sheet_kind: str, voc: dict) -> str:
    """Whose total a system figure is: the nearest words that say (a cluster, a rack, a node), else the sheet's kind."""
    for text in texts:
        for key, scope in (("cluster", "per-cluster"), ("rack", "per-rack"), ("system", "per-node")):
            if rx(voc[key]).search(text or ""):
                return scope
    return {"pod": "per-cluster", "rack": "per-rack"}.get(sheet_kind, "per-node")


def _count(sheet, seg, model: str, scope: str, domain: int | None) -> tuple[int | None, str]:
    """How many accelerators a system figure is the total of, and what said so: the sheet's count for the table or
    sheet (a node's), or the scale-up domain for a rack's or a cluster's total, where that is larger."""
    n = sheet.accelerators_for(seg.block, model)
    if domain and (n is None or (scope != "per-node" and domain > n)):
        return domain, f"divided by the scale-up domain of {domain}"
    return n, ""


def _accelerator_name(seg, doc, pat) -> str:
    for text in (seg.column, seg.label, seg.text, seg.heading, doc.title):
        m = pat.search(text or "")
        if m:
            return m.group(1).replace(" ", "")
    m = next((m for s in doc.segments for m in [pat.search(s.text)] if m), None)
    return m.group(1).replace(" ", "") if m else ""


def compute_figures(doc, sheet, figures: list[Figure]) -> list[Figure]:
    """The compute and memory figures of the document, numbered after FIGURES."""
    r = load_rules().vocab
    out = _compute(doc, sheet, figures, r["compute"]) + _memory(doc, sheet, r["memory_capacity"], r["compute"])
    n = len(figures)
    for i, f in enumerate(out, start=n + 1):
        f.id = f"f{i}"
    return out


def _compute(doc, sheet, figures, voc: dict) -> list[Figure]:
    star_sparse = _star_sparse(doc, voc)
    names = rx(voc["accelerators"])
    domain = _domain_count(figures)
    out = []
    for seg in doc.segments:
        for m in rx(voc["figure"]).finditer(seg.text):
            left, right = _window(seg.text, m.start(), m.end())
            near = f"{left} {m.group(0)} {right}"
            around = f"{seg.label} {seg.column} {near}"
            if rx(voc["not_compute"]).search(f"{seg.label} {left}"):
                continue
            tflops = _num(m.group(1)) * voc["prefix_tflops"][m.group(2)[0].lower()]
            inferred: dict[str, str] = {}
            note = _footnote(doc, m.group(3))
            precision = (
                _first(voc["precisions"], "precision", seg.label)
                or _nearest(voc["precisions"], "precision", left, right)
                or _first(voc["precisions"], "precision", seg.column)
                or _first(voc["precisions"], "precision", note)
                or _first(voc["precisions"], "precision", seg.heading)
            )
            if precision is None:
                precision = voc["unstated_precision"]
                inferred["precision"] = "no precision printed: read as 16-bit tensor compute"
            starred = (m.group(3) or "").strip() in ("*", "†") or seg.label.rstrip().endswith(("*", "†"))
            if rx(voc["dense"]).search(f"{around} {note}"):
                basis = "dense"
            elif rx(voc["sparse"]).search(f"{around} {note}") or (starred and star_sparse):
                basis = "sparse"
            else:
                basis = "unspecified"
            per_acc = rx(voc["per_accelerator"]).search(around)
            system_words = (
                rx(voc["system"]).search(around) or rx(voc["rack"]).search(around) or rx(voc["cluster"]).search(around)
            )
            counted = None if per_acc else rx(voc["counted"]).search(f"{seg.column} | {seg.label}")
            if per_acc:
                scope = "per-accelerator"
            elif counted:
                scope = _system_scope((near, seg.label, seg.column), sheet.kind, voc)
            elif system_words:
                scope = _system_scope((near, seg.label, seg.column), sheet.kind, voc)
            elif tflops > voc["accelerator_max_tflops"]:
                scope = _system_scope((near, seg.label, seg.column, seg.text, seg.heading), sheet.kind, voc)
                inferred["scope"] = (
                    f"{m.group(0)} is more than any one accelerator computes and the sheet does "
                    f"not say it is one's: read as the whole {sheet.kind if sheet.kind in ('server', 'rack', 'pod') else 'system'}'s"
                )
            else:
                scope = "per-accelerator"
                if sheet.kind in ("server", "rack", "pod"):
                    inferred["scope"] = (
                        "a system's sheet that does not say whose compute this is: read as one accelerator's"
                    )
            f = Figure(
                id="",
                quantity="compute",
                text=m.group(0)[: (m.start(3) if m.group(3) else m.end()) - m.start()],
                value=_num(m.group(1)),
                unit=UNITS[m.group(2)[0].lower()],
                page=seg.page,
                context=_context(seg),
                scope=scope,
                basis=basis,
                label=seg.label,
                heading=seg.heading,
                bbox=seg.bbox,
                ocr=seg.ocr,
                segment=seg,
                model=sheet.model_of(seg),
                precision=precision,
                accelerator=_accelerator_name(seg, doc, names),
            )
            steps = [f"{m.group(0)} = {tflops:g} TFLOP/s"]
            value = tflops
            if scope != "per-accelerator":
                got = (int(counted.group(1)), "") if counted else _count(sheet, seg, f.model, scope, domain)
                value = _per_accelerator(tflops, got, domain, voc["accelerator_max_tflops"], steps, inferred)
            out.append((f, value, steps, inferred))
    own = _own_dense(out)
    dense_only = _first_named(doc, voc)
    for f, value, steps, inferred in out:
        if value is not None:
            value = _dense(f, value, own, voc, steps, inferred, dense_only)
        f.normalized = None if value is None else {"value": round(value, 4), "unit": "TFLOP/s"}
        f.arithmetic = ", ".join(steps) + (" per accelerator" if value is not None else "")
        _certainty(f, inferred, "compute")
    return [x[0] for x in out]


def _per_accelerator(
    tflops: float, counted: tuple, domain: int | None, most: float, steps: list, inferred: dict
) -> float | None:
    """A system's total per accelerator: over the accelerators the sheet counts, else its scale-up domain where the
    count gives more than any accelerator computes; None when no count the sheet gives makes it one's."""
    count, how = counted
    tries = [(count, how)] + (
        [(domain, f"divided by the scale-up domain of {domain}")] if domain and domain != count else []
    )
    for n, why in tries:
        if n and tflops / n <= most:
            steps.append(f"/ {n} accelerators = {tflops / n:g}")
            if why:
                inferred["value"] = why
            return tflops / n
    steps.append(
        "the sheet does not count the accelerators it is the total of"
        if not count
        else f"/ {count} accelerators is more than any accelerator computes: not the count it totals"
    )
    return None


def _own_dense(figs: list[tuple]) -> dict[str, list[float]]:
    """The per-accelerator figures the sheet prints dense (or says nothing of), by precision."""
    own: dict[str, list[float]] = {}
    for f, value, _, _ in figs:
        if f.scope == "per-accelerator" and f.basis != "sparse":
            own.setdefault(f.precision, []).append(value)
    return own


def _first_named(doc, voc: dict) -> str:
    """The first accelerator the sheet names, when it is one with no sparse mode (else '')."""
    both = [rx(voc["accelerators"]), rx(voc["dense_only_accelerators"])]
    for seg in doc.segments:
        hits = [(m.start(), i, m.group(1)) for i, pat in enumerate(both) for m in [pat.search(seg.text)] if m]
        if hits:
            _, which, name = min(hits)
            return name if which == 1 else ""
    return ""


def _dense(f: Figure, value: float, own: dict, voc: dict, steps: list, inferred: dict, dense_only: str = "") -> float:
    """The dense value of a per-accelerator throughput: halved when sparse; a system's share that says neither is
    held against the sheet's own per-accelerator figure at its precision (equal: dense; twice it: sparse), else
    read as sparse by the vendors' convention for a system's headline."""
    sparse = f.basis == "sparse"
    if f.basis == "unspecified" and f.scope != "per-accelerator":
        match = next(
            ((k, d) for d in own.get(f.precision, []) for k in (1, 2) if abs(value / (k * d) - 1) < 0.05), None
        )
        if match:
            sparse = match[0] == 2
            inferred["basis"] = (
                f"its share per accelerator is {'twice ' if sparse else ''}the sheet's own "
                f"{match[1]:g} TFLOP/s per accelerator: {'sparse' if sparse else 'dense'}"
            )
        elif dense_only:
            inferred["basis"] = f"the sheet's {dense_only} has no sparse mode: dense"
        elif voc["system_unstated_is_sparse"]:
            sparse = True
            inferred["basis"] = (
                "a system's headline compute that says neither dense nor sparse: read as sparse, "
                "the vendors' convention"
            )
    if sparse:
        value /= 2
        steps.append(f"/ 2 (with sparsity) = {value:g} dense")
    return value


def _memory(doc, sheet, voc: dict, cvoc: dict) -> list[Figure]:
    names = rx(cvoc["accelerators"])
    out = []
    for seg in doc.segments:
        label_ok = bool(rx(voc["label"]).search(seg.label or "")) and not rx(voc["not_accelerator"]).search(seg.label)
        for m in rx(voc["figure"]).finditer(seg.text):
            if rx(r"^\s?(?:/\s?s|ps\b|it\b|bps)").search(seg.text[m.end() : m.end() + 4]):
                continue  # a rate: memory bandwidth is a bandwidth figure
            left, right = _window(seg.text, m.start(), m.end(), 40)
            near = f"{left[-25:]} {right[:30]}"
            own = rx(r"[，,;；、(（]").split(right, maxsplit=1)[0]  # the words of this figure's own item
            if rx(voc["not_accelerator"]).search(near) or rx(voc["memory_bandwidth"]).search(own[:15]):
                continue
            if not (label_ok or rx(voc["words"]).search(near)):
                continue
            inferred: dict[str, str] = {}
            total = rx(voc["total"]).search(f"{near} {seg.label}")
            if total:
                scope = _system_scope((near, seg.label, seg.column), sheet.kind, cvoc)
            else:
                scope = "per-accelerator"
                said = rx(cvoc["per_accelerator"]).search(f"{seg.label} {seg.text}") or rx(voc["each"]).search(
                    right[:25]
                )
                if not said and sheet.kind != "accelerator":
                    inferred["scope"] = "accelerator memory with no scope printed: read as one accelerator's"
            gb = _num(m.group(1)) * voc["to_gb"][m.group(2).lower()]
            f = Figure(
                id="",
                quantity="memory",
                text=m.group(0),
                value=_num(m.group(1)),
                unit=m.group(2),
                page=seg.page,
                context=_context(seg),
                tier="memory",
                scope=scope,
                label=seg.label,
                heading=seg.heading,
                bbox=seg.bbox,
                ocr=seg.ocr,
                segment=seg,
                model=sheet.model_of(seg),
                accelerator=_accelerator_name(seg, doc, names),
                normalized={"value": round(gb, 3), "unit": "GB"},
            )
            _certainty(f, inferred, "memory")
            out.append(f)
    if not out:
        out = _named_memory(doc, sheet, voc)
    return out


def _named_memory(doc, sheet, voc: dict) -> list[Figure]:
    """The memory a model's name carries ("A100 80GB"), where the sheet prints no memory figure: inferred."""
    for seg in doc.segments:
        m = rx(voc["model_name"]).search(seg.text)
        if m:
            f = Figure(
                id="",
                quantity="memory",
                text=m.group(0),
                value=float(m.group(2)),
                unit="GB",
                page=seg.page,
                context=_context(seg),
                tier="memory",
                scope="per-accelerator",
                label=seg.label,
                heading=seg.heading,
                bbox=seg.bbox,
                ocr=seg.ocr,
                segment=seg,
                model=sheet.model_of(seg),
                accelerator=m.group(1),
                normalized={"value": float(m.group(2)), "unit": "GB"},
            )
            _certainty(
                f,
                {"value": f"read from the model's name {m.group(0)!r}: the sheet prints no memory capacity"},
                "memory",
            )
            return [f]
    return []


def _context(seg) -> str:
    text = f"{seg.label}: {seg.text}" if seg.label else seg.text
    return (f"[{seg.column}] {text}" if seg.column else text)[:400]


def _certainty(f: Figure, inferred: dict, what: str) -> None:
    f.inferred = inferred
    f.certainty = "inferred" if inferred else "stated"
    f.certainty_reason = (
        "; ".join(inferred.values()) if inferred else f"the sheet gives this {what} with its unit and whose it is"
    )
