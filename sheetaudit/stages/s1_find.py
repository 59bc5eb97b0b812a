"""Find figures in segments: numbers with bandwidth / latency / power units, counted accelerators and
cooling methods, in the spellings vendors use (English and Chinese).

Only spellings listed in rules/units.yaml count as units, so part numbers, years, dimensions, memory
capacities, FLOPS and temperatures are never figures. Power-supply ratings are dropped here too: they
are capacity, not consumption.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..records import Document, Mention, Segment
from ..rules import compiled, load_rules, rx
from ..technologies import load as knowledge, prefilter

# Thousands commas ("1,100 W"), and European decimal commas ("106,25 Gbit/s", "1,6 Tbit/s") where the comma
# is followed by one or two digits only and does not continue a list ("10,25,40").
NUM = (
    r"(?:\d{1,3}(?:,\d{3})+(?!\d|,\d)|(?<![\d,])\d+,\d{1,2}(?![\d,])"
    # "1 050 W", "2 048 accelerators": a space between thousands, never before a bare port speed ("16 400G")
    r"|(?<!\d[ \u00a0\u202f])(?<![xX×] )\d{1,2}[\u00a0\u202f ]\d{3}(?![\d,.]|[\u00a0\u202f ]\d)"
    r"(?!\s?(?:GbE|GE|Gb|G|T)(?![a-zA-Z/]))|\d+)(?:\.\d+)?"
)
# "550-760 W", "150~180W", "700 to 1000 W": a range, read as its upper end (what the product may reach)
RANGE = rf"(?:\s?(?:-|–|~|～|to)\s?{NUM})?"
WORD_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "twenty-four": 24,
    "thirty-two": 32,
    "forty-eight": 48,
    "sixty-four": 64,
    "seventy-two": 72,
    "a hundred": 100,
    "one hundred": 100,
    "a thousand": 1000,
    "one thousand": 1000,
    "ten thousand": 10_000,
    "one million": 1_000_000,
    "a million": 1_000_000,
}
ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "萬": 10_000, "亿": 100_000_000}
ZH_NUM = "[零〇一二两三四五六七八九十百千万萬亿]+"
ZH_ROUND = compiled("[十百千万萬亿]+")  # 千, 万, 十万 alone: a round scale class, not a count


def zh_number(text: str) -> int | None:
    """Chinese numerals as vendors write counts: 八 8, 十六 16, 三十二 32, 三百八十四 384, 万 10,000, 十万 100,000."""
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ZH_UNITS:
            unit = ZH_UNITS[ch]
            if unit >= 10_000:
                section = (section + (digit or 0)) or 1
                total += section * unit
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * unit
                digit = None
        else:
            return None
    return total + section + (digit or 0) or None


# Port and lane speeds in Gb/s that Ethernet, InfiniBand and SerDes use; a bare "G" is a rate only at one of them.
STANDARD_G = {1, 2.5, 5, 10, 25, 40, 50, 53.125, 56, 100, 106.25, 112, 200, 212.5, 224, 400, 800, 1600, 3200}
BOUNDS = [
    (r"up\s*to|as high as|最高|高达|最大|最多", "up-to"),
    (r"as low as|低至", "as-low-as"),
    (r"over|more than|greater than|>|≥|超过|大于", "over"),
    (r"less than|under|below|<|≤|小于|低于|不超过", "below"),
    (r"~|≈|approx\.?|approximately|about|around|nearly|约", "about"),
    (r"max(?:imum)?\.?|peak", "max"),
]
BOUND_RX = "|".join(f"(?:{p})" for p, _ in BOUNDS)
MARKERS = "¹²³⁴⁵⁶⁷⁸⁹*†‡"
QUANTITIES = ("bandwidth", "latency", "power", "weight")  # of the unit lists in rules/units.yaml


def _opening(bounds) -> str:
    """A lookahead every figure passes where it starts: a digit, or the first two letters of a bound word
    ("up to", "approx."), or a bound's first sign ("≥", "约"). It changes no match (a figure starts with its
    bound or its number); it lets the scan leave the other positions of a sentence at one character test
    instead of trying each bound word and number form there (figure scanning costs half as much)."""
    firsts, seconds, signs = set(), set(), set()
    plain = compiled(r"[^\\()\[\]{}.*+?^$|]")  # a character that stands for itself
    for pattern, _ in bounds:
        for word in pattern.split("|"):
            if len(word) >= 3 and word[:2].isascii() and word[:2].isalpha() and word[2] not in "?*{":
                firsts.add(word[0].lower())
                seconds.add(word[1].lower())
            elif word and plain.match(word) and word[1:2] not in ("?", "*", "{"):
                signs.add(word[0])
            else:
                return ""  # a bound this reading cannot be sure of: no lookahead (the same matches, slower)
    starts = [r"\d"]
    if signs:
        starts.append(rf"(?i:[{re.escape(''.join(sorted(signs)))}])")
    if firsts:
        starts.append(rf"(?i:[{''.join(sorted(firsts))}][{''.join(sorted(seconds))}])")
    return rf"(?={'|'.join(starts)})"


_FIGURE_OPENING = _opening(BOUNDS)
NOT_AFTER = {
    "G": r"\s*(?:optic|optics|transceiver|module|cable|DAC|AOC|LTE)\b|\s*光?模块|5G",
    # "444 W x 131 H x 866 D (mm)": W is the width
    "W": r"\s*[xX×]\s*\d+(?:\.\d+)?\s*(?:H|D|L|mm)\b",
    "T": r"(?!\s*(?:Ethernet|switch|switching|fabric|class))",
    "Gb": r"\s*(?:DDR|HBM|memory|RAM|flash|NAND)",
    "Gib": r"\s*(?:DDR|HBM|memory|RAM)",
}


def _unit_alt(spellings) -> str:
    parts = []
    for s in sorted(spellings, key=len, reverse=True):
        esc = re.escape(s).replace("/", r"\s*/\s*").replace(r"\ ", r"\s+")
        parts.append(esc)
    return "|".join(parts)


# What follows a figure's unit and its footnote marker: no letter or digit ("16 GB" is not "16 G", "400G-ZR" no rate),
# but a line coding may ("100G-PAM4": a lane's rate)
FIGURE_END = r"(?![A-Za-z0-9])(?!-(?!PAM-?4\b|NRZ\b)[A-Za-z0-9])"
# ... or, for a wattage, a short word glued to its unit where a converter dropped the space ("705Wfor 15% Traffic
# Load", "350Wmax"): the word is the figure's condition, not part of its unit.
GLUED_WORD_END = r"(?<=W)(?=(?:for|at|max|typ|typical|per|with|under|when)\b)"


@lru_cache(maxsize=1)
def unit_alternation() -> str:
    """Every unit spelling of the rules as one alternation: the rate grammar's, then the listed ones."""
    from ..units import rate_regex

    r = load_rules()
    return f"{rate_regex()}|{_unit_alt(dict.fromkeys(s for q in QUANTITIES for s in r.units.get(q, {})))}"


# A product name written plural ("8 Gaudi 3s", "16 B200s"): a capitalised name ending in a model number and an "s".
PLURAL_NAME = r"(?-i:(?:[A-Z][\w\-]*[®™]?\s){0,3}[A-Z]*\d+[A-Z]*s)"


@lru_cache(maxsize=1)
def _counted_noun() -> re.Pattern:
    """What every count of accelerators ends in (the domain pattern's noun, plural name or '-way'): a segment
    without any is not scanned for a count at every number and number word."""
    # a plural name ends in a digit, capitals and an "s" (its leading words are not looked for: scanned from every
    # position they would backtrack over a long run of digits)
    v = load_rules().vocab
    return rx(rf"(?:{v['accelerator_nouns']})\b|(?-i:\d[A-Z]*s)\b|(?<=-)way\b|{v['accelerator_models']}")


