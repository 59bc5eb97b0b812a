"""sheetaudit: audit and normalise vendor spec sheets for AI accelerator clusters.

    >>> import sheetaudit
    >>> a = sheetaudit.audit("vendor.pdf")                 # doctest: +SKIP  (the JSON contract, a dict)
    >>> sheetaudit.figures([a])                            # doctest: +SKIP  (a pandas DataFrame)

The README's "Use from Python" shows each function (sheetaudit.api). Heavy libraries (pypdfium2, pint, pandas)
load on first use, so `sheetaudit --version` stays fast. `dir(sheetaudit)` lists the API, not the modules.
"""

from .version import __version__

_API = ("audit", "audit_folder", "figures", "findings", "comparison", "compliance", "scale")
__all__ = ["__version__", *_API, "to_contract", "UsageError"]


def __getattr__(name):
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "UsageError":
        from .errors import UsageError

        return UsageError
    raise AttributeError(f"module 'sheetaudit' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)


def to_contract(result) -> dict:
    """The audit as the JSON contract (schema sheetaudit/1; its JSON Schema is sheetaudit/schema/sheetaudit-1.json);
    a contract is returned as it is."""
    if isinstance(result, dict):
        return result
    from .output.json_out import to_contract as _to

    return _to(result)
