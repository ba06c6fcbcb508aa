"""The package version, in the kernel so that every layer can stamp it without importing the package root."""

from typing import Final

__version__: Final = "0.1.0"
