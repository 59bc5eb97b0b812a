"""The knowledge base of interconnect technologies (rules/technologies.yaml) as data the stages can ask:
which technology a text names, which tier it serves, which generation a text names, what that generation carries
at a scope, which generations a rate could be, which port speeds the standards define.

It is the one way in to what the tool knows of a fabric: no other module names one, so adding a fabric or a
generation to the YAML is the whole change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from . import regex_cache
from .rules import compiled, load_rules
from .rules import validate_technologies as validate

# How close a figure must come to a reference rate to "match" it (vendors round 31.5 to 32, 450 to 450).
MATCH_TOLERANCE = 0.05


@dataclass(frozen=True, eq=False)  # one object per row: identity is equality
class Generation:
    """One generation row of a technology (NVLink 4, PCIe Gen5, NDR) and the rates it publishes."""

    technology: str
    gen: str
    row: dict

    label_format: str = "{technology} {gen}"

    @property
    def label(self) -> str:
        """How the generation is written ("NVLink 4", "PCIe Gen5", "400GbE"): the row's `label`, else its
        technology's `label` format."""
        return self.row.get("label") or self.label_format.format(technology=self.technology, gen=self.gen)

    def is_called(self, word: str) -> bool:
        """Whether WORD (as a generation pattern captured it) is this generation: its `gen` or one of its `aliases`."""
        w = word.strip().lower()
        return w == self.gen.lower() or any(w == str(a).lower() for a in self.row.get("aliases") or ())

    def get(self, key, default=None):
        return self.row.get(key, default)

    @property
    def citation(self) -> str:
        """The source as a finding quotes it: its kind in words, the document, and a warning where no copy of the
        document could be read to confirm the row (a buyer should not quote it to a vendor unchecked)."""
        kind, _, cited = str(self.row.get("source") or "").partition(": ")
        text = f"{SOURCE_KINDS[kind]}: {cited}" if kind in SOURCE_KINDS else str(self.row.get("source") or "")
        return (
            text
            if verified(self.row)
            else (f"{text} (not verified against a copy of the document: 'sheetaudit tech {self.label}' says why)")
        )

    def references(self) -> list[tuple[str, float, str]]:
        """(scope, GB/s per direction, arithmetic) for every rate this generation publishes."""
        out = []
        g = self.row
        if g.get("per_link_gbs"):
            out.append(("per-link", float(g["per_link_gbs"]), f"{_n(g['per_link_gbs'])} GB/s per link per direction"))
        if g.get("per_accelerator_gbs"):
            v = float(g["per_accelerator_gbs"])
            if g.get("links_per_accelerator") and g.get("per_link_gbs"):
                how = (
                    f"{g['links_per_accelerator']} links x {_n(g['per_link_gbs'])} GB/s = {_n(v)} GB/s per direction "
                    "per accelerator"
                )
            else:
                how = f"{_n(v)} GB/s per direction per accelerator"
            out.append(("per-accelerator", v, how))
        for width, v in (g.get("payload_gbs") or {}).items():
            enc = g.get("encoding")
            how = (
                f"{_n(g['lane_gts'])} GT/s x {enc[0]}/{enc[1]} / 8 x {width[1:]} lanes = {_n(v)} GB/s per direction"
                if enc and g.get("lane_gts")
                else f"{_n(v)} GB/s per direction at {width}"
            )
            out.append((f"pcie-{width}", float(v), how))
        ports = g.get("port_gbps")
        if isinstance(ports, dict):
            for width, gbps in ports.items():
                out.append(
                    (
                        f"port-{width}",
                        float(gbps) / 8,
                        f"{_n(gbps)} Gb/s per {width} port = {_n(gbps / 8)} GB/s per direction",
                    )
                )
        elif ports:
            out.append(("port", float(ports) / 8, f"{_n(ports)} Gb/s per port = {_n(ports / 8)} GB/s per direction"))
        return out

    def ceiling(self, scope: str) -> tuple[float, str] | None:
        """The most this generation carries at a figure's scope, per direction, with its arithmetic."""
        refs = self.references()
        if scope == "per-accelerator":
            want = [r for r in refs if r[0] == "per-accelerator"]
        elif scope == "per-link":
            want = [r for r in refs if r[0] == "per-link" or r[0] == "pcie-x16"]
        elif scope == "per-port":
            want = [r for r in refs if r[0].startswith("port")]
        else:
            return None
        if not want:
            return None
        _, v, how = max(want, key=lambda r: r[1])
        return v, how


