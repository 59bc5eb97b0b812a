"""Small files that stand for huge work: a page tree that repeats one page 200,000 times, a font or an image that
inflates to a gigabyte. Each is refused before the work, with a message naming the limit, or read without the
part that would blow up (pictures are never decoded to read text); time and memory stay bounded."""

import subprocess
import sys
import zlib

import pytest

from conftest import ROOT, run_cli

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
from make_hostile import HELVETICA, RAW_LINES, raw_pdf, raw_stream, text_ops  # noqa: E402

GIB = 2**30


def _zeros(n: int) -> bytes:
    """n zero bytes, deflated, without holding them: about n/1000 bytes."""
    z, chunk = zlib.compressobj(9), bytes(2**22)
    parts = [z.compress(chunk) for _ in range(n // len(chunk))]
    return b"".join(parts) + z.flush()


def _flate(data: bytes, extra: bytes) -> bytes:
    return b"<< /Length %d /Filter /FlateDecode%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> %s>> /Contents 5 0 R >>"
)


PEAK = """import resource, subprocess, sys
p = subprocess.run([sys.executable, "-m", "sheetaudit", *sys.argv[1:]], capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(p.returncode)
"""


def _check_with_peak(*args):
    """`sheetaudit check ARGS` in a process of its own, and the most memory any of its processes held (MB)."""
    p = subprocess.run(
        [sys.executable, "-c", PEAK, "check", *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    *lines, peak = p.stderr.strip().splitlines()
    return p.returncode, p.stdout, "\n".join(lines), int(peak) / 1024


def test_a_page_tree_repeating_one_page_is_refused_naming_the_limit(tmp_path):
    n = 200_000
    pdf = tmp_path / "repeat.pdf"
    pdf.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [" + b"3 0 R " * n + b"] /Count %d >>" % n,
                PAGE % b"",
                HELVETICA,
                raw_stream(text_ops(RAW_LINES)),
            ]
        )
    )
    ran = run_cli("check", pdf, "--timeout", "100", isolated=True, timeout=200)
    assert ran.returncode == 2 and "200000 pages" in ran.stderr and "--max-pages" in ran.stderr, ran.output
    part = run_cli("check", pdf, "--max-pages", "3", "--format", "json", isolated=True, timeout=200)
    assert part.returncode in (0, 1) and "10.2 kW" in part.stdout, part.output


def test_a_font_that_inflates_to_a_gigabyte_is_refused_before_the_work(tmp_path):
    font = b"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>"
    pdf = tmp_path / "font-bomb.pdf"
    pdf.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                PAGE % b"",
                font,
                raw_stream(text_ops(RAW_LINES)),
                b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontFile2 7 0 R >>",
                _flate(_zeros(GIB), b" /Length1 %d" % GIB),
            ]
        )
    )
    code, _, err, peak = _check_with_peak(pdf)
    assert code == 2 and "256 MiB" in err and "decompress" in err, err
    assert peak < 600, f"{peak:.0f} MB"


def test_a_picture_that_inflates_to_a_gigabyte_is_never_decoded(tmp_path):
    side = 32768  # 32768 x 32768 grey pixels: 1 GiB of zeros
    image = _flate(
        _zeros(side * side),
        b" /Type /XObject /Subtype /Image /Width %d /Height %d "
        b"/ColorSpace /DeviceGray /BitsPerComponent 8" % (side, side),
    )
    content = b"q 595 0 0 842 0 0 cm /Im1 Do Q\n" + text_ops([b"Node power: 10.2 kW max"])
    pdf = tmp_path / "image-bomb.pdf"
    pdf.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                PAGE % b"/XObject << /Im1 6 0 R >> ",
                HELVETICA,
                raw_stream(content),
                image,
            ]
        )
    )
    code, out, err, peak = _check_with_peak(pdf, "--format", "json")
    assert code in (0, 1) and "10.2 kW" in out, err
    assert peak < 600, f"{peak:.0f} MB"


@pytest.mark.parametrize("name", ["flate-bomb.pdf"])
def test_a_large_content_stream_under_the_limit_is_still_read(name):
    ran = run_cli("check", ROOT / "tests" / "hostile" / "files" / name, "--format", "json")
    assert ran.returncode in (0, 1) and "10.2 kW" in ran.stdout
