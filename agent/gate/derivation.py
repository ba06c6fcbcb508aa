"""Calc facts: the gate recomputes a derived number itself and checks that its operands were quoted.

Shared by the calc rule (which blocks a wrong result or an unquoted operand) and the span-alignment rule (which
lets a draft say a number the gate recomputed from quoted operands).

An operand is quoted when a verified quote of the fact (or its table's headings) holds its figure, as a number or
as a percentage ("4.00 - 1.90" over a row reading "4.00% | 1.90%": percentage points). A few operands are not
figures of the documents but part of the arithmetic's shape, and need no quote, only where that shape holds:

- a unit conversion (`CONVERSION_CONSTANTS`: 12 months, 100 percent, 7 days, 1000 ...) as a factor or divisor
  ("325 * 12", "(a - b) / b * 100"), never added or subtracted ("325 + 12" invents a figure);
- the count of an average: the divisor of a sum of n terms, when it is n ("(166 + 178) / 2", "(a + b + c) / 3");
- the 1 of a growth factor, beside a rate or a ratio ("325 * (1 + 5%)", "(a / b - 1) * 100").

A quote may spell a count as a cardinal numeral ("on four days in January and two days in February"): that
quotes the figure for an operand (`_CARDINALS`), as a cardinal word alone, never a part of a compound
("twenty-four", "two hundred"), and never "one", which is also a pronoun ("the one that ...").

A fact's value may state the result with a scale word ("$3,944 million", "€4.4bn", "592 thousand"). It equals the
result when its figure does and the operands' quotes (or their table's headings: "(in millions)", "€m") state that
scale, so the figure is in the operands' own unit; or when the figure, converted from its scale to a unit the quotes
state (or to none), is the result, maybe rounded ("$3.9 billion" for 3944 in millions, or for 3,944,000,000). A
scale the operands' quotes do not state ("$3,944 billion" over a table in millions) is another amount: a mismatch.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from quotebound.agent.core.contracts import Fact
from quotebound.agent.core.errors import ModelError
from quotebound.agent.gate.layout import column_unit_cells, row_label_dates
from quotebound.agent.gate.tokens import Key, TokenPool, operand_key, rounds_to, value_token
from quotebound.agent.gate.verification import Verification
from quotebound.agent.gate.vocabulary import NUMBER_WORDS
from quotebound.tools.calc import numbers_in, recompute

# Unit conversions a calc may use as a factor or divisor without quoting them (percent, months in a year, weeks,
# days, hours, minutes, thousands).
CONVERSION_CONSTANTS: frozenset[Decimal] = frozenset(Decimal(n) for n in (7, 12, 24, 52, 60, 100, 365, 1000))

# A calc literal as `tools/calc.py` reads it (currency sign dropped, thousands separators, a percent sign that
# touches the figure); which `%` is a percent sign and which the modulo operator is decided as calc decides it.
_LITERAL = re.compile(
    r"[$€£¥₹]?(?P<num>[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?P<pct>%?)"
)
_FACTORS = CONVERSION_CONSTANTS | {Decimal(1)}
_OPERAND_START = re.compile(r"\s*[0-9._($€£¥₹A-Za-z]")
# Cardinal numerals, a closed grammatical class: the number words that name a count, less "one" (also a pronoun)
# and the words that are not a count alone ("hundred" needs its multiplier; "dozen", "twice", "double").
_CARDINALS = {w: n for w, n in NUMBER_WORDS.items() if w not in {"one", "hundred", "dozen", "twice", "double"}}
_CARDINAL_RE = re.compile(
    rf"(?<![\w-])(?P<word>{'|'.join(_CARDINALS)})(?![\w-])(?!\s+(?:hundred|thousand|million|billion|trillion)\b)",
    re.I,
)
_UNITS = frozenset(range(0, 13, 3))  # the powers of ten a scale word gives (none, thousand ... trillion)


def _number(text: str) -> Decimal | None:
    key = operand_key(text.strip().lstrip("$€£¥₹"))
    return key[1] if key is not None and isinstance(key[1], Decimal) else None


def fact_pool(fact: Fact, checks: Sequence[Verification]) -> TokenPool:
    """The keys of a fact's own verified quotes, each read under its table's headings when it is a table row."""
    pool = TokenPool.empty()
    for support, check in zip(fact.support, checks, strict=True):
        if check.ok:
            pool.add_quote(support.quote)
            # a count spelled out: a key no answer token has, read only by `_quoted`
            pool.keys |= {
                ("spelled", Decimal(_CARDINALS[m["word"].lower()])) for m in _CARDINAL_RE.finditer(support.quote)
            }
            if check.headings:
                pool.add_quote(check.headings)
                pool.add_quote(column_unit_cells(support.quote, check.headings))  # "2.9" under a "%" column
                pool.add_quote(row_label_dates(support.quote, check.headings))  # "At 1 January" under "2019"
    return pool


def _exact(text: str) -> Decimal | None:
    """A calc's value as the tool returns it, every digit kept (the token reader stops at the context's 28 digits,
    and the tool gives up to 34); any other spelling as a figure is read (`_number`)."""
    try:
        return Decimal(text.strip().replace(",", ""))
    except InvalidOperation:
        return _number(text)


def _literals(expr: str) -> tuple[str, list[str]]:
    """(`expr` with each operand literal replaced by a name `_0`, `_1` ..., those literals as written)."""
    out: list[str] = []
    literals: list[str] = []
    at = 0
    for m in _LITERAL.finditer(expr):
        if m.start() > 0 and (expr[m.start() - 1].isalnum() or expr[m.start() - 1] == "_"):
            continue  # inside a name: calc rejects those, and `recompute` already said this one parses
        text, end = m["num"], m.end()
        if m["pct"] and _OPERAND_START.match(expr, end):
            end -= 1  # a `%` followed by an operand is calc's modulo operator, not a percent sign
        elif m["pct"]:
            text += "%"
        out.append(expr[at : m.start()] + f"_{len(literals)}")
        literals.append(text)
        at = end
    out.append(expr[at:])
    return "".join(out), literals


def _terms(node: ast.expr) -> list[ast.expr]:
    """The terms of a sum or difference, flattened ("a + b - c" has three), or the node alone."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return _terms(node.left) + _terms(node.right)
    return [node]