@dataclass(frozen=True, eq=False)
class Technology:
    """One interconnect technology: how sheets name it, its tier, its direction convention, its generations."""

    name: str
    pattern: str
    tier: str
    bytes_totals: str
    rdma: bool
    generation_pattern: str
    generations: tuple[Generation, ...] = field(default_factory=tuple)
    words: dict = field(default_factory=dict)  # ordinals as sheets write them ("fourth", "四") -> "4"
    accelerator: str = "accelerator"  # what a question calls the devices it joins ("GPU")
    rate_names: str = ""  # a rate written as a generation's name with its number ("NDR400")
    named_alone: str = ""  # generations named alone ("a port of NDR"): each its widest port rate ...
    context: str = ""  # ... only beside one of these words

    def alone_rates(self) -> dict[str, float]:
        """Gb/s of each generation named alone: its widest port ("NDR" is a 4x port of 400 Gb/s)."""
        out = {}
        for g in self.generations:
            ports = g.get("port_gbps")
            widest = max(ports.values()) if isinstance(ports, dict) and ports else ports
            if widest:
                out[g.gen] = float(widest)
        return out

    def generation(self, gen: str) -> Generation | None:
        return next((g for g in self.generations if g.is_called(str(gen))), None)

    def named(self, text: str) -> list[Generation]:
        """The generations `text` names, in order and without repeats ("NVLink 4", "PCIe Gen5", "NDR400")."""
        found: list[Generation] = []
        if not text:
            return found
        if self.generation_pattern:
            for m in compiled(self.generation_pattern, re.I).finditer(text):
                word = next((x for x in m.groups() if x), "")
                g = self.generation(self.words.get(word.lower(), self.words.get(word, word)))
                if g is not None and g not in found:
                    found.append(g)
        for g in self.generations:
            if g not in found and any(compiled(p, re.I).search(text) for p in g.get("names") or ()):
                found.append(g)
        return found


