"""What a sheet's text says of its accelerator, for the training what-if: peak tensor compute at 16-bit and 8-bit
precision (TFLOP/s, dense, per accelerator), memory capacity (GB per accelerator) and the accelerator generation.

A small reader of its own over the segments the reader produced (sentences and table cells with their row label
and column), not a figure of the audit contract: the figure finder does not read compute or memory capacity yet.

Vendors print compute their own way, and each way is normalised and said:
- sparse throughput ("1,979 teraFLOPS" in a row marked "*", "*With sparsity" under the table; "with sparsity" in
  the sentence) is twice dense: halved, and flagged;
- system-wide compute ("5 petaFLOPS of AI performance" for an 8-GPU server) is not one accelerator's: flagged, and
  not used, since the precision and sparsity behind "AI" are not printed;
- a figure with no precision named ("312 teraFLOPS of deep learning performance") is read as 16-bit tensor
  compute, and says so.
Where a table has a column per model, the first column's value is taken and the column named."""
from __future__ import annotations

import re

_NUM = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
COMPUTE = re.compile(_NUM + r"\s*(tera|peta|exa|T|P|E)\s*(?:FLOPS|FLOP/s|flops|FLOPs)\b(\*)?", re.I)
SCALE = {"t": 1.0, "p": 1e3, "e": 1e6}
PRECISION = [("fp8", re.compile(r"\bFP8\b", re.I)), ("bf16", re.compile(r"\b(BF16|BFLOAT16|FP16|half)\b", re.I)),
             ("other", re.compile(r"\b(TF32|FP32|FP64|INT8|FP4|FP6|INT4)\b", re.I))]
SPARSE = re.compile(r"sparsity|sparse|稀疏", re.I)
STAR_IS_SPARSE = re.compile(r"\*\s*with sparsity", re.I)
SYSTEM = re.compile(r"\b(system|server|node|rack|DGX|HGX|POD|form factor)\b", re.I)
PER_ACC = re.compile(r"\b(per|each|every)\s+(GPU|accelerator|chip|device|OAM|card)\b|单卡|每卡", re.I)
MEMORY = re.compile(_NUM + r"\s*(?:GB|gigabytes)\s*(?:of\s+)?(HBM\w*)", re.I)
MEMORY_CELL = re.compile(r"^\s*" + _NUM + r"\s*GB\s*(HBM\w*)?\s*$", re.I)
NAMED_MEMORY = re.compile(r"\b(A100|H100|H200|H800|B200|B300|MI300X|MI325X|MI355X)\s*(\d{2,3})\s*GB\b", re.I)
GENERATION = re.compile(r"\b(GB300|GB200|B300|B200|H200|H100|H800|A100|A800|MI355X|MI325X|MI300X|Gaudi\s?3)\b", re.I)


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def _context(seg) -> str:
    return " ".join(x for x in (seg.label, seg.heading, seg.text) if x)


def compute_readings(segments) -> list[dict]:
    """Every compute figure of the text: value (TFLOP/s as printed), precision, sparse, scope, dense per
    accelerator (None when it cannot be one accelerator's), and the words that decided."""
    star_sparse = any(STAR_IS_SPARSE.search(_context(s)) for s in segments)
    out = []
    for seg in segments:
        for m in COMPUTE.finditer(seg.text):
            tflops = _value(m.group(1)) * SCALE[m.group(2)[0].lower()]
            ctx = _context(seg)
            precision = next((p for p, rx in PRECISION if rx.search(ctx)), None)
            starred = bool(m.group(3)) or "*" in (seg.label or "")
            sparse = bool(SPARSE.search(seg.text)) or (starred and star_sparse)
            # a petaFLOPS figure not said to be one accelerator's is a system's (no accelerator printed one
            # before 2024; B200's FP4 is 9 PF sparse, so a cell that names the accelerator keeps it)
            system = tflops >= 1000 * 10 and not PER_ACC.search(seg.text) or \
                SCALE[m.group(2)[0].lower()] > 1 and bool(SYSTEM.search(ctx)) and not PER_ACC.search(seg.text)
            r = {"text": m.group(0), "page": seg.page, "column": seg.column, "tflops": tflops,
                 "precision": precision or "bf16", "precision_stated": precision is not None, "sparse": sparse,
                 "scope": "system" if system else "per-accelerator"}
            r["dense_tflops"] = None if system else tflops / (2 if sparse else 1)
            out.append(r)
    return out


def read_specs(segments, precision: str = "bf16") -> dict:
    """{peak_tflops: (value, how), memory_gb: (value, how), generation: (name, how), flags: [...]} as far as the
    text gives them; `how` says where each came from and what was normalised."""
    segments = list(segments)
    out: dict = {"flags": []}
    readings = compute_readings(segments)
    for r in readings:
        if r["precision"] not in (precision, "other") and r["precision_stated"]:
            continue
        if r["scope"] == "system":
            out["flags"].append(f"{r['text']} (p{r['page']}) is the whole system's compute, not one accelerator's")
        elif r["sparse"] and r["precision"] == precision:
            out["flags"].append(f"{r['text']} (p{r['page']}) is sparse throughput: {r['dense_tflops']:g} dense")
    out["flags"] = list(dict.fromkeys(out["flags"]))      # a figure printed in two rows (BF16, FP16) once
    usable = [r for r in readings if r["dense_tflops"] and r["precision"] == precision]
    if usable:
        first_column = next((r["column"] for r in usable if r["column"]), "")
        pick = [r for r in usable if r["column"] == first_column] or usable
        r = max(pick, key=lambda x: (x["precision_stated"], x["dense_tflops"]))
        how = f"{'stated' if not r['sparse'] else 'derived'}: {r['text']} (p{r['page']})"
        how += f", {r['column']}" if r["column"] else ""
        how += ", with sparsity: halved to dense" if r["sparse"] else ""
        how += "" if r["precision_stated"] else ", no precision printed: read as 16-bit tensor compute"
        out["peak_tflops"] = (r["dense_tflops"], how)
    mem = _memory(segments)
    if mem:
        out["memory_gb"] = mem
    gen = next((m.group(1) for s in segments for m in [GENERATION.search(s.text)] if m), None)
    if gen:
        out["generation"] = (gen.replace(" ", "").lower(), "named in the sheet")
    return out


def _memory(segments):
    for seg in segments:
        label = (seg.label or "").lower()
        m = MEMORY_CELL.match(seg.text)
        if m and "memory" in label and "bandwidth" not in label and "total" not in seg.text.lower():
            return _value(m.group(1)), f"stated: {seg.text.strip()} ({seg.label}, p{seg.page}" + \
                (f", {seg.column})" if seg.column else ")")
    for rx in (MEMORY, NAMED_MEMORY):
        for seg in segments:
            m = rx.search(seg.text)
            if m and "total" not in seg.text[m.end():m.end() + 10].lower():
                value = _value(m.group(1) if rx is MEMORY else m.group(2))
                return value, f"stated: {m.group(0)} (p{seg.page})"
    return None