def _name_index(node: ast.expr) -> int | None:
    return int(node.id[1:]) if isinstance(node, ast.Name) and node.id.startswith("_") else None


@lru_cache(maxsize=1024)
def structural_operands(expr: str) -> frozenset[int]:
    """The indexes (in `numbers_in` order) of the literals of `expr` that are part of the arithmetic's shape (see
    the module docstring), not figures that need a quote. Empty when `expr` does not parse."""
    source, literals = _literals(expr)
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return frozenset()
    values = [operand_key(text) for text in literals]
    found: set[int] = set()
    skipped: set[int] = set()  # round's second argument: not an operand (numbers_in leaves it out)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) == 2:
            index = _name_index(node.args[1])
            if index is not None:
                skipped.add(index)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div):
            for side in (node.left, node.right):
                index = _name_index(side)
                key = values[index] if index is not None else None
                if index is not None and key is not None and key[0] == "num" and key[1] in _FACTORS:
                    found.add(index)  # a conversion as a factor or divisor
            divisor = _name_index(node.right)
            terms = _terms(node.left)
            if isinstance(node.op, ast.Div) and divisor is not None and len(terms) >= 2:
                found.update([divisor] if values[divisor] == ("num", Decimal(len(terms))) else [])  # an average
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            terms = _terms(node)
            rates = [t for t in terms if _is_rate(t, literals)]
            for term in terms:
                index = _name_index(term)
                if index is not None and values[index] == ("num", Decimal(1)) and rates:
                    found.add(index)
    order = [i for i in range(len(literals)) if i not in skipped]  # numbers_in's order: round's places left out
    if [literals[i] for i in order] != calc_operands(expr):
        return frozenset()  # read differently from calc: nothing is taken for shape
    return frozenset(order.index(i) for i in found if i in order)


