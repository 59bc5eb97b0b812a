"""The part of pdfium's C API the reader calls, declared as pypdfium2_raw declares it, on the library it ships.

Why: pypdfium2_raw's bindings declare all of pdfium (4,500 lines of ctypes) and load ctypes.util, subprocess,
tempfile and their kin to find the library: about a tenth of a one-page sheet's check, every run, for the ~50
functions the reader uses. The library is the one pypdfium2_raw ships, found beside its package without running
it; where it is not there (a build against a system pdfium), pypdfium2_raw's own loader finds it. Each
declaration is the binding's (tests/test_pdfium_c.py holds them to pypdfium2_raw's, name for name), so a call
behaves as through pypdfium2_raw.
"""

from __future__ import annotations

import os
import sys
from ctypes import (
    CDLL,
    POINTER,
    Structure,
    c_char,
    c_double,
    c_float,
    c_int,
    c_size_t,
    c_uint,
    c_ulong,
    c_ushort,
    c_void_p,
)


def _library() -> CDLL:
    from importlib.util import find_spec

    spec = find_spec("pypdfium2_raw")  # finds the package without importing it
    if sys.platform.startswith(("win32", "cygwin", "msys")):
        name = "pdfium.dll"
    else:
        name = "libpdfium.dylib" if sys.platform.startswith(("darwin", "ios")) else "libpdfium.so"
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return CDLL(path)
    from pypdfium2_raw.bindings import _libs  # another build: its loader knows where the library is

    return _libs["pdfium"]


class _Opaque(Structure):
    """pdfium's handle types: pointers to structures Python never looks into."""


def _handle(name: str):
    return POINTER(type(name, (_Opaque,), {}))


FPDF_DOCUMENT = _handle("struct_fpdf_document_t__")
FPDF_PAGE = _handle("struct_fpdf_page_t__")
FPDF_TEXTPAGE = _handle("struct_fpdf_textpage_t__")
FPDF_PAGEOBJECT = _handle("struct_fpdf_pageobject_t__")
FPDF_FONT = _handle("struct_fpdf_font_t__")
FPDF_PATHSEGMENT = _handle("struct_fpdf_pathsegment_t")
FPDF_BITMAP = _handle("struct_fpdf_bitmap_t__")
FPDF_BOOL = c_int
FPDF_BYTESTRING = POINTER(c_char)
FPDF_DWORD = c_ulong


class FS_MATRIX(Structure):
    __slots__ = ("a", "b", "c", "d", "e", "f")
    _fields_ = [(k, c_float) for k in ("a", "b", "c", "d", "e", "f")]


class FS_RECTF(Structure):
    __slots__ = ("left", "top", "right", "bottom")
    _fields_ = [(k, c_float) for k in ("left", "top", "right", "bottom")]


# constants of fpdfview.h, fpdf_edit.h and fpdf_text.h
FPDF_ERR_PASSWORD = 4
FPDF_ERR_SECURITY = 5
FPDF_ANNOT = 0x01
FPDF_GRAYSCALE = 0x08
FPDF_PAGEOBJ_TEXT = 1
FPDF_PAGEOBJ_PATH = 2
FPDF_PAGEOBJ_IMAGE = 3
FPDF_PAGEOBJ_FORM = 5
FPDF_SEGMENT_MOVETO = 2
FPDFBitmap_Gray = 1
FPDFBitmap_BGRx = 3

