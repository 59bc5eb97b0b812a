"""One failure path: whatever ends the audit of a file becomes the user's one line and an exit code here, for
`check`, `scale`, every file of a batch and the command line itself, so a failure reads the same wherever it
happens.

    try:
        audit(path)
    except Exception as exc:
        f = explain(exc, name=path)      # Failure(kind='unreadable', message='x.pdf: damaged PDF ...', exit_code=2)

Four kinds of failure are worded apart, because the user does something different about each:
- a limit of this run was hit (--timeout, --max-memory): the message names the limit to raise, never "damaged";
- the file is damaged or not a spec sheet: the message says what is wrong with it;
- an output cannot be written: the message names the path and the system's reason;
- our own bug: "internal error", with how to get the traceback to report it.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import errors

DEBUG_HINT = "rerun with --debug for the traceback and report it"


@dataclass(frozen=True)
class Failure:
    kind: str  # timeout | memory | limit | unreadable | output | usage | internal | interrupted
    message: str  # one line; names the file when one was given
    exit_code: int = 2
    cacheable: bool = False  # it says something about the file itself (damaged), not about this run's limits
    recycle: bool = False  # the process that hit it should audit no further file (memory, deep recursion)

    @property
    def line(self) -> str:
        """What the command line prints on stderr."""
        return "sheetaudit: interrupted" if self.kind == "interrupted" else f"sheetaudit: error: {self.message}"

    def as_row(self) -> dict:
        """A batch worker's error result for this file."""
        row = {"status": "error", "kind": self.kind, "error": self.message, "cacheable": self.cacheable}
        return {**row, "recycle": True} if self.recycle else row


class Reported(errors.SheetAuditError):
    """A failure already put into words by explain(); the command line prints it as it is."""

    def __init__(self, failure: Failure):
        super().__init__(failure.message)
        self.failure = failure
        self.exit_code = failure.exit_code


OUT_OF_MEMORY = "out of memory"


def out_of_memory(max_memory_mb: int | None) -> str:
    limit = f"over the {max_memory_mb} MB per-file limit" if max_memory_mb else "the machine's memory"
    return f"{OUT_OF_MEMORY} ({limit}); raise --max-memory to audit it"


def pdf_out_of_memory(max_memory_mb: int | None = None) -> str:
    """pdfium aborts when an allocation fails: under --max-memory that is the limit, not damage to the file."""
    at = (
        f"the PDF library aborted at the {max_memory_mb} MB memory limit"
        if max_memory_mb
        else "the memory limit was reached"
    )
    return f"{OUT_OF_MEMORY} while reading the PDF ({at}); raise --max-memory"


def process_ended(code: int | None, out_of_memory_exit: int) -> str:
    """How a worker process ended, in words, from its exit code (negative: the signal that ended it)."""
    import signal

    if code is None:
        return "did not exit"
    if code == out_of_memory_exit:
        return f"{OUT_OF_MEMORY}: over the --max-memory limit"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = f" (killed: {OUT_OF_MEMORY} or by the system)" if name == "SIGKILL" else ""
        if name == "SIGABRT":  # pdfium aborts when an allocation fails: the memory limit, not the file's damage
            hint = (
                f" (the PDF library aborted: {OUT_OF_MEMORY} while reading the PDF, most often the --max-memory "
                "limit; raise --max-memory)"
            )
        return f"{name}{hint}"
    return f"exit code {code}"


def report_not_written(exc: BaseException) -> str:
    """Why a sheet's report could not be rendered or written; the audit itself stands."""
    if isinstance(exc, MemoryError):
        return f"report not written: {OUT_OF_MEMORY}"
    if isinstance(exc, OSError):
        return f"report not written: {exc.strerror or exc}"
    return f"report not written: {type(exc).__name__}: {exc}"[:300]


def explain(
    exc: BaseException,
    name: str = "",
    during: str = "auditing",
    max_memory_mb: int | None = None,
    debug_hint: str = DEBUG_HINT,
) -> Failure:
    """The one line (and exit code) for EXC, raised while DURING the file NAME ('' when no file is involved)."""
    if isinstance(exc, Reported):
        return exc.failure
    at = f"{name}: " if name else ""
    if isinstance(exc, KeyboardInterrupt):
        return Failure("interrupted", "interrupted", 130)
    if isinstance(exc, errors.TimeLimitExceeded):
        return Failure("timeout", at + (str(exc) or "time limit exceeded; raise --timeout"))
    if isinstance(exc, (MemoryError, errors.MemoryLimitExceeded)):
        return Failure("memory", at + out_of_memory(max_memory_mb), recycle=True)
    if isinstance(exc, errors.LimitExceeded):
        return Failure("limit", at + str(exc))
    if isinstance(exc, errors.OutputNotWritable):
        return Failure("output", str(exc))  # it names the path it could not write
    if isinstance(exc, errors.UnreadableInput):
        return Failure("unreadable", at + (str(exc) or type(exc).__name__), cacheable=True)
    if isinstance(exc, errors.SheetAuditError):
        return Failure("usage", at + str(exc), exc.exit_code)
    if isinstance(exc, RecursionError):
        return Failure("internal", at + f"nested too deeply to audit (RecursionError); {debug_hint}", recycle=True)
    return Failure(
        "internal", at + f"internal error while {during} ({type(exc).__name__}: {str(exc)[:160]}); {debug_hint}"
    )


def not_writable(path: str, exc: OSError) -> errors.OutputNotWritable:
    """An output file that could not be written, as the error to raise."""
    return errors.OutputNotWritable(f"cannot write {errors.describe_path(path)}: {exc.strerror or exc}")
