"""The README's and docs/*.md's code blocks, executed, so what they show stays true.

How a page's fenced blocks are treated (one test per page; its blocks run in page order):

- ```python: executed in-process, every block of a page in one shared namespace, warnings as errors. A ```text
  block that follows it (with only blank lines between) is its expected stdout.
- ```console: `$ quotebound ...` lines run through the CLI (`quotebound.agent.cli.main.main`, in-process); the
  lines after a command, up to the next `$`, are its expected output (stdout, then stderr).
- ```sh / ```bash: every line is a `quotebound ...` command (no output shown).
- ```yaml: parsed; a golden set (`schema: quotebound.golden/v1`) is loaded with `load_golden_set`, a policy file
  (`version:` and `roles:`) with `FilePolicy.load`, an API keys file (`keys:`) with `load_api_keys`.
- Other fences (```text on its own, ```json, ...) are prose and not run.

Comparing output: each line shown must match a line of the real output, in order (lines may be left out between
them); `...` or `…` inside a shown line matches any text. A command must exit 0 unless its line ends with a
comment `# exit N` (or `# exits N`). Trailing `#` comments are otherwise ignored, and a line ending in `\\`
continues on the next one.

The marker: `<!-- docs: skip -->` (optionally followed by a reason, `<!-- docs: skip: starts a server -->`) on the
line before a block (blank lines allowed between) means "do not run this block": for `make`, installing, servers,
curl, anything not `quotebound`. An unmarked command that is not `quotebound` fails the test, so every block is
either run or explicitly skipped. The single exception: `source .venv/bin/activate` is accepted and does nothing
(the test already runs the venv's quotebound).

Where it runs: each page in a fresh temp dir holding `.quotebound` (a copy of examples/hoa ingested once per
session through the CLI, hashing embedder), `examples` and `evals` (links to the repository's), and `HOME` pointing
at a temp home whose `~/my-docs` is a copy of examples/hoa (the README's "your own folder"). The environment has
`QUOTEBOUND_EMBEDDER=hashing` (fast, deterministic) and no other `QUOTEBOUND_*` variable. In a command,
`$RUN_ID` and `$AUDIT_REF` stand for the run_id and audit_ref of the last envelope a command of the page printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from quotebound.agent.cli.main import main as cli_main
from quotebound.agent.core.settings import load_api_keys
from quotebound.evals.golden import load_golden_set
from quotebound.tools.policy_file import FilePolicy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "hoa"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP = re.compile(r"<!--\s*docs:\s*skip\b[^>]*-->\s*$")
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
FENCE_LINE = re.compile(r"^\s*(?:[-*]\s+)?```", re.MULTILINE)
EXIT = re.compile(r"#\s*exits?\s+(\d+)\s*$")
RUN_ID = re.compile(r'"run_id":\s*"([0-9a-f]{32})"|^run ([0-9a-f]{32})\b', re.MULTILINE)
AUDIT_REF = re.compile(r"audit://quotebound/[\w-]+")
WILDCARD = re.compile(r"\.\.\.|…")


@dataclass(frozen=True)
class Block:
    lang: str
    body: str
    line: int  # 1-based line of the opening fence
    skip: bool


def blocks(text: str) -> list[Block]:
    found: list[Block] = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(match.group(1).lower(), match.group(2), line, bool(SKIP.search(before))))
    return found


def line_matches(shown: str, real: str) -> bool:
    parts = [re.escape(part) for part in WILDCARD.split(shown.strip())]
    return re.fullmatch(".*".join(parts), real.strip()) is not None


def assert_output(shown: str, real: str, where: str) -> None:
    """Every shown line matches a real line, in order; the real output may hold more lines between them."""
    real_lines = real.splitlines()
    at = 0
    for wanted in [line for line in shown.splitlines() if line.strip()]:
        while at < len(real_lines) and not line_matches(wanted, real_lines[at]):
            at += 1
        assert at < len(real_lines), f"{where}: shown line not in the output (in order):\n  {wanted!r}\n---\n{real}"
        at += 1


@dataclass
class Page:
    """What a page's blocks share: the namespace of its python blocks and the ids its commands printed."""

    name: str
    namespace: dict[str, object]
    run_id: str | None = None
    audit_ref: str | None = None

    def remember(self, output: str) -> None:
        if runs := RUN_ID.findall(output):
            self.run_id = next(part for part in runs[-1] if part)
        if refs := AUDIT_REF.findall(output):
            self.audit_ref = refs[-1]

    def expand(self, word: str) -> str:
        for name, value in (("$RUN_ID", self.run_id), ("$AUDIT_REF", self.audit_ref)):
            if name in word:
                assert value is not None, f"{self.name}: {name} used before any command printed one"
                word = word.replace(name, value)
        return os.path.expanduser(word)


def commands(body: str, prompt: bool) -> Iterator[tuple[str, str]]:
    """(command, shown output) pairs; without a prompt every line is a command."""
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if prompt and not line.startswith("$ "):
            assert not line.strip(), f"output before any `$` command: {line!r}"
            continue
        command = line[2:] if prompt else line
        while command.rstrip().endswith("\\") and i < len(lines):
            command = command.rstrip()[:-1].rstrip() + " " + lines[i].strip()
            i += 1
        if not command.strip() or command.lstrip().startswith("#"):
            continue
        shown: list[str] = []
        while prompt and i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        yield command.strip(), "\n".join(shown)


