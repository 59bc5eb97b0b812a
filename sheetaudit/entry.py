"""The console script and `python -m sheetaudit`: Ctrl-C while the command line's libraries load (click, the
engine's modules; a fifth of a second) ends the run quietly with exit 130, as Ctrl-C does later, not with a
KeyboardInterrupt traceback. Kept apart from cli.py so that nothing heavy is imported before the guard."""

import sys


def main():
    import gc

    gc.disable()  # imports leave no garbage cycles: the collector's passes over them are wasted start-up
    try:
        from .cli import main as cli
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    # What start-up built (rules, patterns, templates) lives as long as the process: kept out of the cyclic
    # collector's full passes, which otherwise rescan it again and again while a long document's figures pile up
    # (a dense 80,000-character page: 4-5.7x the CPU of a 20,000-character one in-process, 2.9x with this).
    gc.freeze()
    gc.enable()
    cli()