@dataclass(frozen=True)
class KnowledgeBase:
    """Every technology of rules/technologies.yaml, asked by name, generation, rate or port speed."""

    technologies: tuple[Technology, ...]
    rdma_transports: tuple[str, ...] = ()
    ethernet_products: tuple[str, ...] = ()  # switch silicon that makes a switch Ethernet ("Spectrum-4", "Tomahawk")

    def get(self, name: str) -> Technology | None:
        return self._memo("by_name", lambda: {t.name.lower(): t for t in reversed(self.technologies)}).get(name.lower())

    def _memo(self, key: str, compute):
        """What is computed from the (frozen) rows once per knowledge base: every figure asks again."""
        memo = self.__dict__.setdefault("_memos", {})
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def rate_names(self) -> str:
        """One pattern for every rate written as a generation's name with its number ("NDR400"); the number is
        the match's first group that took part."""
        return "|".join(f"(?:{t.rate_names})" for t in self.technologies if t.rate_names) or "(?!)"

    def named_alone(self) -> Technology | None:
        """The technology whose generations a sheet names alone as a port's rate ("a single port of NDR")."""
        return next((t for t in self.technologies if t.named_alone), None)

    def names(self, tier: str | None = None) -> frozenset[str]:
        """The technologies of TIER ("scale-up": NVLink, UALink, HCCS, NeuronLink...), or all of them."""
        return frozenset(t.name for t in self.technologies if tier is None or t.tier == tier)

    def tier_pattern(self, tier: str) -> str:
        """One pattern naming any technology of TIER, as sheets spell them."""
        return "|".join(t.pattern for t in self.technologies if t.tier == tier)

    def standard_networks(self) -> frozenset[str]:
        """The networks whose standards make a port's rate per direction (Ethernet, InfiniBand, RoCE, EFA): every
        scale-out technology whose rates are per direction."""
        return frozenset(
            t.name for t in self.technologies if t.tier == "scale-out" and t.bytes_totals == "per-direction"
        )

    def port_speeds(self) -> frozenset[float]:
        """Every port speed (Gb/s) a generation row publishes, at any width: the speeds a bare "400G" port can be."""
        return self._memo("port_speeds", self._port_speeds)

    def _port_speeds(self) -> frozenset[float]:
        out = set()
        for g in self.generations():
            ports = g.get("port_gbps")
            out.update(float(v) for v in (ports.values() if isinstance(ports, dict) else [ports] if ports else []))
        return frozenset(out)

    def accelerator_word(self, name: str) -> str:
        """What the devices a technology joins are called in a question ("GPU" for NVLink); "accelerator"."""
        t = self.get(name or "")
        return t.accelerator if t else "accelerator"

    def generations(self):
        for t in self.technologies:
            yield from t.generations

    def lookup(self, query: str) -> list[Generation]:
        """Generations matching a name as a user types it: 'NVLink 4', 'nvlink4', 'NDR', 'PCIe Gen5', 'PCIe 5.0'."""
        q = re.sub(r"[\s_]+", " ", query.strip()).lower()
        exact = [
            g for g in self.generations() if _key(g.label) == _key(q) or _key(f"{g.technology} {g.gen}") == _key(q)
        ]
        if exact:
            return exact
        tech = self.get(q)
        if tech:
            return list(tech.generations)
        return [g for t in self.technologies for g in t.named(query)]

    def max_per_accelerator(self) -> tuple[float, Generation] | None:
        best = [(float(g.get("per_accelerator_gbs")), g) for g in self.generations() if g.get("per_accelerator_gbs")]
        return max(best, key=lambda x: x[0]) if best else None

    def candidates(
        self, gbs: float, scope: str, tolerance: float = MATCH_TOLERANCE
    ) -> list[tuple[Generation, float, str]]:
        """Generations with a published rate at `scope` equal to `gbs` per direction (within tolerance)."""
        out = []
        for g in self.generations():
            for s, v, how in g.references():
                if _scope_fits(s, scope) and v and abs(gbs - v) <= tolerance * v:
                    out.append((g, v, how))
                    break
        return out


def _key(s: str) -> str:
    return re.sub(r"[^a-z0-9.]", "", s.lower()).replace("gen", "").replace(".0", "")


def _scope_fits(ref_scope: str, scope: str) -> bool:
    if scope == "per-port":
        return ref_scope.startswith("port")
    if scope == "per-link":
        return ref_scope == "per-link" or ref_scope.startswith("pcie-")
    return ref_scope == scope


def _n(v) -> str:
    v = float(v)
    return f"{v:g}" if v == int(v) or abs(v) >= 100 else f"{v:.4g}"


def technology(*texts: str) -> str:
    """The first technology (NVLink, InfiniBand, PCIe, ...) the first of TEXTS that names one names; '' for none.
    Case-sensitive, as the patterns are written (so 'ib' in a word is not InfiniBand)."""
    return _technology(str(load_rules().directory), texts)


@lru_cache(maxsize=4096)
def _technology(directory: str, texts: tuple) -> str:
    """Cached: every figure of one long paragraph asks it of the whole paragraph, and a pattern the paragraph
    does not match reads all of it each time (quadratic in its length)."""
    could, techs = _technology_patterns(directory)
    for text in texts:
        if not text:
            continue
        if not could(text):
            continue
        for name, pattern in techs:
            if pattern.search(text):
                return name
    return ""


@lru_cache(maxsize=4)
def _technology_patterns(directory: str) -> tuple:
    """Whether a text could name any technology, then (name, compiled pattern) in matching order."""
    techs = _cached(directory).technologies
    return prefilter(*(t.pattern for t in techs)), tuple((t.name, compiled(t.pattern)) for t in techs)


def _always(text: str) -> bool:
    return True


