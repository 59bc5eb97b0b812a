"""Evidence images: the region of a PDF page around a figure, the figure highlighted, as a PNG data URI.

Rendering happens at report time from the original file, by pdfium (read.pdfium_page: one render per page
at a modest resolution, the figure located among the page's words, pages closed after use). Text, Markdown and HTML inputs, figures without a position, encrypted
or changed files simply get no image: the report then quotes the sentence only.
"""
from __future__ import annotations

import base64
import hashlib
import io
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

log = logging.getLogger(__name__)

BBox = tuple[float, float, float, float]

PAD_X, PAD_Y = 10.0, 6.0         # points around the segment
MAX_CROP_HEIGHT = 150.0          # a taller segment is cropped around the highlighted words
HIGHLIGHT_FILL = (255, 214, 0, 110)
HIGHLIGHT_EDGE = (176, 60, 0, 255)


@dataclass(frozen=True)
class Request:
    """One image to make: a page region (the segment's bbox) and the figure texts to highlight in it."""
    key: str
    page: int                         # 1-based
    bbox: BBox
    texts: tuple[str, ...]
    kind: str = "sentence"            # the segment kind
    label: str = ""                   # row header of a table cell / key-value line: shown beside the value


@dataclass
class Evidence:
    key: str
    page: int
    uri: str                          # data:image/png;base64,...
    width: int                        # CSS pixels at 1x
    height: int
    found: list[str] = field(default_factory=list)   # figure texts located and highlighted

    @property
    def located(self) -> bool:
        return bool(self.found)


def unavailable_reason(path: str, kind: str, sha256: str = "") -> Optional[str]:
    """Why no page images can be made for this document, or None when they can."""
    if kind != "pdf":
        return f"the input is a {kind} file: there is no page to picture"
    p = Path(path)
    if not p.is_file():
        return "the PDF is no longer at its path"
    if sha256:
        h = hashlib.sha256()
        with p.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        if h.hexdigest() != sha256:
            return "the PDF changed since it was audited"
    return None


def render(path: str, requests: Iterable[Request], resolution: int = 100,
           password: str | None = None) -> dict[str, Evidence]:
    """Make the images of `requests` from the PDF at `path`; any failure leaves a request without an image."""
    by_page: dict[int, list[Request]] = {}
    for r in requests:
        by_page.setdefault(r.page, []).append(r)
    out: dict[str, Evidence] = {}
    if not by_page:
        return out
    from ..read.pdfium_page import open_pdf
    try:
        pdf = open_pdf(path, password)
        n = len(pdf)
    except Exception as exc:  # encrypted, damaged, vanished: the report quotes text instead
        log.info("evidence images skipped for %s: %s", path, exc)
        return out
    try:
        for page_no in sorted(by_page):
            if not 1 <= page_no <= n:
                continue
            page = None
            try:
                page = pdf.page(page_no - 1)
                out.update(_render_page(page, by_page[page_no], resolution))
            except Exception as exc:  # a page that will not render costs its images, never the report
                log.info("evidence images skipped for %s page %d: %s", path, page_no, exc)
            finally:
                if page is not None:
                    page.close()
    finally:
        try:
            pdf.close()
        except Exception:
            pass
    return out


