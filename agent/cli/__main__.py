"""`python -m quotebound.agent.cli`: the same as the `quotebound` command."""

import sys

from quotebound.agent.cli.main import main

sys.exit(main())