@lru_cache(maxsize=512)
def prefilter(*patterns: str, flags: int = 0):
    """A test `could(text)` that is false only where none of PATTERNS can match: every match of each contains one
    of a few literal strings, and `text` holds none of them. One scan for literals costs a fraction of the
    patterns' own scans, and most segments of a long document name no technology, cooling method or Chinese
    rate; the patterns still decide where it passes. A literal read case-insensitively is looked for with the
    pattern's own case folding. A pattern with no such literals (or one this reading does not know) passes
    every text."""
    needed = []
    for pattern in patterns:
        # read from the pattern cache where an earlier run read the pattern (parsing it is most of the work)
        found = regex_cache.kept(("prefilter", pattern, int(flags)), lambda: _literals(pattern, flags))
        if not found:
            return _always
        needed += [tuple(x) for x in found]
    ascii_only = flags & re.ASCII
    exact = _any_of(s for s, fold in needed if not fold)
    folded = [s for s, fold in needed if fold]
    exact_rx = compiled(exact, ascii_only) if exact else None
    if not folded:
        return exact_rx.search
    folded_rx = compiled(_any_of(folded), re.I | ascii_only)
    # On ASCII text, case folding is plain lowering: a case-sensitive scan of the lowered text finds the same
    # literals, and (unlike a case-insensitive one) skips ahead to the letters they start with.
    lowered_rx = compiled(_any_of(s.lower() for s in folded), ascii_only) if all(map(_plain_case, folded)) else None

    def could(text: str) -> bool:
        if exact_rx is not None and exact_rx.search(text):
            return True
        if lowered_rx is not None and text.isascii():
            return lowered_rx.search(text.lower()) is not None
        return folded_rx.search(text) is not None

    return could


def _literals(pattern: str, flags: int) -> list[tuple[str, bool]] | None:
    from re import _constants as c, _parser

    try:
        parsed = _parser.parse(pattern, flags)
        return _needed(parsed.data, parsed.state.flags, c)
    except Exception:  # noqa: BLE001 - a construct this reading does not know: the scan decides
        return None


def _any_of(literals) -> str:
    return "|".join(dict.fromkeys(map(re.escape, literals)))


def _plain_case(literal: str) -> bool:
    """Folded like ASCII text is: ASCII, or caseless (Chinese); not a long s or a Kelvin sign, which fold to ASCII."""
    return all(ch.isascii() or ch.lower() == ch.upper() == ch for ch in literal)


def _needed(items, flags, c) -> list[tuple[str, bool]] | None:
    """Literals (text, read case-insensitively) one of which every match of the parsed sequence contains; None
    when no such set is known. Of the sets its parts require, the fewest and longest."""
    best: list | None = None
    run, run_fold = [], False

    def consider(cands):
        nonlocal best
        cands = list(dict.fromkeys(cands or ()))
        if cands and (best is None or _rank(cands) > _rank(best)):
            best = cands

    def flush():
        nonlocal run, run_fold
        if run:
            consider([("".join(run), run_fold)])
        run, run_fold = [], False

    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            run_fold = run_fold or bool(flags & c.SRE_FLAG_IGNORECASE)
            continue
        flush()
        if op is c.SUBPATTERN:
            _, add, remove, sub = av
            consider(_needed(sub.data, (flags | add) & ~remove, c))
        elif op is c.ATOMIC_GROUP:
            consider(_needed(av.data, flags, c))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_needed(av[2].data, flags, c))
        elif op is c.BRANCH:
            alts = [_needed(alt.data, flags, c) for alt in av[1]]
            if all(alts):
                consider([x for alt in alts for x in alt])
        elif op is c.IN and len(av) <= 16 and all(o is c.LITERAL for o, _ in av):
            consider([(chr(v), bool(flags & c.SRE_FLAG_IGNORECASE)) for _, v in av])
    flush()
    return best


def _rank(literals: list) -> tuple:
    """Fewer, longer literals reject more text."""
    return min(len(s) for s, _ in literals), -len(literals)


def build(doc: dict) -> KnowledgeBase:
    validate(doc)
    techs = []
    words = {str(k): str(v) for k, v in (doc.get("generation_words") or {}).items()}
    for t in doc["technologies"]:
        label = t.get("label") or "{technology} {gen}"
        gens = tuple(Generation(t["name"], str(g["gen"]), g, label) for g in t.get("generations") or [])
        techs.append(
            Technology(
                name=t["name"],
                pattern=t["pattern"],
                tier=t["tier"],
                bytes_totals=t["bytes_totals"],
                rdma=bool(t.get("rdma")),
                generation_pattern=t.get("generation_pattern") or "",
                generations=gens,
                words=words,
                accelerator=t.get("accelerator") or "accelerator",
                rate_names=t.get("rate_names") or "",
                named_alone=t.get("named_alone") or "",
                context=t.get("context") or "",
            )
        )
    return KnowledgeBase(
        tuple(techs), tuple(doc.get("rdma_transports") or ()), tuple(doc.get("ethernet_products") or ())
    )


