"""Find figures in segments: numbers with bandwidth / latency / power units, counted accelerators and
cooling methods, in the spellings vendors use (English and Chinese).

Only spellings listed in rules/units.yaml count as units, so part numbers, years, dimensions, memory
capacities, FLOPS and temperatures are never figures. Power-supply ratings are dropped here too: they
are capacity, not consumption.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .model import Document, Mention, Segment
from .rules import load_rules, rx

# Thousands commas ("1,100 W"), and European decimal commas ("106,25 Gbit/s", "1,6 Tbit/s") where the comma
# is followed by one or two digits only and does not continue a list ("10,25,40").
NUM = r"(?:\d{1,3}(?:,\d{3})+(?!\d|,\d)|(?<![\d,])\d+,\d{1,2}(?![\d,])|\d+)(?:\.\d+)?"
WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "thirty-two": 32, "sixty-four": 64,
                "一": 1, "二": 2, "两": 2, "四": 4, "八": 8, "十六": 16}
BOUNDS = [(r"up\s*to|as high as|最高|高达|最大|最多", "up-to"), (r"as low as|低至", "as-low-as"),
          (r"over|more than|greater than|>|≥|超过|大于", "over"), (r"less than|under|below|<|≤|小于|低于|不超过", "below"),
          (r"~|≈|approx\.?|approximately|about|around|nearly|约", "about"),
          (r"max(?:imum)?\.?|peak", "max")]
BOUND_RX = "|".join(f"(?:{p})" for p, _ in BOUNDS)
MARKERS = "¹²³⁴⁵⁶⁷⁸⁹*†‡"
NOT_AFTER = {"G": r"\s*(?:optic|optics|transceiver|module|cable|DAC|AOC|LTE)\b|5G",
             "T": r"(?!\s*(?:Ethernet|switch|switching|fabric|class))",
             "Gb": r"\s*(?:DDR|HBM|memory|RAM|flash|NAND)",
             "Gib": r"\s*(?:DDR|HBM|memory|RAM)"}


def _unit_alt(spellings) -> str:
    parts = []
    for s in sorted(spellings, key=len, reverse=True):
        esc = re.escape(s).replace("/", r"\s*/\s*").replace(r"\ ", r"\s+")
        parts.append(esc)
    return "|".join(parts)


@lru_cache(maxsize=1)
def _patterns():
    r = load_rules()
    from .units import canonical_rates, rate_regex
    unit_q = {}
    for q in ("bandwidth", "latency", "power", "weight"):
        for s in r.units.get(q, {}):
            unit_q[s] = q
    units = f"{rate_regex()}|{_unit_alt(unit_q)}"
    unit_q.update({s: "bandwidth" for s in canonical_rates()})
    # A number glued to a part number ("SYS-821GE", "T8A-...-400G") is not a figure; a wattage at the end of
    # a model name ("MI300X-...-750W") is, so "-" may precede a number only when its unit is power.
    pre = r"(?<![A-WYZa-wyz0-9_.\-/])|(?<=\d[xX×])|(?<=/(?=\d))|(?<=-(?=\d{3,4}\s?(?:W|kW)\b))"
    figure = re.compile(
        rf"(?:(?P<bound>(?i:{BOUND_RX}))\s*:?\s*)?(?:{pre})(?P<num>{NUM}(?:\s*/\s*{NUM})*)\s?"
        rf"(?P<unit>{units})(?P<marker>[{MARKERS}]?)(?![A-Za-z0-9])(?!-[A-Za-z0-9])")
    unit_list = re.compile(rf"(?<![\w.])(?P<list>{NUM}\s?(?P<u>Gb|GbE|G|Mb)(?:\s*/\s*{NUM}\s?(?P=u))+)(?![\w/])")
    bare_gb = re.compile(rf"(?<![\w.])(?P<num>{NUM})\s?GB(?=\s*(?:HDR|NDR|EDR|XDR|InfiniBand|Infiniband|IB|Ethernet)\b)")
    rate_name = re.compile(r.conventions["rate_names"])
    count_words = "|".join(sorted((k for k in WORD_NUMBERS if k.isascii()), key=len, reverse=True))
    nouns = r.vocab["accelerator_nouns"]
    domain = re.compile(
        rf"(?:(?P<bound>up to|as many as|最多)\s+)?(?<![\w.,])(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+|{count_words})(?![\d.])(?![A-WYZa-wyz])\s*-?\s*(?:[xX×]\s*)?"
        rf"(?P<mid>(?-i:(?:(?:[A-Z0-9\u4e00-\u9fff][\w\-]*|®|™)\s*){{0,6}}?))(?P<noun>{nouns})\b", re.I)
    zh_count = re.compile(r"(?<!\d)(?P<n>\d+)\s*(?:(?P<cls>[颗张块枚])\s*(?:[\u4e00-\u9fffA-Za-z ]{0,8}?)(?:处理器|NPU|GPU|加速卡|芯片|卡)|卡(?![槽位]))")
    return unit_q, figure, unit_list, bare_gb, rate_name, domain, zh_count


def _num(s: str) -> float:
    if re.fullmatch(r"\d+,\d{1,2}", s):
        return float(s.replace(",", "."))
    return float(s.replace(",", ""))


def _bound(text: str | None) -> str:
    if not text:
        return ""
    for pat, name in BOUNDS:
        if re.fullmatch(pat, text.strip(), re.I):
            return name
    return ""


def find_mentions(doc: Document) -> list[Mention]:
    out: list[Mention] = []
    for seg in doc.segments:
        if seg.kind == "heading" and not re.search(r"\d", seg.text):
            continue
        out.extend(_numeric(seg))
        out.extend(_domain(seg, doc))
        out.extend(_cooling(seg))
    return out


def _numeric(seg: Segment) -> list[Mention]:
    unit_q, figure, unit_list, bare_gb, rate_name, _, _ = _patterns()
    r = load_rules()
    text = seg.text
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []

    def free(a, b):
        return all(b <= x or a >= y for x, y in taken)

    for m in unit_list.finditer(text):
        vals = [_num(v) for v in re.findall(NUM, m.group("list"))]
        unit = m.group("u")
        mm = Mention("bandwidth", m.group(0), max(vals), unit, seg, m.start(), m.end(), flags={"rate-list"})
        found.append(mm)
        taken.append((m.start(), m.end()))
    for m in figure.finditer(text):
        if not free(m.start("num"), m.end()):
            continue
        unit = re.sub(r"\s+", "", m.group("unit"))
        unit = _canonical(unit, unit_q)
        q = unit_q.get(unit)
        if q is None:
            continue
        after = text[m.end():]
        if unit in NOT_AFTER and re.match(NOT_AFTER[unit], after, re.I):
            continue
        nums = [_num(v) for v in re.findall(NUM, m.group("num"))]
        flags = set()
        if len(nums) > 1:
            flags.add("rate-list")
        if unit in ("G", "T"):
            flags.add("bare-unit")
        if unit.endswith("T/s"):
            flags.add("signaling")
        start = m.start("bound") if m.group("bound") else m.start("num")
        found.append(Mention(q, text[start:m.end()].strip(), max(nums), unit, seg, start, m.end(),
                             bound=_bound(m.group("bound")), marker=m.group("marker") or "", flags=flags))
        taken.append((start, m.end()))
    for m in bare_gb.finditer(text):
        if free(m.start(), m.end()):
            found.append(Mention("bandwidth", m.group(0), _num(m.group("num")), "GB", seg, m.start(), m.end(),
                                 flags={"bytes-for-bits", "bare-unit"}))
            taken.append((m.start(), m.end()))
    for m in rate_name.finditer(text):
        if free(m.start(), m.end()):
            found.append(Mention("bandwidth", m.group(0), float(m.group(1)), "Gb/s", seg, m.start(), m.end(),
                                 flags={"bare-unit", "rate-name"}))
            taken.append((m.start(), m.end()))
    kept = []
    if rx(r.vocab["not_figures_label"]).search(seg.label or ""):
        return []
    for mm in found:
        if mm.quantity == "power" and _is_supply_rating(mm, r):
            continue
        mm.count = _count_before(text[:mm.start])
        kept.append(mm)
    kept.sort(key=lambda x: x.start)
    return kept


def _canonical(unit: str, unit_q: dict) -> str:
    from .units import canonical_rate
    rate = canonical_rate(unit)
    if rate:
        return rate
    if unit in unit_q:
        return unit
    for s in unit_q:   # "Gb / Sec" printed with spaces: compare without them
        if re.sub(r"\s+", "", s) == unit:
            return s
    return unit


def _is_supply_rating(m: Mention, r) -> bool:
    pat = rx(r.vocab["power_excluded"])
    window = m.segment.text[max(0, m.start - 40):m.end + 40]
    return bool(pat.search(m.segment.label) or pat.search(window))


def _count_before(left: str) -> int | None:
    """'8x 400 Gb/s', '8 × 200GE', '64x NDR 400 Gb/s', '2 x 25 Gb/s': the count of ports or devices."""
    m = re.search(r"(?<![\w.])(\d{1,4})\s*(?:[xX×]|个|路|口)\s*(?:[A-Za-z][\w\-()]*\s+){0,5}$", left[-80:])
    if m:
        return int(m.group(1))
    m = re.search(r"(\d{1,4})\s*ports? of\s*$", left[-40:])
    return int(m.group(1)) if m else None


def _domain(seg: Segment, doc: Document) -> list[Mention]:
    *_, domain, zh_count = _patterns()
    r = load_rules()
    if seg.kind == "footnote":
        return []
    out = []
    label_rx = rx(r.vocab["accelerator_count_label"])
    if seg.label and label_rx.search(seg.label.strip()) and re.fullmatch(r"\d{1,6}", seg.text.strip()):
        out.append(Mention("domain_size", seg.text.strip(), float(seg.text), "accelerators", seg, 0,
                           len(seg.text), flags={"from-label"}))
        return out
    for m in domain.finditer(seg.text):
        n = m.group("n").lower()
        val = WORD_NUMBERS.get(n) or (int(n.replace(",", "")) if n.replace(",", "").isdigit() else None)
        if not val or val > 1_000_000:
            continue
        mid = m.group("mid") or ""
        if re.search(r"\b(?:CPUs?|cores|nodes?|trays?|racks?|switch(?:es)?)\b", mid, re.I):
            continue
        out.append(Mention("domain_size", m.group(0).strip(), float(val), "accelerators", seg, m.start(), m.end(),
                           bound="up-to" if m.group("bound") else "",
                           flags={"from-label-row"} if label_rx.search(seg.label or "") else set()))
    for m in zh_count.finditer(seg.text):
        if not any(o.start <= m.start() < o.end for o in out):
            out.append(Mention("domain_size", m.group(0), float(m.group("n")), "accelerators", seg, m.start(), m.end()))
    return out


def _cooling(seg: Segment) -> list[Mention]:
    r = load_rules()
    v = r.vocab
    out = []
    if seg.label and rx(v["cooling_label"]).search(seg.label):
        text = seg.text
        spans: list[tuple[int, int]] = []
        for entry in v["cooling"]:
            for m in rx(entry["pattern"]).finditer(text):
                if any(not (m.end() <= a or m.start() >= b) for a, b in spans):
                    continue
                spans.append((m.start(), m.end()))
                if not any(o.value == entry["value"] for o in out):
                    out.append(Mention("cooling", m.group(0), entry["value"], "", seg, m.start(), m.end()))
        return out
    for m in rx(v["cooling_phrase"]).finditer(seg.text):
        for entry in v["cooling"]:
            if rx(entry["pattern"]).search(m.group(0)):
                out.append(Mention("cooling", m.group(0), entry["value"], "", seg, m.start(), m.end()))
                break
    return out
