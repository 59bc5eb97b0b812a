"""The contracts of a batch's sheets kept off the parent's heap: each written once, as the text audit.json holds
for it, to an unnamed temporary file, and read back one at a time when an output needs it.

Why: a contract of a long datasheet is a few hundred kilobytes of JSON and several times that as Python objects;
a parent holding every one of them grew with the batch (1.6 GB for 850 files). It now holds an offset per sheet,
and what the outputs that look across sheets need (`viewed`, batch.compare.compared), which is small.
"""

from __future__ import annotations

import json
import tempfile

# A figure's fields that only its own sheet's report shows: the cross-sheet outputs (comparison, the index's
# charts and compliance matrix, the training what-if) never read them.
_REPORT_ONLY = ("technology_match", "certainty_reason", "bbox", "heading", "reading", "column")


def item_text(contract: dict) -> str:
    """One contract as an item of audit.json's list (json.dumps with indent=1, indented one more level)."""
    return json.dumps(contract, ensure_ascii=False, indent=1).replace("\n", "\n ")


class Spool:
    def __init__(self, folder=None):
        self._file = tempfile.TemporaryFile(dir=folder)  # unnamed: nothing is left behind, even after kill -9
        self._where: dict = {}

    def put(self, key, contract: dict) -> None:
        self.put_text(key, item_text(contract))

    def put_text(self, key, text: str) -> None:
        raw = text.encode("utf-8", "surrogatepass")
        self._file.seek(0, 2)
        self._where[key] = (self._file.tell(), len(raw))
        self._file.write(raw)

    def text(self, key) -> str:
        at, size = self._where[key]
        self._file.seek(at)
        return self._file.read(size).decode("utf-8", "surrogatepass")

    def get(self, key) -> dict:
        return json.loads(self.text(key))

    def __contains__(self, key) -> bool:
        return key in self._where

    def close(self) -> None:
        self._file.close()


def viewed(contract: dict, system: bool) -> dict:
    """What the index and the training what-if read of a contract: its figures only for a system (the what-if
    models systems alone), and no finding (the index counts them from the rows)."""
    out = {k: v for k, v in contract.items() if k not in ("findings", "passed", "figures")}
    if system:
        out["figures"] = [{k: v for k, v in f.items() if k not in _REPORT_ONLY} for f in contract.get("figures", [])]
    return out


def as_item(result: dict, files: dict) -> dict:
    """In the worker: an audited sheet's contract sent as its audit.json text, under the path the batch lists it
    at (FILES["path"]), its text made safe (sheetaudit.textsafe): encoded here, beside the other workers, rather
    than in the parent, which then passes the text on without building the contract again."""
    from ..textsafe import safe_data

    contract = result.get("contract")
    if result.get("status") == "ok" and isinstance(contract, dict) and files.get("path"):
        contract.setdefault("source", {})["path"] = files["path"]
        result["item"] = item_text(safe_data(contract))
        del result["contract"]
    return result