@lru_cache(maxsize=4)
def _cached(directory: str) -> KnowledgeBase:
    return build(load_rules(directory).technologies)


def load() -> KnowledgeBase:
    """The knowledge base of the rules in use (cached per rules folder)."""
    return _cached(str(load_rules().directory))


def summary(g: Generation) -> str:
    """One line of what a generation carries: its widest rate and its largest domain."""
    refs = g.references()
    parts = [max(refs, key=lambda r: r[1])[2]] if refs else []
    if g.get("max_domain"):
        parts.append(f"domain up to {g.get('max_domain')}")
    if g.get("lanes"):
        parts.append("lanes " + ", ".join(g.get("lanes")))
    return "; ".join(parts) or (g.get("note") or "")


# What a row may cite, named first in its `source`: a buyer quotes the knowledge base to a vendor, so it rests on
# what the vendor cannot dispute (a standard, a consortium's specification, the vendor's own document), never on a
# retailer's, a blog's or an encyclopedia's page.
SOURCE_KINDS = {"standard": "standard", "specification": "specification", "vendor": "the vendor's own document"}


def describe(g: Generation, tech: Technology | None = None) -> str:
    """A generation explained for `sheetaudit tech NAME`: every published rate with its arithmetic, the source."""
    lines = [g.label + (f"  ({tech.tier}; byte totals {tech.bytes_totals} by convention)" if tech else "")]
    row = g.row
    if row.get("lane_gts") or row.get("lane_gbps"):
        sig = f"{_n(row['lane_gts'])} GT/s" if row.get("lane_gts") else f"{_n(row['lane_gbps'])} Gb/s"
        enc = f", {row['encoding'][0]}b/{row['encoding'][1]}b encoding" if row.get("encoding") else ""
        mod = f", {row['modulation']}" if row.get("modulation") else ""
        lines.append(f"Lane signalling: {sig}{enc}{mod}")
    for _, _, how in g.references():
        lines.append(f"Carries: {how}")
    if row.get("lanes"):
        lines.append("SerDes lanes: " + ", ".join(row["lanes"]))
    if row.get("x16_quoted_bidirectional"):
        lines.append(f"Printed as: {_n(row['x16_quoted_bidirectional'])} GB/s for x16, both directions added")
    if row.get("max_domain"):
        lines.append(f"Largest domain: {row['max_domain']} accelerators")
    if row.get("switch_latency_ns"):
        lines.append(f"Switch latency: {_n(row['switch_latency_ns'])} ns (port to port)")
    if row.get("note"):
        lines.append(f"Note: {row['note']}")
    kind, _, cited = str(row["source"]).partition(": ")
    lines.append(f"Source: [{SOURCE_KINDS[kind]}] {cited}" if kind in SOURCE_KINDS else f"Source: {row['source']}")
    lines += verification(row)
    lines.append(f"Checked: {row['checked']}")
    return "\n".join(lines)


def verified(row: dict) -> bool:
    """Whether a row's figures were confirmed by a document actually read (its `read` addresses), as the row says."""
    return row.get("verified") is True and bool(row.get("read"))


def verification(row: dict) -> list[str]:
    """What was read to check a row and what it did not confirm, one line each: a buyer quoting the knowledge base
    sees which figures rest on a document read and which on a citation no stored copy could confirm."""
    lines = [f"Read: {x}" for x in row.get("read") or []]
    if verified(row):
        lines.insert(0, "Verified: yes, against the documents read below")
    else:
        lines.insert(0, "Verified: NO, no document read confirms this row's figures")
    if row.get("unverified"):
        lines.append(("Not confirmed: " if verified(row) else "Why not: ") + str(row["unverified"]))
    return lines
