"""Evidence images: the region of a PDF page around a figure, the figure highlighted, as a PNG data URI.

Rendering happens at report time from the original file, by pdfium (read.pdfium_page: one grey render per page
at a modest resolution, the figure located among the page's words, pages closed after use); a crop is written as
an indexed PNG with zlib, without an imaging library. Text, Markdown and HTML inputs, figures without a position,
encrypted or changed files simply get no image: the report then quotes the sentence only.
"""

from __future__ import annotations

import base64
import hashlib
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional


BBox = tuple[float, float, float, float]

PAD_X, PAD_Y = 10.0, 6.0  # points around the segment
MAX_CROP_HEIGHT = 150.0  # a taller segment is cropped around the highlighted words
HIGHLIGHT_FILL = (255, 214, 0, 110)  # RGB and opacity (of 255) laid over the page under a located figure
HIGHLIGHT_EDGE = (176, 60, 0)
EDGE_WIDTH = 2  # pixels
GREYS = 16  # grey levels kept: anti-aliased text stays smooth, the PNG stays small


@dataclass(frozen=True)
class Request:
    """One image to make: a page region (the segment's bbox) and the figure texts to highlight in it."""

    key: str
    page: int  # 1-based
    bbox: BBox
    texts: tuple[str, ...]
    kind: str = "sentence"  # the segment kind
    label: str = ""  # row header of a table cell / key-value line: shown beside the value


@dataclass
class Evidence:
    key: str
    page: int
    uri: str  # data:image/png;base64,...
    width: int  # CSS pixels at 1x
    height: int
    found: list[str] = field(default_factory=list)  # figure texts located and highlighted

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


def render(
    path: str, requests: Iterable[Request], resolution: int = 100, password: str | None = None
) -> dict[str, Evidence]:
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
        _skipped("evidence images skipped for %s: %s", path, exc)
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
                _skipped("evidence images skipped for %s page %d: %s", path, page_no, exc)
            finally:
                if page is not None:
                    page.close()
    finally:
        try:
            pdf.close()
        except Exception:
            pass
    return out


def _skipped(*args) -> None:
    """Log why images are missing; logging is imported only then (~3 ms of every HTML report otherwise)."""
    import logging

    logging.getLogger(__name__).info(*args)


def _render_page(page, requests: list[Request], resolution: int) -> dict[str, Evidence]:
    """page: a read.pdfium_page.PdfiumPage (its words, their characters on demand, its picture)."""
    scale = resolution / 72.0
    (pixels, width, height, stride), x_off, y_off = page.render(resolution, grey=True)
    # plain dicts: every request scans the page's words several times, and a dict lookup is the cheapest
    words = [{"x0": w.x0, "top": w.top, "x1": w.x1, "bottom": w.bottom, "word": w} for w in page.words()]
    bounds = page.crop

    def chars_of(w: dict) -> list[dict]:
        if "chars" not in w:
            w["chars"] = page.chars(w["word"])
        return w["chars"]

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
            if label_boxes:  # the nearest occurrence of the row header on the same line
                near = min(label_boxes, key=lambda b: abs(b[0] - region[0]))
                region = _union(region, [{"x0": near[0], "top": near[1], "x1": near[2], "bottom": near[3]}])
        boxes, found = [], []
        for t in dict.fromkeys(r.texts):
            hits = _locate(t, touching, chars_of) or _locate(
                t, [w for w in words if _touches(w, _row(region, words))], chars_of
            )
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
        box = (max(0, int(x0)), max(0, int(y0)), min(width, int(round(x1))), min(height, int(round(y1))))
        if box[2] - box[0] < 4 or box[3] - box[1] < 4:
            continue
        rects = []
        for b in boxes:
            bx0, by0 = px(b[0] - 1.5, b[1] - 1.5)
            bx1, by1 = px(b[2] + 1.5, b[3] + 1.5)
            rects.append((bx0 - box[0], by0 - box[1], bx1 - box[0], by1 - box[1]))
        w, h = box[2] - box[0], box[3] - box[1]
        grey = [pixels[y * stride + box[0] : y * stride + box[2]] for y in range(box[1], box[3])]
        uri = "data:image/png;base64," + base64.b64encode(_png(_highlighted(grey, rects), w, h)).decode("ascii")
        out[r.key] = Evidence(
            key=r.key,
            page=r.page,
            uri=uri,
            width=int(round(w / scale * 96 / 72)),
            height=int(round(h / scale * 96 / 72)),
            found=found,
        )
    return out


def _palette() -> tuple[bytes, bytes, bytes, int]:
    """Index tables from a grey value to the palette (plain, and under the highlight), the palette, the edge index.

    Why a palette of grey levels: a text crop needs no colour but the highlight's, and GREYS levels of grey, the
    same levels under the translucent highlight, and its edge colour compress to a few KB as an 8-bit indexed PNG."""
    step = 255 / (GREYS - 1)
    plain = bytes(round(g / step) for g in range(256))
    lit = bytes(GREYS + i for i in plain)
    *fill, alpha = HIGHLIGHT_FILL
    a = alpha / 255
    colours = [(round(i * step),) * 3 for i in range(GREYS)]
    colours += [tuple(round(c * a + g * (1 - a)) for c in fill) for g, _, _ in colours]
    colours.append(HIGHLIGHT_EDGE)
    return plain, lit, bytes(v for c in colours for v in c), len(colours) - 1


_PLAIN, _LIT, _PALETTE, _EDGE = _palette()


def _highlighted(grey: list[bytes], rects: list[tuple]) -> list[bytearray]:
    """Palette rows of a grey crop, each rectangle (pixels, in the crop) filled with the highlight and edged."""
    rows = [bytearray(r.translate(_PLAIN)) for r in grey]
    h, w = len(rows), len(rows[0]) if rows else 0
    for rx0, ry0, rx1, ry1 in rects:
        x0, y0 = max(0, int(round(rx0))), max(0, int(round(ry0)))
        x1, y1 = min(w, int(round(rx1)) + 1), min(h, int(round(ry1)) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        edge = bytes([_EDGE]) * (x1 - x0)
        for y in range(y0, y1):
            row = rows[y]
            if y < y0 + EDGE_WIDTH or y >= y1 - EDGE_WIDTH:
                row[x0:x1] = edge
            else:
                row[x0:x1] = grey[y][x0:x1].translate(_LIT)
                row[x0 : x0 + EDGE_WIDTH] = edge[:EDGE_WIDTH]
                row[max(x0, x1 - EDGE_WIDTH) : x1] = edge[:EDGE_WIDTH]
    return rows


def _png(rows: list[bytearray], width: int, height: int) -> bytes:
    """An 8-bit indexed PNG of palette rows (no filter: indices of a few greys compress best as they are).
    zlib's default level: level 9 makes the PNGs 3% smaller at ten times the time."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
        + chunk(b"PLTE", _PALETTE)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


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
    return (
        min([b[0]] + [w["x0"] for w in ws]),
        min([b[1]] + [w["top"] for w in ws]),
        max([b[2]] + [w["x1"] for w in ws]),
        max([b[3]] + [w["bottom"] for w in ws]),
    )


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
        for c in chars[start : start + len(target)]:
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
    return [
        (min(c["x0"] for c in ln), min(c["top"] for c in ln), max(c["x1"] for c in ln), max(c["bottom"] for c in ln))
        for ln in lines
    ]
