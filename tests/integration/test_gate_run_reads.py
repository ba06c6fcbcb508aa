"""What `gather.py` keeps for a run: each cited source version is read from the store once per `ToolContext`, a repair
re-validating the draft reads only which versions are current, and nothing kept can outlive what it depends on (a
new version, another policy version, another run)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

from quotebound.agent.core.contracts import AnswerLevels, AnswerObject, Draft, Fact, Source, Support
from quotebound.agent.gate import gather
from quotebound.agent.gate.gather import gather_inputs
from quotebound.agent.gate.verification import Status
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import IngestReport
from quotebound.tools.policy import Caller, DefaultPolicy

RULES = "# Community rules\n\nOwners may keep two household pets.\nThe late charge is $25.\n"


def _draft(quote: str = "The late charge is $25.", locator: str = "p.1 L4-L4") -> Draft:
    fact = Fact(text="The late charge is $25.", support=[Support(source_id="rules.md", locator=locator, quote=quote)])
    return Draft(
        levels=AnswerLevels(level1=fact.text, level2=fact.text, level3=f"doc://rules.md#{locator}"),
        evidence=AnswerObject(mode="answer", answer=fact.text, facts=[fact]),
    )


class CountingContext(ToolContext):
    """A context that counts the whole-source reads (the expensive store read the run keeps)."""

    reads: int = 0

    def visible_iter_lines(self, source: Source) -> Iterator[tuple[int, int, str]]:
        self.reads += 1
        return super().visible_iter_lines(source)


Ingest = Callable[..., IngestReport]
MakeFiles = Callable[[dict[str, str]], object]


def _context(corpus: Corpus) -> CountingContext:
    return CountingContext(corpus, caller=Caller(role="public"))


def test_a_repair_in_the_same_run_reads_the_source_once(make_files: MakeFiles, ingest: Ingest, corpus: Corpus) -> None:
    assert ingest(make_files({"rules.md": RULES})).ok
    ctx = _context(corpus)
    first = gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    again = gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    assert first.support_checks == again.support_checks
    assert first.cited_lines == again.cited_lines and len(first.cited_lines) == 4
    assert first.support_checks[0][0].status is Status.OK
    assert ctx.reads == 1
    other_run = _context(corpus)  # a new run reads afresh
    gather_inputs(_draft(), bundles=[], ctx=other_run, question="What is the late charge?")
    assert other_run.reads == 1


def test_a_new_version_is_read_afresh(make_files: MakeFiles, ingest: Ingest, corpus: Corpus) -> None:
    root = make_files({"rules.md": RULES})
    assert ingest(root).ok
    ctx = _context(corpus)
    before = gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    assert before.support_checks[0][0].ok
    assert ingest(make_files({"rules.md": RULES.replace("$25", "$40")})).ok  # re-ingested mid-run
    after = gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    assert after.support_checks[0][0].status is Status.NOT_VERBATIM  # the current version says $40
    assert any("$40" in line.text for line in after.cited_lines)
    assert ctx.reads == 2


def test_a_fake_locator_stays_fake_on_a_second_read(make_files: MakeFiles, ingest: Ingest, corpus: Corpus) -> None:
    assert ingest(make_files({"rules.md": RULES})).ok
    ctx = _context(corpus)
    for _ in range(2):
        inputs = gather_inputs(_draft(locator="p.1 L40-L40"), bundles=[], ctx=ctx, question="What is it?")
        assert inputs.support_checks[0][0].status is Status.FAKE_LOCATOR
        inputs = gather_inputs(_draft(locator="p.9 L1-L1"), bundles=[], ctx=ctx, question="What is it?")
        assert inputs.support_checks[0][0].status is Status.FAKE_LOCATOR


def test_what_a_run_kept_leaves_with_its_context(make_files: MakeFiles, ingest: Ingest, corpus: Corpus) -> None:
    assert ingest(make_files({"rules.md": RULES})).ok
    ctx = _context(corpus)
    gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    key = id(ctx)
    assert key in gather._RUNS
    del ctx
    gc.collect()
    assert key not in gather._RUNS


def test_another_policy_reads_afresh(make_files: MakeFiles, ingest: Ingest, corpus: Corpus) -> None:
    # what a caller sees depends on the policy's obligations: lines read under one policy never serve another
    assert ingest(make_files({"rules.md": RULES})).ok
    ctx = _context(corpus)
    gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    ctx.policy = DefaultPolicy()
    gather_inputs(_draft(), bundles=[], ctx=ctx, question="What is the late charge?")
    assert ctx.reads == 2
