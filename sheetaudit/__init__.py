"""sheetaudit: audit and normalise vendor spec sheets for AI accelerator clusters.

    >>> import sheetaudit
    >>> a = sheetaudit.audit("vendor.pdf")                 # doctest: +SKIP  (the JSON contract, a dict)
    >>> sheetaudit.figures([a])                            # doctest: +SKIP  (a pandas DataFrame)

The README's "Use from Python" shows each function (sheetaudit.api). Heavy libraries (pypdfium2, pint, pandas)
load on first use, so `sheetaudit --version` stays fast.
"""
__version__ = "0.1.0"

__all__ = ["__version__", "audit", "audit_folder", "figures", "findings", "scale", "to_contract"]


def __getattr__(name):
    if name in ("audit", "audit_folder", "figures", "findings", "scale"):
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'sheetaudit' has no attribute {name!r}")


def to_contract(result) -> dict:
    """The audit as the JSON contract (schema sheetaudit/1; its JSON Schema is sheetaudit/schema/sheetaudit-1.json);
    a contract is returned as it is."""
    if isinstance(result, dict):
        return result
    from .output.json_out import to_contract as _to
    return _to(result)
