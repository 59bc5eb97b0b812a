"""What decides a sheet's audit. Every way in (`sheetaudit check`, `sheetaudit audit`, the Python API) builds one
AuditOptions from what it was given and passes it down: to the pipeline, to the batch's workers, and to the
result cache, whose key is made of it here and nowhere else."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class AuditOptions:
    password: str | None = None  # an encrypted PDF's password
    max_pages: int | None = None  # read at most this many pages
    facility: dict | None = None  # a checked facility profile (pipeline.load_facility, check_facility)
    requirements: dict | None = None  # a checked requirements file (pipeline.load_requirements)
    ocr: bool = False  # read pages without a text layer by OCR (the ocr extra)

    def cache_key(self) -> dict:
        """The options part of a cached result's key: every option that changes the result, the password only as
        its hash. The limits (time, memory) are not in it: a result that hit one is never stored."""
        return {
            "max_pages": self.max_pages,
            "facility": self.facility,
            "requirements": self.requirements,
            "password": hashlib.sha256(self.password.encode()).hexdigest() if self.password else None,
            "ocr": bool(self.ocr),
        }