def run_command(page: Page, command: str, shown: str, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    if command == "source .venv/bin/activate":
        return
    exit_match = EXIT.search(command)
    expected_exit = int(exit_match.group(1)) if exit_match else 0
    words = shlex.split(command, comments=True)
    assert words and words[0] == "quotebound", (
        f"{where}: `{command}` is not a quotebound command: mark the block `<!-- docs: skip -->`"
    )
    capsys.readouterr()
    try:
        code = cli_main([page.expand(word) for word in words[1:]])
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert code == expected_exit, f"{where}: `{command}` exited {code}, expected {expected_exit}\n{out}\n{err}"
    page.remember(out)
    assert_output(shown, out + err, f"{where}: `{command}`")  # a terminal shows both


def run_python(page: Page, code: str, where: str) -> str:
    stdout = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(stdout):
        warnings.simplefilter("error")
        exec(compile(code, where, "exec"), page.namespace)
    printed = stdout.getvalue()
    page.remember(printed)
    return printed


def check_yaml(body: str, where: str, tmp: Path) -> None:
    data = yaml.safe_load(body)
    path = tmp / "block.yaml"
    path.write_text(body, encoding="utf-8")
    if isinstance(data, dict) and data.get("schema") == "quotebound.golden/v1":
        assert load_golden_set(path).cases, where
    elif isinstance(data, dict) and "version" in data and "roles" in data:
        FilePolicy.load(path)
    elif isinstance(data, dict) and "keys" in data:
        assert load_api_keys(path), where


def run_page(path: Path, capsys: pytest.CaptureFixture[str], tmp: Path) -> None:
    page = Page(path.relative_to(ROOT).as_posix(), {"__name__": "__docs__"})
    found = blocks(path.read_text(encoding="utf-8"))
    for index, block in enumerate(found):
        where = f"{page.name}:{block.line}"
        if block.skip:
            continue
        if block.lang == "python":
            printed = run_python(page, block.body, where)
            following = found[index + 1] if index + 1 < len(found) else None
            if following is not None and following.lang == "text" and not following.skip:
                gap = "\n".join(path.read_text(encoding="utf-8").splitlines()[block.line : following.line - 1])
                if gap.split("```", 1)[-1].strip() == "":
                    assert_output(following.body, printed, f"{where} (its output block)")
        elif block.lang in ("console", "sh", "bash", "shell"):
            for command, shown in commands(block.body, prompt=block.lang == "console"):
                run_command(page, command, shown, where, capsys)
        elif block.lang == "yaml":
            check_yaml(block.body, where, tmp)


# --- fixtures ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def example_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/hoa ingested once, through the CLI, as the docs' `.quotebound`."""
    root = tmp_path_factory.mktemp("docs-store") / ".quotebound"
    assert cli_main(["ingest", str(EXAMPLES), "--store", str(root), "--embedder", "hashing"]) == 0
    return root


@pytest.fixture
def page_dir(example_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(example_store, work / ".quotebound")
    for name in ("examples", "evals"):
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    home = tmp_path / "home"
    shutil.copytree(EXAMPLES, home / "my-docs", ignore=shutil.ignore_patterns("policy.yaml"))
    for name in [key for key in os.environ if key.startswith("QUOTEBOUND_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    return work


# --- tests ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES, ids=[path.relative_to(ROOT).as_posix() for path in PAGES])
def test_page_blocks_run_as_shown(path: Path, page_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_page(path, capsys, page_dir.parent)


def test_every_page_is_linked_its_links_resolve_and_its_fences_are_read() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in PAGES[1:]:
        assert f"(docs/{page.name})" in readme, f"README.md does not link docs/{page.name}"
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        # Fences only at the start of a line: an indented one (in a list item) would never be run.
        assert len(FENCE_LINE.findall(text)) == 2 * len(blocks(text)), f"{page.name}: a fence the test cannot read"
        text = FENCE.sub("", text)
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name}: broken link {target}"


def test_the_readme_first_screen_runs_a_question_over_your_own_folder() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("\n## ", 2)[:2]
    runnable = [block for block in blocks("\n## ".join(first)) if not block.skip and block.lang == "console"]
    shown = "\n".join(block.body for block in runnable)
    assert "$ quotebound ingest ~/my-docs" in shown and "$ quotebound ask " in shown
    skipped = "\n".join(block.body for block in blocks(readme) if block.skip)
    assert "make demo" in skipped and "make test" in skipped  # the two set-up commands stay


def test_the_checker_itself_fails_on_wrong_output() -> None:
    assert line_matches("audit_ref: audit://quotebound/...", "audit_ref: audit://quotebound/ab12")
    assert not line_matches("status answer", "status abstain")
    assert_output("a\n...c", "a\nb\nxxc\n", "ok")
    with pytest.raises(AssertionError):
        assert_output("c\na", "a\nb\nc\n", "order matters")
    marked = blocks("<!-- docs: skip: a server -->\n\n```sh\nmake serve\n```\n```console\n$ quotebound x\n```\n")
    assert [(block.lang, block.skip) for block in marked] == [("sh", True), ("console", False)]
    assert list(commands("$ quotebound a \\\n  --b  # exit 1\nout\n$ quotebound c", prompt=True)) == [
        ("quotebound a --b  # exit 1", "out"),
        ("quotebound c", ""),
    ]