@lru_cache(maxsize=1)
def _patterns():
    r = load_rules()
    from ..units import canonical_rates

    unit_q = {}
    for q in QUANTITIES:
        for s in r.units.get(q, {}):
            unit_q[s] = q
    units = unit_alternation()
    unit_q.update({s: "bandwidth" for s in canonical_rates()})
    # A number glued to a part number ("SYS-821GE", "T8A-...-400G") is not a figure; a wattage at the end of
    # a model name ("MI300X-...-750W") is, so "-" may precede a number only when its unit is power.
    # A sentence glued to the next one's wattage ("w/o MACSEC.1211Wfor 100% Traffic Load") starts a figure too.
    pre = (
        r"(?<![A-WYZa-wyz0-9_.\-/])|(?<=\d[xX×])|(?<=/(?=\d))|(?<=-(?=\d{3,4}\s?(?:W|kW)\b))"
        r"|(?<=[A-Za-z]{3}\.(?=\d{2,5}(?:\.\d+)?\s?k?W))"
    )
    # "4 x 10-Gbps", "40-Gigabit": a hyphen may join a number to a rate (never to a watt or a second)
    hyphen = r"-(?=(?:[KMGTkmgt]i?(?:b|B|bit|byte)(?:ps|/s|it/s)|Gigabit|GbE)(?![A-Za-z]))"
    figure = compiled(
        rf"{_FIGURE_OPENING}(?:(?P<bound>(?i:{BOUND_RX}))\s*:?\s*)?(?:{pre})(?P<num>{NUM}(?:\s*/\s*{NUM})*{RANGE})(?:\s?|{hyphen})"
        rf"(?P<unit>{units})(?P<marker>[{MARKERS}]?)(?:{FIGURE_END}|{GLUED_WORD_END})"
    )
    # "10G/5G/2.5G/1G/100M BASE-T": a list may end in a slower member in megabits
    unit_list = compiled(
        rf"(?<![\w.])(?P<list>{NUM}\s?(?P<u>Gb|GbE|G|Mb)(?:\s*/\s*{NUM}\s?(?P=u))+)(?:\s*/\s*\d{{2,3}}\s?M)?(?![\w/])"
    )
    # "Max 2800GB HDR", "1.6 TB ingress and 1.6 TB egress": bytes written for a rate in bits beside a network word
    bare_gb = compiled(
        rf"(?<![\w.])(?P<num>{NUM})\s?(?P<u>GB|TB)(?=\s*(?:HDR|NDR|EDR|XDR|InfiniBand|Infiniband|IB|Ethernet|ingress|egress)\b)"
    )
    rate_name = compiled(knowledge().rate_names())
    count_words = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
    nouns = r.vocab["accelerator_nouns"]
    # A count, then up to six words of product name or marks, then an accelerator noun: "8 GPUs",
    # "four Acme Volt accelerators", "8x Nova™ cards", "a 128-chip slice"; or a product name written plural
    # ("8 Gaudi 3s", "16 B200s"): a capitalised name ending in a model number and an "s"; or an accelerator's model name
    # alone ("8 × H100 SXM5", "four Nvidia A100": rules accelerator_models). A word of the name is taken
    # whole (possessive): a part number such as "1F1CSNA80900J" could otherwise be cut into words in every way.
    domain = compiled(
        rf"(?:(?P<bound>up to|as many as|more than|over|最多)\s+)?(?<![\w.,\-–])(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d{{1,2}} \d{{3}}(?!\d)|\d+|{count_words})(?![\d.])(?![A-WYZa-wyz])\s*-?\s*(?:[xX×]\s*)?"
        rf"(?:(?P<mid>(?-i:(?:(?:[A-Z0-9\u4e00-\u9fff][\w\-]*+|[a-z]{{1,3}}\d[\w\-]*+|®|™|(?<=[A-Z0-9] )(?:or|and|/)(?= [A-Z]))\s*){{0,6}}?))(?P<noun>{nouns})\b"
        rf"|(?P<plural>{PLURAL_NAME})\b|(?<=-)(?P<way>way)\b"
        rf"|(?:(?:{r.vocab['accelerator_model_makers']})[®™]?\s+){{0,2}}(?P<model>{r.vocab['accelerator_models']})(?![\w-]))",
        re.I,
    )
    # "8 颗曜石 OAM 模组", "单机8卡", "十六卡", "4个昇腾AI处理器", "搭载8颗昆仑芯AI加速模块R300": a count of cards or chips in
    # Chinese (a round 万卡 alone is skipped in _domain). Between the classifier and the noun, a product name but no
    # other count ("8个OS共64个昇腾AI处理器": the OSes are not processors).
    zh_nouns = r.vocab["accelerator_nouns_zh"]
    zh_mid = r"(?:(?![个颗张块枚台共和与及或，,。；;、])[\u4e00-\u9fffA-Za-z0-9\- ]){0,20}?"
    zh_count = compiled(
        rf"(?:(?<![\d,.\u4e00-\u9fff])(?P<zn>{ZH_NUM})|(?<![\d,.第号])(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+))\s*"
        rf"(?:(?P<cls>[颗张块枚个])\s*(?P<mid>{zh_mid})(?P<noun>{zh_nouns})|卡(?![槽位]))"
        rf"|(?<=[单每机台])(?P<n2>{ZH_NUM})卡(?![槽位])"
    )
    return unit_q, figure, unit_list, bare_gb, rate_name, domain, zh_count


@lru_cache(maxsize=1)
def _paren_twin():
    """ "12.8 (25.6) Tbps", "8.0 (16) Tbps": a rate and, in brackets, its twin sharing the unit printed after both.
    Vendors print the full-duplex sum in brackets beside the per-direction rate."""
    return compiled(
        rf"(?<![\w.])(?P<a>{NUM})\s*[(（]\s*(?P<b>{NUM})\s*[)）]\s?(?P<unit>{unit_alternation()}){FIGURE_END}"
    )


def _twins(seg: Segment, text: str, taken: "Spans", unit_q: dict) -> list[Mention]:
    out = []
    for m in _paren_twin().finditer(text):
        unit = _canonical(compiled(r"\s+").sub("", m.group("unit")), unit_q)
        if unit_q.get(unit) != "bandwidth" or not taken.free(m.start(), m.end()):
            continue
        a, b = _num(m.group("a")), _num(m.group("b"))
        double = a > 0 and abs(b - 2 * a) <= 0.02 * b
        out.append(
            Mention(
                "bandwidth",
                f"{m.group('a')} {m.group('unit')}",
                a,
                unit,
                seg,
                m.start("a"),
                m.end("a"),
                flags={"twin-single"} if double else set(),
            )
        )
        out.append(
            Mention(
                "bandwidth",
                f"({m.group('b')}) {m.group('unit')}",
                b,
                unit,
                seg,
                m.start("b"),
                m.end(),
                flags={"paren-twin"} | ({"twin-double"} if double else set()),
            )
        )
        taken.add((m.start(), m.end()))
    return out


def _num(s: str) -> float:
    s = compiled(r"(?<=\d)[\u00a0\u202f ](?=\d{3})").sub("", s)  # "2 048": a space between thousands
    if compiled(r"\d+,\d{1,2}").fullmatch(s):
        return float(s.replace(",", "."))
    return float(s.replace(",", ""))


def _bound(text: str | None) -> str:
    if not text:
        return ""
    for pat, name in BOUNDS:
        if compiled(pat, re.I).fullmatch(text.strip()):
            return name
    return ""


DIGIT = compiled(r"\d")


def find_mentions(doc: Document) -> list[Mention]:
    out: list[Mention] = []
    captions = _caption_units(doc)
    for seg in doc.segments:
        if seg.kind == "page" or (seg.kind == "heading" and not DIGIT.search(seg.text)):
            continue  # a page read as plain text gave no figure (read.pdf, triage)
        out.extend(_numeric(seg, captions.get(id(seg), ())))
        out.extend(_domain(seg, doc))
        out.extend(_cooling(seg))
    return out