_FLOATS = (POINTER(c_float),) * 4
# name: (result, argument types)
FUNCTIONS = {
    "FPDF_InitLibrary": (None, ()),
    "FPDF_GetLastError": (c_ulong, ()),
    "FPDF_LoadMemDocument64": (FPDF_DOCUMENT, (c_void_p, c_size_t, FPDF_BYTESTRING)),
    "FPDF_CloseDocument": (None, (FPDF_DOCUMENT,)),
    "FPDF_GetPageCount": (c_int, (FPDF_DOCUMENT,)),
    "FPDF_GetMetaText": (c_ulong, (FPDF_DOCUMENT, FPDF_BYTESTRING, c_void_p, c_ulong)),
    "FPDF_LoadPage": (FPDF_PAGE, (FPDF_DOCUMENT, c_int)),
    "FPDF_ClosePage": (None, (FPDF_PAGE,)),
    "FPDF_GetPageWidthF": (c_float, (FPDF_PAGE,)),
    "FPDF_GetPageHeightF": (c_float, (FPDF_PAGE,)),
    "FPDF_RenderPageBitmap": (None, (FPDF_BITMAP, FPDF_PAGE, c_int, c_int, c_int, c_int, c_int, c_int)),
    "FPDFPage_GetMediaBox": (FPDF_BOOL, (FPDF_PAGE, *_FLOATS)),
    "FPDFPage_GetCropBox": (FPDF_BOOL, (FPDF_PAGE, *_FLOATS)),
    "FPDFPage_CountObjects": (c_int, (FPDF_PAGE,)),
    "FPDFPage_GetObject": (FPDF_PAGEOBJECT, (FPDF_PAGE, c_int)),
    "FPDFPageObj_GetType": (c_int, (FPDF_PAGEOBJECT,)),
    "FPDFPageObj_GetMatrix": (FPDF_BOOL, (FPDF_PAGEOBJECT, POINTER(FS_MATRIX))),
    "FPDFFormObj_CountObjects": (c_int, (FPDF_PAGEOBJECT,)),
    "FPDFFormObj_GetObject": (FPDF_PAGEOBJECT, (FPDF_PAGEOBJECT, c_ulong)),
    "FPDFImageObj_GetImagePixelSize": (FPDF_BOOL, (FPDF_PAGEOBJECT, POINTER(c_uint), POINTER(c_uint))),
    "FPDFImageObj_GetImageFilterCount": (c_int, (FPDF_PAGEOBJECT,)),
    "FPDFImageObj_GetImageFilter": (c_ulong, (FPDF_PAGEOBJECT, c_int, c_void_p, c_ulong)),
    "FPDFTextObj_GetFont": (FPDF_FONT, (FPDF_PAGEOBJECT,)),
    "FPDFTextObj_GetFontSize": (FPDF_BOOL, (FPDF_PAGEOBJECT, POINTER(c_float))),
    "FPDFFont_GetBaseFontName": (c_size_t, (FPDF_FONT, POINTER(c_char), c_size_t)),
    "FPDFFont_GetDescent": (FPDF_BOOL, (FPDF_FONT, c_float, POINTER(c_float))),
    "FPDFPath_CountSegments": (c_int, (FPDF_PAGEOBJECT,)),
    "FPDFPath_GetPathSegment": (FPDF_PATHSEGMENT, (FPDF_PAGEOBJECT, c_int)),
    "FPDFPathSegment_GetPoint": (FPDF_BOOL, (FPDF_PATHSEGMENT, POINTER(c_float), POINTER(c_float))),
    "FPDFPathSegment_GetType": (c_int, (FPDF_PATHSEGMENT,)),
    "FPDFPathSegment_GetClose": (FPDF_BOOL, (FPDF_PATHSEGMENT,)),
    "FPDFText_LoadPage": (FPDF_TEXTPAGE, (FPDF_PAGE,)),
    "FPDFText_ClosePage": (None, (FPDF_TEXTPAGE,)),
    "FPDFText_CountChars": (c_int, (FPDF_TEXTPAGE,)),
    "FPDFText_GetText": (c_int, (FPDF_TEXTPAGE, c_int, c_int, POINTER(c_ushort))),
    "FPDFText_GetUnicode": (c_uint, (FPDF_TEXTPAGE, c_int)),
    "FPDFText_IsGenerated": (c_int, (FPDF_TEXTPAGE, c_int)),
    "FPDFText_IsHyphen": (c_int, (FPDF_TEXTPAGE, c_int)),
    "FPDFText_GetFontSize": (c_double, (FPDF_TEXTPAGE, c_int)),
    "FPDFText_GetLooseCharBox": (FPDF_BOOL, (FPDF_TEXTPAGE, c_int, POINTER(FS_RECTF))),
    "FPDFText_GetTextObject": (FPDF_PAGEOBJECT, (FPDF_TEXTPAGE, c_int)),
    "FPDFBitmap_CreateEx": (FPDF_BITMAP, (c_int, c_int, c_int, c_void_p, c_int)),
    "FPDFBitmap_FillRect": (FPDF_BOOL, (FPDF_BITMAP, c_int, c_int, c_int, c_int, FPDF_DWORD)),
    "FPDFBitmap_GetBuffer": (c_void_p, (FPDF_BITMAP,)),
    "FPDFBitmap_GetStride": (c_int, (FPDF_BITMAP,)),
    "FPDFBitmap_Destroy": (None, (FPDF_BITMAP,)),
}

_lib = _library()
for _name, (_result, _args) in FUNCTIONS.items():
    _fn = _lib[_name]
    _fn.argtypes, _fn.restype = _args, _result
    globals()[_name] = _fn
del _name, _result, _args, _fn
