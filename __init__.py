"""quotebound: question answering over your own documents that cites verbatim or abstains."""

from .agent.contracts import SCHEMA_VERSION

__version__ = "0.1.0"
__all__ = ["SCHEMA_VERSION", "__version__"]