def _caption_units(doc: Document) -> dict[int, list[tuple[str, str]]]:
    """The units a table's caption declares ("3.1 all_reduce（busbw，单位：GB/s）", "功耗（整机输入功率单位：kW；单卡
    功耗单位：W）", "(perftest, unit: Gb/s)"), as (field, unit) for every cell of the table it precedes: the text of
    the two segments before a run of cells, on the same page. A field, when named, limits the unit to the cells
    whose row or column header names it."""
    out: dict[int, list[tuple[str, str]]] = {}
    recent: list[str] = []
    declared: list[tuple[str, str]] = []
    page = None
    # "Parameter | Value | Unit": a row's own unit column gives its value's unit
    unit_cells = {
        (s.block, s.label): s.text.strip()
        for s in doc.segments
        if s.kind == "cell" and UNIT_COLUMN.match(s.column or "") and s.text.strip() not in ("", "-", "—")
    }
    for seg in doc.segments:
        if seg.kind == "cell" and (seg.block, seg.label) in unit_cells and not UNIT_COLUMN.match(seg.column or ""):
            out[id(seg)] = [("", unit_cells[(seg.block, seg.label)])]
        if seg.page != page:
            recent, page = [], seg.page
        if seg.kind != "cell":
            recent.append(seg.text)
            declared = []
            continue
        if recent:  # the first cell of a table: its caption is what came just before
            declared = [(m.group("field"), m.group("u")) for t in recent[-2:] for m in UNIT_DECLARED.finditer(t)]
            recent = []
        if declared:
            out[id(seg)] = out.get(id(seg), []) + declared
    return out


def _numeric(seg: Segment, declared=()) -> list[Mention]:
    unit_q, figure, unit_list, bare_gb, rate_name, _, _ = _patterns()
    r = load_rules()
    text = seg.text
    found: list[Mention] = []
    taken = Spans(len(text))
    # Every figure, rate list and rate name holds a digit; named rates ("千兆网口", "a port of NDR") need none.
    digits = DIGIT.search(text) is not None
    if digits:  # "802.1w", "802.3ck": standards named by number are not figures (rules: not_figure_token)
        for t in rx(r.vocab["not_figure_token"]).finditer(text):
            taken.add((t.start(), t.end()))

    if digits and ("(" in text or "（" in text):
        found.extend(_twins(seg, text, taken, unit_q))
    for m in unit_list.finditer(text) if digits else ():
        vals = [_num(v) for v in compiled(NUM).findall(m.group("list"))]
        unit = m.group("u")
        taken.add((m.start(), m.end()))
        if unit == "G" and any(v not in STANDARD_G for v in vals) and not _FIBRE_CHANNEL.match(text, m.end()):
            continue  # "SATA 6G/3G/1.5G", "3G/4G/5G": storage link rates and mobile generations, no port's speeds
        mm = Mention("bandwidth", m.group(0), max(vals), unit, seg, m.start(), m.end(), flags={"rate-list"})
        found.append(mm)
    for m in figure.finditer(text) if digits else ():
        if not taken.free(m.start("num"), m.end()):
            continue
        unit = compiled(r"\s+").sub("", m.group("unit"))
        unit = _canonical(unit, unit_q)
        q = unit_q.get(unit)
        if q is None:
            continue
        after = text[m.end() :]
        if unit in NOT_AFTER and compiled(NOT_AFTER[unit], re.I).match(after):
            continue
        nums = [_num(v) for v in compiled(NUM).findall(m.group("num"))]
        flags = set()
        if len(nums) > 1:
            flags.add("rate-list")
        if unit in ("G", "T"):
            flags.add("bare-unit")
            if unit == "G" and any(n not in STANDARD_G for n in nums):
                continue  # "XH-S30 48G", "96G": a bare G that is no port or lane speed is a memory size
            if unit == "G" and nums == [5] and _mobile_generation(text, m.start("num"), after, seg.label):
                continue  # "5G UPF", "5G 核心网": the mobile network's generation
        if unit.endswith("T/s") or compiled(
            r"[\s-]*(?:PAM-?4|NRZ)?\s*(?:SerDes|lanes?\b|PAM-?4|NRZ|signal)", re.I
        ).match(after):
            flags.add("signaling")
        start = m.start("bound") if m.group("bound") else m.start("num")
        found.append(
            Mention(
                q,
                text[start : m.end()].strip(),
                max(nums),
                unit,
                seg,
                start,
                m.end(),
                bound=_bound(m.group("bound")),
                marker=m.group("marker") or "",
                flags=flags,
            )
        )
        taken.add((start, m.end()))
    for m in bare_gb.finditer(text) if digits else ():
        if taken.free(m.start(), m.end()):
            found.append(
                Mention(
                    "bandwidth",
                    m.group(0),
                    _num(m.group("num")),
                    m.group("u"),
                    seg,
                    m.start(),
                    m.end(),
                    flags={"bytes-for-bits", "bare-unit"},
                )
            )
            taken.add((m.start(), m.end()))
    found.extend(_named_rates(seg, text, taken, r))
    for m in rate_name.finditer(text) if digits else ():
        if taken.free(m.start(), m.end()):
            gbps = next(g for g in m.groups() if g)
            # "NDR400", "400 NDR": the generation's name says bits per second, so the unit is not in doubt
            found.append(
                Mention("bandwidth", m.group(0), float(gbps), "Gb/s", seg, m.start(), m.end(), flags={"rate-name"})
            )
            taken.add((m.start(), m.end()))
    found = _merge_rate_lists(found, text)
    if not found and seg.kind == "cell":
        found.extend(_header_unit(seg, unit_q, declared) or _rate_in_label(seg, r))
    found = _split_totals(found, text, r)
    kept = []
    if found and rx(r.vocab["not_figures_label"]).search(f"{seg.label} {seg.column}"):
        return []
    for mm in found:
        if mm.value == 0 and mm.quantity in ("bandwidth", "latency", "power"):
            continue  # "Approximately 0 microseconds": what a module adds, nothing of the product's
        if mm.quantity == "power" and (_is_supply_rating(mm, r) or _is_power_setting(mm, r) or _is_part_wattage(mm, r)):
            continue
        if _in_excluded_context(mm, r) or _is_module_rating(mm, r) or _not_the_products(mm, r):
            continue
        mm.count = _count_before(text[: mm.start]) if mm.count is None else mm.count
        if _is_breakout(mm, r) or _is_breakout_alternative(mm, kept, r):
            continue
        if mm.count is None and mm.quantity == "bandwidth":
            mm.count = _count_around(text[: mm.start], text[mm.end :])
        kept.append(mm)
    kept.sort(key=lambda x: x.start)
    return _power_ranges(kept, text)


# "from 90W to 146W", "between 350 W and 400 W", "300 W – 450 W": a range printed with its unit twice is one
# figure, its upper end (what the product may reach), as "350-400W" is.
RANGE_JOIN = compiled(r"\s*(?:to|-|–|—|~|～|至|and)\s*")
RANGE_OPEN = compiled(r"(?:\bfrom|\bbetween|\branging|\branges|\bvaries|从|介于)\s*$", re.I)


def _power_ranges(kept: list[Mention], text: str) -> list[Mention]:
    out: list[Mention] = []
    for mm in kept:
        low = out[-1] if out else None
        if (
            low is not None
            and mm.quantity == "power"
            and low.quantity == "power"
            and low.unit == mm.unit
            and RANGE_JOIN.fullmatch(text[low.end : mm.start])
            and (RANGE_OPEN.search(text[max(0, low.start - 12) : low.start]) or "and" not in text[low.end : mm.start])
            and not (low.bound or mm.bound)
            and low.value < mm.value
        ):
            out[-1] = Mention(
                "power",
                text[low.start : mm.end],
                mm.value,
                mm.unit,
                mm.segment,
                low.start,
                mm.end,
                marker=mm.marker,
                flags=mm.flags | {"range"},
            )
            continue
        out.append(mm)
    return out


# A bare number (or a list of options, "800/400/200/100"), perhaps counted ("8 x 400": eight of them), bounded,
# marked or followed by a note in brackets ("204.8（全双工合计）"): its unit is in the header.
BARE_CELL = compiled(
    rf"^\s*(?:\d{{1,3}}\s*[x×]\s*)?(?:(?P<bound>(?i:{BOUND_RX}))\s*:?\s*)?(?P<num>{NUM}(?:\s*/\s*{NUM})*{RANGE})\s*(?P<marker>[{MARKERS}]?)"
    r"\s*(?:[(（][^()（）]{0,40}[)）])?\s*$"
)
UNIT_COLUMN = compiled(r"^\s*(?:units?|单位)\s*$", re.I)
# "单位：GB/s", "整机输入功率单位：kW", "unit: Gb/s": a caption declaring its table's unit (a field may precede it)
UNIT_DECLARED = compiled(
    r"(?P<field>[^\s，,；;：:（()）]{0,16}?)\s*(?:单位|\bunits?\b)\s*[：:为]?\s*(?P<u>[A-Za-zµμ]{1,3}(?:/[A-Za-z]{1,4})?)"
)
HEADER_UNIT = compiled(
    r"[(（\[]\s*(?:in\s+)?(?P<u>[^()（）\[\]]{1,48}?)\s*[)）\]]|(?:,|\bin)\s+(?P<v>[A-Za-zµμ/]{1,12})\s*$"
)


