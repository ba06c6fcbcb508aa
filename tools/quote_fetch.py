"""`quote_fetch(source_id, locator | pattern)`: the verbatim text of one span, as the caller's policy lets them see
it (obligations applied; a pattern is matched against that visible text). Never summarizes."""

from __future__ import annotations

from quotebound.agent.core.contracts import Locator, QuoteResult
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.tools.context import ToolContext
from quotebound.tools.patterns import compile_pattern


def quote_fetch(
    ctx: ToolContext, source_id: str, *, locator: str | None = None, pattern: str | None = None, regex: bool = False
) -> QuoteResult:
    if (locator is None) == (pattern is None):
        raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, "give exactly one of `locator` or `pattern`")
    source = ctx.readable_source(source_id)
    if locator is not None:
        try:
            span = Locator.parse(locator)
        except ValueError as exc:
            raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, str(exc)) from exc
        if not ctx.corpus.locator_exists(source_id, str(span), source.version):
            pages = ctx.corpus.page_lines(source_id, source.version)
            raise ModelError(
                ErrorCode.UNKNOWN_LOCATOR,
                f"{span} is not in the locator index of {source_id!r} (pages: {len(pages)}, "
                f"lines per page: {pages[:20]})",
            )
        n_lines = span.line_end - span.line_start + 1
        if n_lines > ctx.limits.max_quote_lines:
            raise ModelError(
                ErrorCode.INVALID_TOOL_ARGUMENTS,
                f"{span} spans {n_lines} lines; quote at most {ctx.limits.max_quote_lines} at a time",
            )
        lines, _ = ctx.visible_lines(source, span)
        return QuoteResult(source_id=source_id, locator=str(span), quote="\n".join(lines))
    assert pattern is not None
    matcher = compile_pattern(
        pattern, regex=regex, max_chars=ctx.limits.max_pattern_chars, timeout_s=ctx.limits.regex_timeout_s
    )
    for page, line_no, text in ctx.visible_iter_lines(source):
        if text and matcher.search(text) is not None:
            span = Locator(page=page, line_start=line_no, line_end=line_no)
            return QuoteResult(source_id=source_id, locator=str(span), quote=text)
    raise ModelError(ErrorCode.NO_MATCH, f"no line of {source_id!r} matches {pattern!r}")
