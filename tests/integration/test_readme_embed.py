"""The README's "Embed in your chat app" example, run exactly as written against the example store.

The example opens `.quotebound` in the working directory; the test builds that store (examples/hoa, hashing
embedder) in a temp folder and runs the code block from there in a fresh interpreter (as a user pasting it into
a file would, warnings as errors), so the block stays copy-pasteable."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Embed in your chat app"


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(SECTION) == 1, "the README lost its embedding section"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1, "the embedding section should hold exactly one python example"
    return blocks[0]


def test_readme_embed_example_runs_as_written(ingested: Path, tmp_path: Path) -> None:
    code = readme_example()
    assert 'Agent.open(".quotebound")' in code  # the path the test provides below
    shutil.copytree(ingested, tmp_path / ".quotebound")
    (tmp_path / "chat.py").write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUOTEBOUND_")}
    done = subprocess.run(
        [sys.executable, "-W", "error", "chat.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "quotebound asks: Which unit do you mean?" in out
    assert "  [preflight] " in out and "  [retrieve] {'hits': " in out and "  [verified_answer] " in out
    assert "  ... draft {'attempt': 1}" in out
    assert "Square feet: 1,180" in out
    assert re.search(r"^answer audit://quotebound/\S+$", out, re.MULTILINE), out
    # both turns left their receipts in the store the example opened
    from quotebound.agent.audit import open_ledger
    from quotebound.agent.core.settings import Settings

    with open_ledger(Settings(store=tmp_path / ".quotebound"), create=False) as ledger:
        report = ledger.verify()
        assert report.ok and report.count >= 2  # the clarify pause and the answer