def _header_unit(seg: Segment, unit_q: dict, declared=()) -> list[Mention]:
    """A bare number in a table cell whose row or column header carries the unit: "HBM Bandwidth (TB/sec)",
    "Inter-chip Interconnect (GB/sec/device)", "Power, W"; else the unit its table's caption declares
    (_caption_units). The header's other words (per device) stay in the label, where the classifier reads them."""
    m = BARE_CELL.match(seg.text)
    if not m:
        return []
    named = f"{seg.label} {seg.column}"
    caption = [f"({u})" for field, u in declared if not field or field in named]
    for header in (seg.label, seg.column, *caption):
        for h in HEADER_UNIT.finditer(header or ""):
            printed = compiled(r"[,;，]").split(h.group("u") or h.group("v") or "")[0].strip()
            # "GB/sec/device": the unit, then what it counts per; "(GB/sec, bidirectional)": the unit first
            for cand in (
                printed,
                compiled(
                    r"\s*(?:/|\bper\s)\s*(?:device|chip|card|GPU|accelerator|node|port|link|lane|"
                    r"direction|instance|server)s?$",
                    re.I,
                ).sub("", printed),
            ):
                unit = _canonical(cand.replace(" ", ""), unit_q)
                q = unit_q.get(unit)
                if q and q != "weight" and unit not in ("G", "T", "Gb", "Gib", "GbE", "GE"):
                    nums = [_num(x) for x in compiled(NUM).findall(m.group("num"))]
                    value = max(nums)
                    start = m.start("bound") if m.group("bound") else m.start("num")
                    flags = (
                        {"header-unit"}
                        | ({"signaling"} if unit.endswith("T/s") else set())
                        | ({"rate-list"} if len(nums) > 1 else set())
                    )
                    return [
                        Mention(
                            q,
                            seg.text[start : m.end("num")].strip(),
                            value,
                            unit,
                            seg,
                            start,
                            m.end("num"),
                            bound=_bound(m.group("bound")),
                            marker=m.group("marker") or "",
                            flags=flags,
                        )
                    ]
    return []


COUNT_CELL = compiled(r"^\s*(?P<n>\d{1,4})(?:\s*[*x×]\s*(?P<k>\d{1,2}))?\s*$")


def _rate_in_label(seg: Segment, r) -> list[Mention]:
    """A count of ports in a cell whose row label names their speed, under a header of port counts ("| 40GbE with
    QSFP+ | 36 |" under "Maximum Port Density", "| 万兆端口数量 | 48 |"): the speed, counted (rules: port_count_header)."""
    m = COUNT_CELL.match(seg.text)
    if not m or not seg.label or not rx(r.vocab["port_count_header"]).search(f"{seg.label} {seg.column}"):
        return []
    rates = [x for x in _numeric(Segment(text=seg.label, page=seg.page, kind="sentence")) if x.quantity == "bandwidth"]
    if len(rates) != 1:
        return []
    x = rates[0]
    count = int(m.group("n")) * int(m.group("k") or 1)
    return [
        Mention(
            "bandwidth", x.text, x.value, x.unit, seg, 0, m.end("n"), flags=x.flags | {"rate-in-label"}, count=count
        )
    ]


class Spans:
    """The characters of a segment already read as part of a figure: checking and marking cost the span's
    length, not the number of figures before it (a page of one 300,000-character paragraph stays linear)."""

    def __init__(self, n: int):
        self.mask = bytearray(n + 1)

    def free(self, a: int, b: int) -> bool:
        return not any(self.mask[a:b])

    def add(self, span: tuple[int, int]) -> None:
        a, b = span
        self.mask[a:b] = b"\x01" * (b - a)

    def near(self, a: int, b: int, distance: int, text: str = "") -> bool:
        """A figure within distance of [a, b); given the text, only within the same item of a list ("Dual 10 GbE,
        4 IB EDR": the 10 GbE is another port's rate, not EDR's)."""
        lo, hi = max(0, a - distance), b + distance
        if text:
            lo = max(lo, text.rfind(",", lo, a) + 1, text.rfind(";", lo, a) + 1)
            cut = [k for k in (text.find(",", b, hi), text.find(";", b, hi)) if k >= 0]
            hi = min(cut) if cut else hi
        return any(self.mask[lo:hi])


def _named_rates(seg: Segment, text: str, taken: Spans, r) -> list[Mention]:
    """Rates that are names: 千兆网口 (a gigabit port), 1000BASE-T, and InfiniBand generations named alone or in
    a list ("a port of NDR", "SDR/DDR/EDR/HDR/NDR InfiniBand"): one figure at the list's highest rate."""
    out = []
    for entry in r.units.get("named_rates", []):
        if not prefilter(entry["pattern"])(text):
            continue
        for m in compiled(entry["pattern"]).finditer(text):
            if not taken.free(m.start(), m.end()):
                continue
            gbps = entry["gbps"] if "gbps" in entry else float(m.group(entry["mbps_group"])) / 1000
            counted = compiled(r"\d+").match(m.group(0)) if entry.get("counted") else None  # "2 * GE 口": two ports
            out.append(
                Mention(
                    "bandwidth",
                    m.group(0),
                    float(gbps),
                    "Gb/s",
                    seg,
                    m.start(),
                    m.end(),
                    flags={"rate-name"},
                    count=int(counted.group(0)) if counted else None,
                )
            )
            taken.add((m.start(), m.end()))
    tech = knowledge().named_alone()
    if tech is None or not prefilter(tech.named_alone)(text):
        return out
    around = f"{seg.label} {text}"
    context = prefilter(tech.context, flags=re.I)(around) and rx(tech.context).search(around)
    rates = tech.alone_rates()
    for m in compiled(tech.named_alone).finditer(text):
        if not context and not _ADAPTER_AFTER.match(text, m.end()):
            continue  # "HDR" with no InfiniBand word near is a display's; "每台 4 张 HDR 网卡" names its adapters
        if (
            not taken.free(m.start(), m.end())
            or compiled(r"[\s-]*\(?\d").match(text[m.end() :])
            or compiled(r"\d\s*(?:G|Gb|Gb/s|Gbps)\s*$|(?<![\d.])(?:100|200|400|800)\s?$").search(
                text[max(0, m.start() - 12) : m.start()]
            )
        ):
            continue  # "NDR 400Gb/s", "400G NDR", "400 NDR NICs": the number is the figure
        names = compiled(r"\s*/\s*").split(m.group(0))
        values = [float(n[3:]) if n[3:] else float(rates.get(n[:3], 0)) for n in names]
        beside = (
            compiled(r"\s*(?:InfiniBand|Infiniband|IB|VPI)\b|\s*ports?\b").match(text[m.end() :])
            or _ADAPTER_AFTER.match(text, m.end())
            or compiled(r"(?:ports? of|InfiniBand|Infiniband|\bIB)\s*$").search(text[: m.start()])
        )
        near = taken.near(m.start(), m.end(), 40)
        if near and not taken.near(m.start(), m.end(), 40, text):
            # the figures near lie in other items of a list: another port's rate where they name their own
            # technology ("Dual 10 GbE, 4 IB EDR"), else this name's rate ("HDR InfiniBand, 400 Gb/s per port")
            near = not compiled(r"GbE|\dGE\b|Ethernet|BASE-").search(text[max(0, m.start() - 40) : m.end() + 40])
        bare = not compiled(r"\d").search(m.group(0))
        setup, compared = _setup_and_comparators(seg.label, text) if bare else (False, ())
        if setup or any(a <= m.start() < b for a, b in compared):
            continue  # "A100 cluster: HDR IB network", "than InfiniBand HDR": the test set-up or a comparator
        if (
            max(values) <= 0
            or names == ["DDR"]
            or near
            or (bare and (seg.kind == "heading" or (len(names) == 1 and not beside)))
        ):
            if len(names) > 1:
                taken.add((m.start(), m.end()))  # its members are not figures of their own either
            continue  # a generation named alone counts beside an InfiniBand word, and only with no rate printed by it
        flags = {"rate-name", "bare-unit"} | ({"rate-list"} if len(names) > 1 else set())
        counted = compiled(r"(?<![\w.,])(\d{1,3})\s+(?:IB|InfiniBand|Infiniband)\s*$").search(
            text[max(0, m.start() - 20) : m.start()]
        )
        out.append(
            Mention(
                "bandwidth",
                m.group(0),
                max(values),
                "Gb/s",
                seg,
                m.start(),
                m.end(),
                flags=flags,
                count=int(counted.group(1)) if counted else None,
            )
        )  # "4 IB EDR": four EDR ports
        taken.add((m.start(), m.end()))
    return out


