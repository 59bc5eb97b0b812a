"""A page that is mostly a picture with a little text may hold its spec table as that picture (it is listed as a
page without a text layer). Telling a scan from a photograph draws the page, decoding its pictures; a picture
black and white by its codec (CCITT fax, JBIG2) is a scan by its dictionary alone, and is never decoded."""

import sys
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
from make_hostile import HELVETICA, raw_pdf, raw_stream, text_ops  # noqa: E402

PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> "
    b"/XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>"
)


def scanned_page(path: Path, codec: bytes) -> Path:
    """One page covered by a 1-bit picture (its data never needs reading) under the words 'Page 1'."""
    data = bytes(range(256)) * 40
    image = raw_stream(
        data,
        extra=b" /Type /XObject /Subtype /Image /Width 1700 /Height 2200 /ColorSpace "
        b"/DeviceGray /BitsPerComponent 1 /Filter /" + codec + b" /DecodeParms << /K -1 /Columns 1700 /Rows 2200 >>",
    )
    content = b"q 595 0 0 842 0 0 cm /Im1 Do Q\n" + text_ops([b"Page 1"])
    path.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                PAGE,
                HELVETICA,
                raw_stream(content),
                image,
            ]
        )
    )
    return path


@pytest.mark.parametrize("codec", [b"CCITTFaxDecode", b"JBIG2Decode"])
def test_a_page_scanned_in_black_and_white_has_no_text_layer_without_decoding_its_picture(tmp_path, monkeypatch, codec):
    from sheetaudit.read import pdf, pdfium_page

    drawn = []
    monkeypatch.setattr(pdfium_page.PdfiumPage, "render", lambda self, *a, **k: drawn.append(a) or 1 / 0)
    path = scanned_page(tmp_path / "scan.pdf", codec)
    doc = pdf.read_pdf(path, path.read_bytes())
    assert doc.no_text_pages == [1] and drawn == []
