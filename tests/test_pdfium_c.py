"""The reader's own declarations of pdfium's C API (sheetaudit.read.pdfium_c) are pypdfium2_raw's, function for
function and constant for constant, on the same library: a call through them behaves as through pypdfium2_raw,
and a pypdfium2 whose bindings change shows here, not as a crash."""

import ctypes
import subprocess
import sys

import pypdfium2_raw.bindings as B

from sheetaudit.read import pdfium_c as C
from conftest import ROOT


def _shape(t):
    """A ctypes type as something comparable across two declarations: pointers to pdfium's opaque handles by
    the structure's name, c_void_p and POINTER(None) alike."""
    if t is None:
        return None
    if t is ctypes.c_void_p:
        return "void*"
    if hasattr(t, "_type_") and isinstance(t._type_, type) and issubclass(t._type_, ctypes.Structure):
        return (
            "*",
            t._type_.__name__.replace("struct__", "").rstrip("_"),
            [
                f[:2] if isinstance(f[1], type) and not issubclass(f[1], ctypes.Structure) else f[0]
                for f in getattr(t._type_, "_fields_", [])
            ],
        )
    if hasattr(t, "_type_") and not isinstance(t._type_, str):
        return ("*", _shape(t._type_))
    return t


def test_every_function_is_declared_as_pypdfium2_raw_declares_it():
    for name, (result, args) in C.FUNCTIONS.items():
        theirs = getattr(B, name)
        assert _shape(result) == _shape(theirs.restype), name
        assert [_shape(a) for a in args] == [_shape(a) for a in theirs.argtypes], name


def test_every_constant_and_structure_is_pypdfium2_raw_s():
    constants = [name for name in dir(C) if name.startswith("FPDF") and isinstance(getattr(C, name), int)]
    assert len(constants) >= 10
    for name in constants:
        assert getattr(C, name) == getattr(B, name), name
    for name in ("FS_MATRIX", "FS_RECTF"):
        assert list(getattr(C, name)._fields_) == list(getattr(B, name)._fields_), name


def test_the_library_is_pypdfium2_raw_s_and_a_check_imports_none_of_its_bindings():
    assert C._lib._name == B._libs["pdfium"]._name
    code = (
        "import sys; from sheetaudit import pipeline; pipeline.run(sys.argv[1]); "
        "print(sorted(m for m in sys.modules if m.startswith(('pypdfium2', 'ctypes.util', 'subprocess'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "samples" / "pelican-pn5164-ethernet-switch.pdf")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert out.strip() == "[]"


def test_every_function_the_reader_calls_is_declared():
    """A call added to the reader (R.FPDF...) without its declaration here fails here, not on a user's PDF."""
    import re

    used = {
        name
        for path in (ROOT / "sheetaudit" / "read").glob("*.py")
        for name in re.findall(r"\bR\.([A-Za-z_0-9]+)", path.read_text(encoding="utf-8"))
    }
    assert used and not {name for name in used if not hasattr(C, name)}