_ADAPTER_AFTER = compiled(r"\s*(?:NICs?|HCAs?|adapters?)\b|\s*(?:网卡|网口|端口)")


@lru_cache(maxsize=256)
def _setup_and_comparators(label: str, text: str) -> tuple[bool, tuple]:
    """Whether a segment describes a benchmark's set-up (rules: test_setup_cue), and where its comparators are; once
    per segment, not per name in it (a long paragraph stays linear)."""
    v = load_rules().vocab
    return (
        bool(rx(v["test_setup_cue"]).search(f"{label}: {text}")),
        tuple((c.start(), c.end()) for c in rx(v["comparator_phrase"]).finditer(text)),
    )


_SAME_UNIT_JOIN = compiled(r"\s*(?:/|or|或|to|through|thru|-|–|~|至|到)\s*")
# A port's supported speeds written out as a list ("400GbE, 200GbE, 100GbE and 10GbE", "from 1.6TbE down to 100GbE",
# "10G、25G、100G"): the joiners between two bit rates of one list. A count between them ("48 100G and 8 400G
# ports") ends the list, since each number then counts its own ports.
_SPEED_LIST_JOIN = compiled(
    r"\s*(?:,|，|、|/)?\s*(?:(?:and|or|to|through|thru|down\s+to|up\s+to|和|或|及|至|到)\s+)?"
    r"|\s*(?:and|or|to|through|thru|down\s+to)\s*"
    # "NRZ (10G, 25G)、PAM4 (50G, 100G)": groups of one list, each under its short tag
    r"|\s*\)\s*(?:,|，|、|;|；)?\s*[A-Za-z][\w-]{1,7}\s*[(（]\s*",
    re.I,
)


def _bit_rate_gbs(m: Mention) -> float | None:
    """A port speed's rate in GB/s: bits, not bytes, and no transfer or lane rate; None for anything else."""
    from ..units import convert

    if m.quantity != "bandwidth" or m.unit.endswith(("B/s", "T/s")) or m.unit in ("GB", "TB") or "signaling" in m.flags:
        return None
    try:
        return convert("bandwidth", m.value, m.unit)
    except (KeyError, ValueError):
        return None


_OPTION_JOIN = compiled(r"\s*(?:/|or|或|to|through|thru|down\s+to|up\s+to|-|–|~|至|到)\s*", re.I)


def _split_totals(found: list[Mention], text: str, r) -> list[Mention]:
    """A slash list of totals ("4.8Tbps/76.8Tbps", "交换容量(Tbps) | 387/1161"): no port runs at these rates
    (rules: total_above_gbs), so it is not a list of the speeds a port supports but one total per configuration,
    each its own figure. A pair whose second is twice the first stays one figure (a total printed per direction
    and both ways, "102.4/204.8 Tbps")."""
    from ..units import convert

    out = []
    for m in found:
        nums = list(compiled(NUM).finditer(text, m.start, m.end)) if "rate-list" in m.flags else []
        try:
            values = [convert("bandwidth", _num(n.group(0)), m.unit) for n in nums] if m.quantity == "bandwidth" else []
        except (KeyError, ValueError):
            values = []
        unit = text[nums[-1].end() : m.end].strip() if nums else ""
        if (
            len(values) < 2
            or min(values) <= r.threshold("total_above_gbs")
            or "signaling" in m.flags
            or any(abs(b - 2 * a) <= 0.01 * b for a, b in zip(values, values[1:]))
            or not all(
                text[a.end() : b.start()].strip().rstrip("/").strip() in ("", unit) and "/" in text[a.end() : b.start()]
                for a, b in zip(nums, nums[1:])
            )
        ):
            out.append(m)
            continue
        ends = [n.start() for n in nums[1:]] + [m.end]
        for n, end in zip(nums, ends):
            stop = end if end == m.end else n.end() + len(compiled(r"^[^/,;、]*").match(text[n.end() : end]).group(0))
            piece = text[n.start() : stop].strip().rstrip("/,;、 ")
            out.append(
                Mention(
                    m.quantity,
                    piece,
                    _num(n.group(0)),
                    m.unit,
                    m.segment,
                    n.start(),
                    n.start() + len(piece),
                    bound=m.bound,
                    count=m.count,
                    marker=m.marker if end == m.end else "",
                    flags=m.flags - {"rate-list"},
                )
            )
    return out


_SPAN_OPEN = compiled(r"(?:between|介于|在)\s*$", re.I)  # "speeds between 1 GbE and 100 GbE": one span
_SPAN_JOIN = compiled(r"\s*(?:and|和|与|及)\s*", re.I)


def _merge_rate_lists(found: list[Mention], text: str) -> list[Mention]:
    """ "16 GT/s / 32GT/s", "100 Gb/s / 200 Gb/s": options of one link, one figure at the highest rate; so is a span
    of speeds ("from 10Gb/s to 100Gb/s per port", "10GbE through 100GbE") and a list of three or more speeds a port
    supports ("400GbE, 200GbE, 100GbE and 10GbE", whatever each is spelt in). Two speeds joined by "and" or a comma
    may be two ports ("1 GbE and 100 GbE"), so they stay two figures, unless "between" opens them as a span."""
    found = sorted(found, key=lambda x: x.start)
    out: list[Mention] = []
    run: list[Mention] = []  # the speeds of a list being read, merged into its first when it ends
    speeds = [0]  # how many speeds the run holds, options joined into one of them included

    def close():
        if speeds[0] >= 3 and len(run) >= 2:
            head = run[0]
            top = max(run, key=_bit_rate_gbs)
            head.value, head.unit, head.marker = top.value, top.unit, top.marker
            head.text, head.end = text[head.start : run[-1].end], run[-1].end
            head.flags = set().union(*(r.flags for r in run)) | {"rate-list"}
            del out[len(out) - len(run) + 1 :]
        run.clear()
        speeds[0] = 0

    for m in found:
        prev = out[-1] if out else None
        between = text[prev.end : m.start] if prev and prev.end <= m.start else None
        if (
            between is not None
            and prev.quantity == m.quantity == "bandwidth"
            and (
                prev.unit == m.unit
                and _SAME_UNIT_JOIN.fullmatch(between)
                or (
                    _bit_rate_gbs(prev) is not None
                    and _bit_rate_gbs(m) is not None
                    and (
                        _OPTION_JOIN.fullmatch(between)
                        or _SPAN_JOIN.fullmatch(between)
                        and _SPAN_OPEN.search(text, max(0, prev.start - 12), prev.start)
                    )
                )
            )
        ):
            if run and run[-1] is prev and _bit_rate_gbs(m) is not None:
                speeds[0] += 1  # "50G, 25G or 10G": the option ends the list it closes
            else:
                close()
            if (
                _bit_rate_gbs(m) is not None
                and _bit_rate_gbs(prev) is not None
                and _bit_rate_gbs(m) > _bit_rate_gbs(prev)
            ):
                prev.value, prev.unit, prev.marker = m.value, m.unit, m.marker
            else:
                prev.value = max(prev.value, m.value) if prev.unit == m.unit else prev.value
            prev.text = text[prev.start : m.end]
            prev.end = m.end
            prev.flags = prev.flags | m.flags | {"rate-list"}
            continue
        if (
            between is not None
            and run
            and run[-1] is prev
            and between.strip()
            and _SPEED_LIST_JOIN.fullmatch(between)
            and _bit_rate_gbs(m) is not None
        ):
            run.append(m)
            speeds[0] += 1
            out.append(m)
            continue
        close()
        out.append(m)
        if _bit_rate_gbs(m) is not None:
            run.append(m)
            speeds[0] = 1
    close()
    return out


