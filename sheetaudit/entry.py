"""The console script and `python -m sheetaudit`: Ctrl-C while the command line's libraries load (click, the
engine's modules; a fifth of a second) ends the run quietly with exit 130, as Ctrl-C does later, not with a
KeyboardInterrupt traceback. Kept apart from cli.py so that nothing heavy is imported before the guard."""
import sys


def main():
    try:
        from .cli import main as cli
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    cli()
