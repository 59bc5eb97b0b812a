"""The package's version, apart from everything else, so that any module may name it without importing the package
facade above it (and pyproject.toml reads it from here)."""

__version__ = "0.1.0"