def _canonical(unit: str, unit_q: dict) -> str:
    from ..units import canonical_rate

    rate = canonical_rate(unit)
    if rate:
        return rate
    if unit in unit_q:
        return unit
    for s in unit_q:  # "Gb / Sec" printed with spaces: compare without them
        if compiled(r"\s+").sub("", s) == unit:
            return s
    return unit


def _in_excluded_context(m: Mention, r) -> bool:
    pat = r.vocab.get("not_figure_context", {}).get(m.quantity)
    if not pat:
        return False
    text = m.segment.text
    left = compiled(rf"[;；。{BULLET_MARKS}]|\.\s").split(text[max(0, m.start - 50) : m.start])[-1]
    right = compiled(rf"[;；。,，{BULLET_MARKS}]|\.\s").split(text[m.end : m.end + 30])[0]
    if m.quantity == "bandwidth" and OWN_NETWORK_PORT.match(right):
        return False  # "1*Console Micro USB，1*GE RJ45管理网口": the rate names its own network port
    if m.quantity == "bandwidth" and rx(r.vocab["workload_requirement"]).search(
        compiled(r"[;；。!?]|\.\s").split(text[max(0, m.start - 160) : m.start])[-1]
    ):
        return True  # "the highest bandwidth requirement per GPU ... is about 14GB/s": a workload's need
    return bool(rx(pat).search(f"{m.segment.label} {left} {right}"))


def _is_module_rating(m: Mention, r) -> bool:
    """A rate in a table row of pluggables, under a group or row that names transceivers, optics or cables
    ("Fibre Channel Transceivers" | "DS-SFP-FC8G-SW | 8-Gbps Fibre Channel, shortwave"): the module's rating, which
    CONTRACT does not count as the product's figure (rules: pluggable_rows); a latency in a pluggable's own row
    ("SFP+ copper (CU) | Approximately 0.1 microsecond") is what the module adds (rules: module_label)."""
    seg = m.segment
    if m.quantity == "latency":
        return seg.kind == "cell" and any(rx(r.vocab["module_label"]).search(h or "") for h in (seg.label, seg.column))
    return (
        m.quantity == "bandwidth"
        and seg.kind in ("cell", "heading")
        and bool(rx(r.vocab["pluggable_rows"]).search(f"{seg.heading} | {seg.label}"))
    )


def _not_the_products(m: Mention, r) -> bool:
    """A figure its own clause says is not the product's as sold: what a future build may bring (rules: speculative);
    for a wattage, what a facility can feed (facility_before);
    for a rate, the speed a standard names (standard_before, standards_label: a row of standards, unless the rate
    names its connector), a slower speed a port falls back to (fallback_before),
    or a pluggable's or a cable's rating (module_after, module_before)."""
    v = r.vocab
    text = m.segment.text
    left = text[max(0, m.start - 80) : m.start]
    if _speculative(text, m.start, m.end, v):
        return True
    if m.quantity == "power":
        return bool(rx(v["facility_before"]).search(_SENTENCE_CUT.split(left)[-1]))
    if m.quantity != "bandwidth":
        return False
    lead = text[: m.start]
    return bool(
        rx(v["standard_before"]).search(lead[-30:] if lead.strip() else f"{m.segment.label}:")
        or (
            any(rx(v["standards_label"]).search(h or "") for h in (m.segment.label, m.segment.column))
            and not _CONNECTOR_AFTER.match(text, m.end)
        )
        or rx(v["fallback_before"]).search(_SENTENCE_CUT.split(left)[-1][-60:])
        or rx(v["module_after"]).search(text[m.end : m.end + 80])
        or rx(v["module_before"]).search(left[-30:])
    )


# A rate that names its connector ("10/100/1000Mb/s Ethernet RJ45"): a port, even in a list of standards
_CONNECTOR_AFTER = compiled(r"\s*(?:Ethernet\s+)?(?:RJ-?45|Q?SFP\w*|OSFP\w*|ports?\b|[网电光]口)", re.I)


def _speculative(text: str, start: int, end: int, v) -> bool:
    """Whether the clause around text[start:end] speaks of a future build (rules: speculative)."""
    left, right = _CLAUSE_CUT.split(text[max(0, start - 80) : start])[-1], _CLAUSE_CUT.split(text[end : end + 40])[0]
    return bool(rx(v["speculative"]).search(f"{left} {right}"))


_FIBRE_CHANNEL = compiled(r"\s*(?:FC\b|Fib(?:re|er) Channel)", re.I)  # "8G/16G/32G FC": a SAN port's speeds
_PORT_AFTER = compiled(r"\s*(?:ports?\b|BASE|Ethernet|interfaces?\b|Q?SFP|RJ-?45|以太网|[电光网接端]口)", re.I)


_PORT_BEFORE = compiled(r"(?:\b(?:port|link|interface|speed|rate)s?\b|速率|端口|接口)[^.;。；]*$", re.I)


def _mobile_generation(text: str, start: int, after: str, label: str = "") -> bool:
    """A bare "5G" that counts no port and names none, after it or earlier in its clause or its label ("Port speed:
    5G"), is the mobile network's generation ("5G UPF")."""
    before = f"{label or ''} {text[max(0, start - 40) : start]}"
    return not (
        _PORT_AFTER.match(after) or compiled(r"\d\s*[xX×*个]\s*$").search(before[-8:]) or _PORT_BEFORE.search(before)
    )


def _is_breakout_alternative(m: Mention, kept: list[Mention], r) -> bool:
    """A counted speed offered instead of the uncounted speed just before it, the same bandwidth split ("single-port
    40-Gbps or 4x10-Gbps"): the port's own speed is the figure (rules: breakout_alternative_join)."""
    prev = kept[-1] if kept else None
    if m.count is None or m.count < 2 or prev is None or prev.count is not None or prev.end > m.start:
        return False  # "1x 100 Gbps or 4x 25 Gbps": two counted configurations of links, each a figure
    mine, theirs = _bit_rate_gbs(m), _bit_rate_gbs(prev)
    return bool(
        mine
        and theirs
        and abs(m.count * mine - (prev.count or 1) * theirs) <= 0.01 * theirs
        and rx(r.vocab["breakout_alternative_join"]).search(m.segment.text[prev.end : m.start])
    )


def _is_part_wattage(m: Mention, r) -> bool:
    """A host processor's own wattage where its part is described ("Xeon Silver 4316 (20C/40T, 3.4 GHz, 150W)"), or
    the most its socket supports ("supports two Xeon processors (up to 205W TDP)"): the part's rating, not a figure
    of the product (rules: host_cpu_part, power_stated_word, supported_part). A TDP stated for the build's CPUs
    ("2x Xeon, 350 W TDP each") stays."""
    v = r.vocab
    text = m.segment.text
    item = compiled(r"[。|]|\.\s").split(text[max(0, m.start - 120) : m.start])[-1]
    named = f"{m.segment.label} {item}"
    if not rx(v["host_cpu_part"]).search(named) or ACCELERATOR_IN_NAME.search(named):
        return False
    own = f"{m.segment.label} {_CLAUSE_CUT.split(item.replace('(', ',').replace('（', ','))[-1]} {text[m.end : m.end + 16]}"
    return not rx(v["power_stated_word"]).search(own) or bool(rx(v["supported_part"]).search(item))


OWN_NETWORK_PORT = compiled(r"\s*(?:RJ-?45|Q?SFP|OSFP|网口|电口|光口|以太网|Ethernet|LAN\b)", re.I)


