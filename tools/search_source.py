"""`search_source(source_id, pattern, top_n)`: verbatim lines of one source that match, with their locators.

Lines are matched as the caller's policy lets them see them (obligations applied), so a masked e-mail address
cannot be found by searching for it, nor its existence confirmed."""

from __future__ import annotations

from quotebound.agent.core.contracts import Locator, SearchHit
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.tools.context import ToolContext
from quotebound.tools.patterns import compile_pattern


def search_source(
    ctx: ToolContext, source_id: str, pattern: str, *, top_n: int = 5, regex: bool = False
) -> list[SearchHit]:
    if not 1 <= top_n <= ctx.limits.max_top_n:
        raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, f"top_n must be between 1 and {ctx.limits.max_top_n}")
    source = ctx.readable_source(source_id)
    matcher = compile_pattern(
        pattern, regex=regex, max_chars=ctx.limits.max_pattern_chars, timeout_s=ctx.limits.regex_timeout_s
    )
    hits: list[SearchHit] = []
    for page, line_no, text in ctx.visible_iter_lines(source):
        if text and matcher.search(text) is not None:
            hits.append(SearchHit(locator=str(Locator(page=page, line_start=line_no, line_end=line_no)), snippet=text))
            if len(hits) >= top_n:
                break
    return hits
