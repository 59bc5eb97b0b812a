"""sheetaudit: audit and normalise vendor spec sheets for AI accelerator clusters.

    >>> import sheetaudit
    >>> result = sheetaudit.audit("vendor.pdf")          # doctest: +SKIP
    >>> sheetaudit.to_contract(result)["findings"]         # doctest: +SKIP

Heavy libraries (pypdfium2, pint, pandas) load on first use, so `sheetaudit --version` stays fast.
"""
__version__ = "0.1.0"

__all__ = ["__version__", "audit", "to_contract"]


def audit(path, **options):
    """Audit one sheet (PDF, text, Markdown or HTML) and return an Audit (see sheetaudit.model)."""
    from .pipeline import audit as _audit
    return _audit(path, **options)


def to_contract(result) -> dict:
    """The audit as the JSON contract (schema sheetaudit/1; its JSON Schema is sheetaudit/schema/sheetaudit-1.json)."""
    from .output.json_out import to_contract as _to
    return _to(result)
