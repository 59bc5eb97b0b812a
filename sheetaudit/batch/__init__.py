"""Batch audit of a folder: walk it, audit every sheet in a pool of worker processes (one file's crash, hang or
memory blow-up is that file's error row), cache results by content and rules hash, compare the sheets on one basis
and write index.html, one report per sheet, figures.csv, findings.csv, comparison.csv, audit.json, audit.sqlite and audit.xlsx.

    >>> from sheetaudit.batch import run_batch, BatchOptions          # doctest: +SKIP
    >>> result = run_batch("vendors/", "out/", BatchOptions(jobs=2))  # doctest: +SKIP
    >>> result.exit_code("error")                                     # doctest: +SKIP

Modules, one job each: walk (find the files), files (atomic writes, the writable-OUTDIR check), worker (the child process), pool (the parent's side of
the pool), interrupts (Ctrl-C and SIGTERM as a request to stop), compare (comparison rows and cross-sheet findings),
tables (CSV, XLSX and SQLite), index (index.html), outputs (write them all), progress and summary (stderr), run (the whole
batch), command (click). Importing this package is light: the engine and jinja2 load when a batch runs (pandas only for the API's DataFrames).
"""

from __future__ import annotations

__all__ = ["BatchOptions", "BatchResult", "run_batch"]


def __getattr__(name):
    if name in __all__:
        from . import run

        return getattr(run, name)
    raise AttributeError(name)