def _is_breakout(m: Mention, r) -> bool:
    """A speed a faster port is split into (rules: breakout_before, breakout_after): before it, breakout words in its
    own clause; after it, "using breakouts" closing the clause of a counted speed ("128 ports of 10GbE ... using
    breakouts"). A port's own speed printed beside its breakout options ("32 x 400G, breakout to 4 x 100G") stays."""
    if m.quantity != "bandwidth":
        return False
    text = m.segment.text
    if rx(r.vocab["breakout_before"]).search(text[max(0, m.start - 60) : m.start]):
        return True
    counted = m.count is not None or compiled(r"\bports?\s+of\s*$", re.I).search(text[max(0, m.start - 30) : m.start])
    return bool(counted and rx(r.vocab["breakout_after"]).search(text[m.end : m.end + 80]))


def _is_power_setting(m: Mention, r) -> bool:
    """A wattage that names a setting or a connector's level, not a draw: "16-pin 450 W or 600 W power mode",
    "200 W minimum", "the 301 W-450 W power sense option" (rules: power_setting_after / _before); an efficiency
    or a supply's rating at an input voltage ("0.05 W per Gbps", "1400 W @100-127 VAC": power_not_draw_after);
    a pluggable's own power ("each transceiver at 5 W": power_module_before, _label); a monitoring tool's
    reading ("37C 74W 0MiB": power_reading_before, _after)."""
    text = m.segment.text
    after, before = text[m.end : m.end + 90], text[max(0, m.start - 30) : m.start]
    v = r.vocab
    return bool(
        rx(v["power_setting_after"]).search(after)
        or rx(v["power_setting_before"]).search(before)
        or rx(v["power_not_draw_after"]).search(after)
        or rx(v["power_module_before"]).search(
            rx(v["power_excluded_left_out"]).sub(" ", text[max(0, m.start - 50) : m.start])
        )
        or rx(v["module_label"]).search(m.segment.label or "")
        or rx(v["power_reading_before"]).search(before[-14:])
        or rx(v["power_reading_after"]).search(after)
    )


# Bullets set inline ("BENEFITS – Zero packet loss – Throughput • 6.4Tb/s • 9.52B packets – Storage and server
# applications run faster"): a PDF sidebar read as one run of text is a list, and each item is its figures' sentence.
BULLET_MARKS = "•▪●◦■►▶▸‣➤➢◆◇❖✓✔"
INLINE_BULLET = compiled(rf"\s[{BULLET_MARKS}]\s|\s[–—]\s")


CLAUSE_END = compiled(r"[;；。]|\.\s")
_CLAUSE_CUT = compiled(rf"[;；。，,{BULLET_MARKS}]|\.\s")  # a clause of a sentence or a list
_SENTENCE_CUT = compiled(rf"[;；。{BULLET_MARKS}]|\.\s")
_CELL_CLAUSE_END = compiled(r"[;；。]")


def _is_supply_rating(m: Mention, r) -> bool:
    """A supply's capacity or a standby wattage (rules: power_excluded) said in the figure's row label or its own
    clause ("Each PSU provides 3,000 W; the system draws 7,400 W" keeps the 7,400 W), or a component's idle wattage
    (power_idle, power_idle_component)."""
    v = r.vocab
    pat = rx(v["power_excluded"])
    left_out = rx(v["power_excluded_left_out"])  # "典型功耗（不含光模块）": the switch's, optics left out
    text = m.segment.text
    left, right = text[max(0, m.start - 40) : m.start], text[m.end : m.end + 40]
    # in a parts list a cell is one item, its full stops abbreviations ("Arista PSU, 1RU. AC/DC, 500W")
    for cut in (INLINE_BULLET, _CELL_CLAUSE_END if m.segment.kind == "cell" else CLAUSE_END):
        left = cut.split(left)[-1]
        right = cut.split(right)[0]
    window = left + text[m.start : m.end] + right
    if pat.search(left_out.sub(" ", m.segment.label)) or pat.search(left_out.sub(" ", window)):
        return True
    own = f"{compiled(r'[,，、]').split(left)[-1][-16:]} {compiled(r'[,，、]').split(right)[0][:10]}"
    return bool(
        rx(v["power_idle"]).search(f"{m.segment.label} {own}")
        and rx(v["power_idle_component"]).search(f"{m.segment.label} {window}")
    )


def _count_before(left: str) -> int | None:
    """'8x 400 Gb/s', '8 × 200GE', '64x NDR 400 Gb/s', '2 x 25 Gb/s': the count of ports or devices."""
    m = compiled(
        r"(?<![\w.])(\d{1,4})\s*(?:(?:links?|ports?|lanes?)\s*)?(?:[xX×]|个|路|口)\s*(?:[A-Za-z][\w\-()]*\s+){0,5}$"
    ).search(left[-80:])  # "7 links x 128 GB/s" too
    if m:
        return int(m.group(1))
    # "32 ports of", "32 ports running at 100GbE", "a 32-port 100GbE switch", "36 OSFP ports supporting 2.5Gbps -
    # 800Gbps", "144 aggregated XDR ports supporting 800Gbps"
    m = compiled(
        r"(?<![\w.])(\d{1,4})(?:\s+(?:[A-Za-z][\w+-]*\s+){0,2}?ports?\s+(?:of|(?:running|operating|clocked) at"
        r"|supporting|(?:of )?up to)|\s*ports? of|-port)\s*$"
    ).search(left[-60:])
    return int(m.group(1)) if m else None


def _count_around(left: str, right: str) -> int | None:
    """ "48 100G SFP-DD and 8 400G QSFP-DD ports", "32 fixed 40-Gbps Ethernet and FCoE ports": a plain number, perhaps
    with a word or two that are not a count's preposition, right before a rate whose next words name ports."""
    m = compiled(
        r"(?<![\w.,/])(\d{1,4})\s+(?:(?!(?:and|or|of|per|to|at|by|with|from|x)\b)[A-Za-z][A-Za-z+-]*\s+){0,2}$"
    ).search(left[-40:])
    if m and compiled(
        r"\s*(?:[\w-]+\s+){0,2}?(?:[\w-]+\s+)?ports?\b|\s*(?:[\w-]+\s+){0,2}?(?:and|,)\s+\d{1,4}\s+\d"
    ).match(right[:60]):
        return int(m.group(1))
    return None