def _is_rate(node: ast.expr, literals: list[str]) -> bool:
    """A percentage literal or a quotient: what a growth factor's 1 stands beside."""
    index = _name_index(node)
    if index is not None:
        return literals[index].endswith("%")
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)


def _quoted(key: Key, pool: TokenPool) -> bool:
    """An operand's figure is in the pool as written, as a percentage ("4.00" from "4.00%") or spelled ("four")."""
    return key in pool.keys or (key[0] == "num" and (("pct", key[1]) in pool.keys or ("spelled", key[1]) in pool.keys))


def calc_operands(expr: str) -> list[str]:
    """The numbers written in a calc expression (none when the expression does not parse)."""
    try:
        return numbers_in(expr)
    except ModelError:
        return []


def unquoted_operands(fact: Fact, pool: TokenPool) -> list[str]:
    """The operands of a calc fact found in none of `pool`'s quotes, unit conversions aside."""
    assert fact.calc is not None
    structural = structural_operands(fact.calc.expr)
    missing: list[str] = []
    for i, operand in enumerate(calc_operands(fact.calc.expr)):
        key = operand_key(operand)
        if key is None or not (i in structural or _quoted(key, pool)):
            missing.append(operand)
    return missing


def _scaled_value_equals(text: str, value: Decimal, pool: TokenPool | None) -> bool:
    """`text` states `value` with a scale word, in the operands' unit or in full (see the module docstring): the
    operands' unit is a scale `pool` (the fact's verified quotes) states. Without `pool` any unit is taken, as the
    callers that only ask whether a result is as claimed want: the calc rule, which has the quotes, blocks a scale
    they do not state."""
    token = value_token(text)
    number = token.number if token is not None and token.scale else None
    if token is None or number is None or token.text.strip() != text.strip().rstrip("."):
        return False  # no scale word, or more than one figure: read as a plain figure
    stated = {s for kind, s in pool.keys if kind == "scale" and isinstance(s, int)} if pool is not None else _UNITS
    return any(rounds_to(number.scaleb(token.scale - unit), value) for unit in stated | {0})


def calc_problem(fact: Fact, pool: TokenPool | None = None) -> str | None:
    """Why a calc fact's claimed result is wrong, or None when the gate's own recomputation agrees. `pool` (the
    fact's verified quotes) decides whether a value's scale word ("$3,944 million") is its operands' scale; without
    it, only the value's figure is compared. Only the calc rule (`rules/calc.py`) and `derived_value` judge scale,
    and they pass the pool; the callers without one (`answer_calc`, `calc_words`, `rules/claim_support`) only ask
    whether the result was recomputed as claimed, for a calc the calc rule already holds to its quotes' scale (its
    CALC_MISMATCH blocks the draft whatever they decide)."""
    assert fact.calc is not None
    got = recompute(fact.calc.expr)
    if got is None:
        return f"the expression {fact.calc.expr!r} does not evaluate (see the calc tool's grammar)"
    value = Decimal(got)
    number = _exact(fact.calc.value)
    if number is None or number != value:  # calc.value is what the tool returned: every digit
        return f"calc.value {fact.calc.value!r} does not equal {got}, the result of {fact.calc.expr!r}"
    if fact.value is not None:
        number = _number(fact.value)
        scaled = _scaled_value_equals(fact.value, value, pool)
        if not scaled and (number is None or not rounds_to(number, value)):  # stated as an answer would, maybe rounded
            return f"value {fact.value!r} does not equal {got}, the result of {fact.calc.expr!r}, nor round it"
    return None


def derived_value(fact: Fact, pool: TokenPool) -> Decimal | None:
    """A calc fact's value, when the gate recomputed it and every operand is quoted in the fact's support."""
    if fact.calc is None or calc_problem(fact, pool) is not None or unquoted_operands(fact, pool):
        return None
    got = recompute(fact.calc.expr)
    return Decimal(got) if got is not None else None
