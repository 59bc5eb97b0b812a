"""One error type per way an input can fail; the CLI maps them to exit code 2 in one place."""


class SheetAuditError(Exception):
    """Base class: a problem the user can act on, printed as one line without a traceback."""

    exit_code = 2


class UnreadableInput(SheetAuditError):
    """The file cannot be read as a spec sheet (empty, not a PDF, damaged beyond repair)."""


class EncryptedInput(UnreadableInput):
    """The PDF is encrypted and no (or a wrong) password was given."""


class InputTooLarge(UnreadableInput):
    """The file is over a page or time limit the user set."""


class RulesError(SheetAuditError):
    """A file under rules/ is malformed; the message names the file and the key."""


class UsageError(SheetAuditError):
    """Options that do not fit together (for example an output folder inside the input folder)."""


class LimitExceeded(InputTooLarge):
    """A limit of this run (--timeout, --max-memory) was reached. It says nothing about the file, so it is never
    cached as the file's result, and its message names the limit and how to raise it (never "damaged")."""


class TimeLimitExceeded(LimitExceeded):
    """Reading or auditing one file took longer than the per-file time limit (--timeout)."""


class MemoryLimitExceeded(LimitExceeded):
    """Reading one file needed more memory than the per-file cap (--max-memory) allows."""


class OutputNotWritable(SheetAuditError):
    """The output folder (or a file in it) cannot be created or written: the user's environment, not our bug."""


def describe_path(path) -> str:
    """A file name fit for a one-line message: control characters (a newline in a name) are escaped."""
    s = str(path)
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in s):
        s = s.encode("unicode_escape", "backslashreplace").decode("ascii", "backslashreplace")
    return s