def _render_page(page, requests: list[Request], resolution: int) -> dict[str, Evidence]:
    """page: a read.pdfium_page.PdfiumPage (its words, their characters on demand, its picture)."""
    from PIL import Image, ImageDraw
    scale = resolution / 72.0
    image, x_off, y_off = page.render(resolution)
    full = image.convert("RGB")
    words = page.words()
    bounds = page.crop
    chars: dict[int, list[dict]] = {}

    def chars_of(w) -> list[dict]:
        if id(w) not in chars:
            chars[id(w)] = page.chars(w)
        return chars[id(w)]

    out = {}
    for r in requests:
        seg = _clamp(r.bbox, bounds)
        if seg is None:
            continue
        touching = [w for w in words if _touches(w, seg)]
        region = _union(seg, touching)
        if r.label:
            band = [w for w in words if _same_band(w, region)]
            label_boxes = _locate(r.label, band, chars_of)
            if label_boxes:   # the nearest occurrence of the row header on the same line
                near = min(label_boxes, key=lambda b: abs(b[0] - region[0]))
                region = _union(region, [{"x0": near[0], "top": near[1], "x1": near[2], "bottom": near[3]}])
        boxes, found = [], []
        for t in dict.fromkeys(r.texts):
            hits = (_locate(t, touching, chars_of)
                    or _locate(t, [w for w in words if _touches(w, _row(region, words))], chars_of))
            if hits:
                found.append(t)
                boxes.extend(hits)
        region = _union(region, [{"x0": b[0], "top": b[1], "x1": b[2], "bottom": b[3]} for b in boxes])
        region = _trim(_pad(region, bounds), words)
        if region[3] - region[1] > MAX_CROP_HEIGHT:
            centre = ((boxes[0][1] + boxes[0][3]) / 2) if boxes else (region[1] + MAX_CROP_HEIGHT / 2)
            top = max(region[1], min(centre - MAX_CROP_HEIGHT / 2, region[3] - MAX_CROP_HEIGHT))
            region = _trim((region[0], top, region[2], top + MAX_CROP_HEIGHT), words)

        def px(x, y):
            return (x - x_off) * scale, (y - y_off) * scale

        x0, y0 = px(region[0], region[1])
        x1, y1 = px(region[2], region[3])
        box = (max(0, int(x0)), max(0, int(y0)), min(full.width, int(round(x1))), min(full.height, int(round(y1))))
        if box[2] - box[0] < 4 or box[3] - box[1] < 4:
            continue
        crop = full.crop(box).convert("RGBA")
        overlay = Image.new("RGBA", crop.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        for b in boxes:
            bx0, by0 = px(b[0] - 1.5, b[1] - 1.5)
            bx1, by1 = px(b[2] + 1.5, b[3] + 1.5)
            rect = (bx0 - box[0], by0 - box[1], bx1 - box[0], by1 - box[1])
            draw.rectangle(rect, fill=HIGHLIGHT_FILL)
            draw.rectangle(rect, outline=HIGHLIGHT_EDGE, width=2)
        img = Image.alpha_composite(crop, overlay).convert("RGB")
        # Text crops compress well as a small palette; the highlight colours survive quantisation.
        img = img.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        buf = io.BytesIO()
        img.save(buf, format="PNG", optimize=True)
        uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        out[r.key] = Evidence(key=r.key, page=r.page, uri=uri, width=int(round(img.width / scale * 96 / 72)),
                              height=int(round(img.height / scale * 96 / 72)), found=found)
    return out


def _clamp(b: BBox, bounds: BBox) -> Optional[BBox]:
    px0, ptop, px1, pbottom = bounds
    x0, top, x1, bottom = max(b[0], px0), max(b[1], ptop), min(b[2], px1), min(b[3], pbottom)
    if x1 - x0 < 1 or bottom - top < 1:
        return None
    return x0, top, x1, bottom


def _pad(b: BBox, bounds: BBox) -> BBox:
    px0, ptop, px1, pbottom = bounds
    return (max(px0, b[0] - PAD_X), max(ptop, b[1] - PAD_Y), min(px1, b[2] + PAD_X), min(pbottom, b[3] + PAD_Y))


def _touches(w: dict, b: BBox) -> bool:
    """The word overlaps the box by more than a sliver (a sentence's box may end inside a long CJK word)."""
    ox = min(w["x1"], b[2]) - max(w["x0"], b[0])
    oy = min(w["bottom"], b[3]) - max(w["top"], b[1])
    return ox > 0.5 and oy > 0.5 * (w["bottom"] - w["top"])


def _union(b: BBox, ws: list[dict]) -> BBox:
    if not ws:
        return b
    return (min([b[0]] + [w["x0"] for w in ws]), min([b[1]] + [w["top"] for w in ws]),
            max([b[2]] + [w["x1"] for w in ws]), max([b[3]] + [w["bottom"] for w in ws]))


def _same_band(w: dict, b: BBox) -> bool:
    return min(w["bottom"], b[3]) - max(w["top"], b[1]) > 0.5 * (w["bottom"] - w["top"])


def _row(b: BBox, words: list[dict]) -> BBox:
    """The region widened to every word sharing its vertical band."""
    band = [w for w in words if _same_band(w, b)]
    return (min([b[0]] + [w["x0"] for w in band]), b[1], max([b[2]] + [w["x1"] for w in band]), b[3])


def _trim(b: BBox, words: list[dict]) -> BBox:
    """Shrink the padded box so it cuts no line of text in half at its top or bottom edge."""
    x0, top, x1, bottom = b
    for w in words:
        if w["x1"] < x0 or w["x0"] > x1:
            continue
        if w["top"] < top < w["bottom"] - 0.5:
            top = w["bottom"] + 0.5 if (w["bottom"] - top) < (w["bottom"] - w["top"]) * 0.8 else top
        if w["top"] + 0.5 < bottom < w["bottom"]:
            bottom = w["top"] - 0.5 if (bottom - w["top"]) < (w["bottom"] - w["top"]) * 0.8 else bottom
    if bottom - top < 4:
        return b
    return x0, top, x1, bottom


def _locate(text: str, words: list, chars_of=lambda w: w["chars"]) -> list[BBox]:
    """Boxes (one per line) of the characters that spell `text`, at every occurrence; [] when not found.

    Matching is on characters, not words, so a figure inside a long CJK run or glued to punctuation
    ("X8，机柜功耗约88kW，") is boxed exactly.
    """
    target = "".join(ch for ch in text.lower() if not ch.isspace())
    if not target:
        return []
    chars, flat = [], []
    for w in words:
        for c in chars_of(w):
            for ch in (c.get("text") or "").lower():
                if not ch.isspace():
                    chars.append(c)
                    flat.append(ch)
    s = "".join(flat)
    out: list[BBox] = []
    start = s.find(target)
    while start >= 0:
        seen, span = set(), []
        for c in chars[start:start + len(target)]:
            if id(c) not in seen:
                seen.add(id(c))
                span.append(c)
        out.extend(_line_boxes(span))
        start = s.find(target, start + len(target))
    return out


def _line_boxes(cs: list[dict]) -> list[BBox]:
    lines: list[list[dict]] = []
    for c in cs:
        if lines and abs(lines[-1][-1]["top"] - c["top"]) < 0.6 * max(1.0, c["bottom"] - c["top"]):
            lines[-1].append(c)
        else:
            lines.append([c])
    return [(min(c["x0"] for c in ln), min(c["top"] for c in ln), max(c["x1"] for c in ln),
             max(c["bottom"] for c in ln)) for ln in lines]