def _domain(seg: Segment, doc: Document) -> list[Mention]:
    *_, domain, zh_count = _patterns()
    r = load_rules()
    if seg.kind == "footnote":
        return []
    out = []
    label_rx = rx(r.vocab["accelerator_count_label"])
    labelled = bool(seg.label and label_rx.search(seg.label.strip()))
    # "| Nodes | GPUs |" over rows of "| 32 | 256 |": a table's column of accelerator counts
    column = (
        not labelled
        and seg.kind == "cell"
        and bool(seg.column)
        and rx(r.vocab["accelerator_count_column"]).fullmatch(seg.column.strip()) is not None
    )
    lead = (
        compiled(
            r"\s*(\d{1,3}(?:,\d{3})+|\d{1,6})(?=\s*$|\s*[,;(（]|\s*(?:x|X|×)\s|\s+(?:fully|GPUs?|accelerators?|per)\b)"
        ).match(seg.text)
        if labelled or column
        else None
    )
    if lead:  # "GPUs per node: 4, fully connected, NVLink 4": the label says what the number counts
        text = compiled(r"[;(（]|,(?!\d{3})").split(seg.text.strip())[0].strip()
        out.append(
            Mention(
                "domain_size",
                text,
                float(lead.group(1).replace(",", "")),
                "accelerators",
                seg,
                lead.start(1),
                lead.end(1),
                flags={"from-label"} | ({"from-column"} if column else set()),
            )
        )
        return out
    for m in domain.finditer(seg.text) if _counted_noun().search(seg.text) else ():
        n = m.group("n").lower()
        digits = compiled(r"[, ]").sub("", n)
        val = WORD_NUMBERS.get(n) or (int(digits) if digits.isdigit() else None)
        if not val or val > 1_000_000:
            continue
        mid = m.group("mid") or m.group("plural") or ""
        if m.group("model") and rx(r.vocab["model_not_count_after"]).search(seg.text[m.end() : m.end() + 40]):
            continue  # "3x A100 performance", "15 H100 nodes": a multiple of a figure, a count of boxes
        if m.group("noun") and seg.text[m.start("noun") - 1 : m.start("noun")] in ("网", "线", "声"):
            continue  # 网卡 (a NIC), 线卡 (a line card), 声卡 count other things than accelerators
        if m.group("noun") in ("颗", "张", "块") and rx(r.vocab["host_cpu"]).search(
            compiled(r"[，,、；;。+]").split(seg.text[m.end() : m.end() + 12])[0]
        ):
            continue  # "2 颗 CPU", "4 颗 64 核 ARM 处理器": a classifier of host processors
        if compiled(r"[®™]\s*$").search(seg.text[max(0, m.start("n") - 3) : m.start("n")]):
            continue  # "Intel® Gaudi® 3 AI accelerator": a generation in a trademarked name, not a count
        if compiled(r"\b(?:per|for every|every)\s*$", re.I).search(seg.text[max(0, m.start() - 14) : m.start()]):
            continue  # "one NIC per two cards": a ratio, not a group of accelerators
        if m.group("way") and rx(r.vocab["way_not_domain"]).search(seg.text[m.end() : m.end() + 40]):
            continue  # "128-way ECMP", "64-way MLAG": routing and link aggregation, not accelerators
        if rx(r.vocab["host_cpu"]).search(mid) and not ACCELERATOR_IN_NAME.search(mid):
            continue  # "4 颗 64 核 ARM 处理器", "2x 64-core x86 processors": host processors
        if compiled(r"\d\s*[个颗张块枚]").search(mid):
            continue  # "350 标卡中包含1个昇腾AI处理器": a run of Chinese holding its own count; that one is read below
        if _restated(seg.text, m.start(), out):
            out[-1].flags.add("restated")
            continue  # "two p300c cards for a total of four Blackhole chips": the same accelerators by their dies
        if compiled(r"\d(?:G|T|GbE|GE|Gb|Gbps)\b").search(mid):
            continue  # "a 32 x 400G device": a port configuration
        if compiled(
            r"\b(?:CPUs?|cores?|x86|arm64|aarch64|nodes?|trays?|racks?|switch(?:es)?|EPYC|Xeon|Grace|ConnectX|BlueField|DPUs?|NICs?|"
            r"ports?|links?|lanes?|[A-Z]?DIMMs?|SSDs?|NVMe|PSUs?|NVSwitch\w*|switch\w*|retimers?|PLX|ASICs?|memory|HBM\w*|SerDes|"
            r"[KMGT]i?B|GDDR\w*|LPDDR\w*)\b",
            re.I,
        ).search(mid):
            continue
        out.append(
            Mention(
                "domain_size",
                m.group(0).strip(),
                float(val),
                "accelerators",
                seg,
                m.start(),
                m.end(),
                bound=(_bound(m.group("bound")) or "up-to") if m.group("bound") else "",
                flags={"from-label-row"} if label_rx.search(seg.label or "") else set(),
            )
        )
    if seg.kind == "cell" and "(" in seg.text and rx(r.vocab["model_count_header"]).search(f"{seg.column} {seg.label}"):
        for m in MODEL_COUNT.finditer(seg.text):  # "PowerEdge XE9680 (8)" under a header of GPUs: the model's count
            if not any(o.start <= m.start("n") < o.end for o in out):
                out.append(
                    Mention(
                        "domain_size",
                        m.group(0),
                        float(m.group("n")),
                        "accelerators",
                        seg,
                        m.start(),
                        m.end(),
                        flags={"model-count"},
                    )
                )
    if not prefilter(zh_count.pattern)(seg.text):
        return out  # no 卡, 颗, 张, 块, 枚: no Chinese count
    host = rx(r.vocab["host_cpu"])
    for m in zh_count.finditer(seg.text):
        n = m.group("n") or m.group("zn") or m.group("n2")
        if ZH_ROUND.fullmatch(n):
            continue  # "万卡集群", "十万卡级": a scale class in marketing, not a count of a product's accelerators
        noun_at = m.start("noun") if m.group("noun") else m.end() - 1
        mid = m.group("mid") or ""
        if seg.text[noun_at - 1 : noun_at] in ("网", "线", "声", "光") or (
            host.search(mid) and not ACCELERATOR_IN_NAME.search(mid)
        ):
            continue  # "2张网卡" (NICs), "4块线卡" (line cards), "2个CPU芯片", "2 颗至强可扩展处理器": not accelerators
        if seg.text[max(0, m.start() - 2) : m.start()].strip().endswith("每") and ZH_SHARED.match(seg.text, m.end()):
            continue  # "每 2 卡共享 1 块网卡": a ratio of cards to NICs, not a group of accelerators
        if ZH_MID_NOT_NAME.search(mid):
            continue  # "64 个 800GE 端口连接 GPU": ports that reach the accelerators, not accelerators
        if m.group("noun") == "卡" and compiled(r"\d\s*$").search(mid):
            continue  # "8 个总线交换单元实现 64 卡": the units are not cards; "64 卡" is read on its own
        if m.group("noun") and compiled(r"\s*(?:cores?\b|核|内核|计算单元|units?\b)", re.I).match(
            seg.text[m.end() : m.end() + 8]
        ):
            continue  # "64 个 MLU Core": the cores of one chip
        val = int(n.replace(",", "")) if n.replace(",", "").isdigit() else zh_number(n)
        if val and not any(o.start <= m.start() < o.end for o in out):
            out.append(Mention("domain_size", m.group(0), float(val), "accelerators", seg, m.start(), m.end()))
    return out


# An accelerator named inside a product name that also names its maker's CPUs ("海光 DCU K100", "Grace Blackwell GPU")
ACCELERATOR_IN_NAME = compiled(r"DCU|GPU|NPU|XPU|加速|Blackwell|Hopper|Instinct", re.I)
# Words between a Chinese count and an accelerator noun that show the count is of something else: a port speed, ports,
# a connection ("64 个 800GE 端口连接 GPU").
ZH_MID_NOT_NAME = compiled(r"\d\s*(?:[GT]b?E?|Gbps)(?![A-Za-z])|端口|网口|接口|连接|接入")
ZH_SHARED = compiled(r"\s*(?:共享|共用|配备?|对应|使用)")
# A product model named with its count of accelerators in brackets: "PowerEdge XE9680 (8)", "SYS-821GE-TNHR (8)"
MODEL_COUNT = compiled(r"(?<![\w.])[A-Z][\w-]*(?:\s+[A-Za-z0-9][\w-]*){0,3}?\s+[\w-]*\d[\w-]*\s*\((?P<n>\d{1,3})\)")
_RESTATED = compiled(r"(?:\bfor a total of|\bi\.e\.|\btotaling|\btotalling|\(|（|，共|,\s*共)\s*$", re.I)


def _restated(text: str, start: int, found: list[Mention]) -> bool:
    """A count that restates the count just before it in other units: "2x p300c cards (4 Blackhole chips)", "two cards
    for a total of four chips". CONTRACT: the accelerator is the unit the sheet sells and counts, so the first stands."""
    prev = found[-1] if found and found[-1].segment.text is text else None
    return bool(prev and start - prev.end <= 24 and _RESTATED.search(text[prev.end : start]))


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
                if compiled(r"(?:\bno|\bwithout|\bnot|无|不需要?)\s*$", re.I).search(
                    text[max(0, m.start() - 10) : m.start()]
                ):
                    continue  # "no fans in compute trays": a method the sheet rules out
                if not any(o.value == entry["value"] for o in out):
                    out.append(Mention("cooling", m.group(0), entry["value"], "", seg, m.start(), m.end()))
        if len(out) > 1:  # "direct liquid cooling, fanless": the liquid build has no fans, it is not air-cooled
            alone = rx(v["cooling_only_alone"])
            out = [o for o in out if not alone.fullmatch(o.text)]
        return out
    if not prefilter(v["cooling_phrase"], flags=re.I)(seg.text):
        return out
    for m in rx(v["cooling_phrase"]).finditer(seg.text):
        if _speculative(seg.text, m.start(), m.end(), v):
            continue  # "future enhancements can potentially handle liquid cooling": not the product as sold
        for entry in v["cooling"]:
            if rx(entry["pattern"]).search(m.group(0)):
                out.append(Mention("cooling", m.group(0), entry["value"], "", seg, m.start(), m.end()))
                break
    return out
