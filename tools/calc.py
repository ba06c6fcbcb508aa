"""`calc`: exact Decimal arithmetic for the (untrusted) model, by a small tokenizer and recursive-descent parser.

Nothing here calls `eval`, `exec` or `compile`: the grammar below is all the model can reach.

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/" | "%") unary)*
    unary   := ("+" | "-") unary | power
    power   := primary ("**" unary)?             (right-associative, binds tighter than unary minus: -2**2 == -4)
    primary := NUMBER | "(" expr ")" | "round" "(" expr "," expr ")"

Numbers
    `1200`, `1200.50`, `.5`, with thousands separators `1,200.50` (a comma followed by exactly three digits is
    a separator, so put a space after round's argument comma: `round(1,234.5, 0)`), and an optional leading
    currency sign `$1,200` (the sign is dropped; it must touch the digits). No exponent notation, no names.

Percent versus modulo
    A `%` written directly after a number (no space between) is a *percent sign* - `15%` is 0.15, so
    `2,400 * 15%` is 360 - unless an operand (a digit, `.`, `(`, a currency sign or a name) follows it,
    directly or after spaces. Every other `%` is the *modulo* operator: `10 % 3`, `10%3`, `(10)%3` are all 1.
    Modulo follows Decimal semantics: the result has the sign of the dividend (`-7 % 3` is -1).

Other rules
    `round(x, n)` rounds half away from zero (`round(2.5, 0)` is 3) to an integer `n` in [-20, 20].
    `**` needs an integer exponent with |exponent| <= 10. Results are bounded by the Decimal context
    (34 significant digits, magnitude below 10**34); overflow, division or modulo by zero, and every other
    problem raise `ModelError(CALC_ERROR, ...)` with a message naming the offending token and its position
    (positions count from 1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import (
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DecimalException,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)

from quotebound.agent.core.contracts import CalcResult
from quotebound.agent.core.errors import ErrorCode, ModelError

MAX_DEPTH = 32
MAX_EXPONENT = 10
MAX_ROUND_DIGITS = 20
PRECISION = 34

# Emax bounds every intermediate magnitude (< 10**34), so a result can never be an unbounded digit string.
_CONTEXT = Context(
    prec=PRECISION,
    rounding=ROUND_HALF_EVEN,
    Emax=PRECISION - 1,
    Emin=-PRECISION,
    traps=[InvalidOperation, DivisionByZero, Overflow],
)

CURRENCY_SIGNS = "$€£¥₹"
# Grouped form first: `1,200,000.5`; the lookahead stops `1,2345` from reading as a grouped number.
_NUMBER_RE = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("**", "+", "-", "*", "/", "%", "(", ")", ",")
_HELP = "calc accepts numbers, + - * / % **, parentheses and round(x, n)"


def _fail(message: str) -> ModelError:
    return ModelError(ErrorCode.CALC_ERROR, message)


# --- Tokens ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    kind: str  # "num", "name", one of _OPERATORS, or "end"
    text: str  # as written (for a number: without currency sign, with a percent sign)
    pos: int  # 1-based column of the token's first character
    value: Decimal | None = None


def _starts_operand(char: str) -> bool:
    return char.isdigit() or char in "._(" or char in CURRENCY_SIGNS or char.isalpha()


def _tokenize(expr: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(expr)
    while i < n:
        char = expr[i]
        if char.isspace():
            i += 1
            continue
        start = i
        if char in CURRENCY_SIGNS:
            i += 1
            if i >= n or not (expr[i].isdigit() or expr[i] == "."):
                raise _fail(f"currency sign {char!r} at position {start + 1} must be followed by a number")
        match = _NUMBER_RE.match(expr, i)
        if match is not None:
            text = match.group()
            digits = text.replace(",", "").replace(".", "").lstrip("0")
            if len(digits) > PRECISION:
                raise _fail(f"number {text!r} at position {i + 1} has more than {PRECISION} digits")
            value = Decimal(text.replace(",", ""))
            i = match.end()
            if i < n and expr[i] == "%":
                rest = expr[i + 1 :].lstrip()
                if not rest or not _starts_operand(rest[0]):
                    value = _CONTEXT.divide(value, Decimal(100))  # exact: only shifts the exponent
                    text += "%"
                    i += 1
            if i < n and (expr[i].isalpha() or expr[i] == "_"):
                raise _fail(f"unexpected {expr[i]!r} at position {i + 1} right after number {text!r}")
            tokens.append(_Token("num", text, start + 1, value))
            continue
        if char.isdigit():  # a non-ASCII digit: Decimal would accept it, the model's sources would not
            raise _fail(f"unsupported digit {char!r} at position {i + 1}; use 0-9")
        name = _NAME_RE.match(expr, i)
        if name is not None:
            # reject a name at once, so `__import__('os')` is reported as the name, not the string after it
            if name.group() != "round":
                raise _fail(f"unknown name {name.group()!r} at position {i + 1}; {_HELP}")
            tokens.append(_Token("name", name.group(), i + 1))
            i = name.end()
            continue
        if char in "'\"":
            raise _fail(f"strings are not allowed (quote at position {i + 1}); {_HELP}")
        if char == "." and i + 1 < n and (expr[i + 1].isalpha() or expr[i + 1] == "_"):
            raise _fail(f"attribute access is not allowed ('.' at position {i + 1}); {_HELP}")
        op = next((op for op in _OPERATORS if expr.startswith(op, i)), None)
        if op is None:
            raise _fail(f"unexpected character {char!r} at position {i + 1}; {_HELP}")
        tokens.append(_Token(op, op, i + 1))
        i += len(op)
    tokens.append(_Token("end", "end of expression", n + 1))
    return tokens


# --- Syntax tree -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Num:
    token: _Token


@dataclass(frozen=True)
class _Unary:
    op: str
    operand: _Node


@dataclass(frozen=True)
class _Chain:
    """A left-associative run `a op b op c ...`, kept flat so long sums never deepen the tree."""

    first: _Node
    rest: tuple[tuple[_Token, _Node], ...]


@dataclass(frozen=True)
class _Power:
    base: _Node
    op: _Token
    exponent: _Node


@dataclass(frozen=True)
class _Round:
    token: _Token
    value: _Node
    digits: _Node


_Node = _Num | _Unary | _Chain | _Power | _Round


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.i = 0

    @property
    def tok(self) -> _Token:
        return self.tokens[self.i]

    def _take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def _expect(self, kind: str, what: str) -> _Token:
        if self.tok.kind != kind:
            raise _fail(f"expected {what} at position {self.tok.pos}, found {self._describe(self.tok)}")
        return self._take()

    @staticmethod
    def _describe(token: _Token) -> str:
        return token.text if token.kind == "end" else repr(token.text)

    @staticmethod
    def _check_depth(depth: int, token: _Token) -> None:
        if depth > MAX_DEPTH:
            raise _fail(f"expression nested too deeply (more than {MAX_DEPTH} levels) at position {token.pos}")

    def parse(self) -> _Node:
        node = self.expr(0)
        if self.tok.kind != "end":
            raise _fail(f"unexpected {self._describe(self.tok)} at position {self.tok.pos}; {_HELP}")
        return node

    def expr(self, depth: int) -> _Node:
        self._check_depth(depth, self.tok)
        return self._chain(depth, ("+", "-"), self.term)

    def term(self, depth: int) -> _Node:
        return self._chain(depth, ("*", "/", "%"), self.unary)

    def _chain(self, depth: int, ops: tuple[str, ...], operand: Callable[[int], _Node]) -> _Node:
        first = operand(depth)
        rest: list[tuple[_Token, _Node]] = []
        while self.tok.kind in ops:
            op = self._take()
            rest.append((op, operand(depth)))
        return _Chain(first, tuple(rest)) if rest else first

    def unary(self, depth: int) -> _Node:
        self._check_depth(depth, self.tok)
        if self.tok.kind in ("+", "-"):
            op = self._take()
            return _Unary(op.kind, self.unary(depth + 1))
        return self.power(depth)

    def power(self, depth: int) -> _Node:
        base = self.primary(depth)
        if self.tok.kind == "**":
            op = self._take()
            return _Power(base, op, self.unary(depth + 1))
        return base

    def primary(self, depth: int) -> _Node:
        token = self.tok
        if token.kind == "num":
            return _Num(self._take())
        if token.kind == "(":
            self._take()
            node = self.expr(depth + 1)
            self._expect(")", f"')' to close the '(' at position {token.pos}")
            return node
        if token.kind == "name":  # the tokenizer only lets `round` through
            self._take()
            self._expect("(", "'(' after round")
            value = self.expr(depth + 1)
            if self.tok.kind == ")":
                raise _fail(
                    f"round at position {token.pos} needs two arguments, round(x, n); note that "
                    "'1,234' reads as one number, so put a space after the argument comma"
                )
            self._expect(",", "',' between round's arguments")
            digits = self.expr(depth + 1)
            self._expect(")", f"')' to close round( at position {token.pos}")
            return _Round(token, value, digits)
        if token.kind == "end":
            raise _fail(f"expression ends early at position {token.pos}: expected a number or '('")
        raise _fail(f"unexpected {token.text!r} at position {token.pos}: expected a number or '('")


# --- Evaluation ------------------------------------------------------------------------------------------


def _integer(value: Decimal, what: str, token: _Token, bound: int) -> int:
    if value != value.to_integral_value() or abs(value) > bound:
        shown = _format(value)
        shown = shown if len(shown) <= 20 else shown[:17] + "..."
        raise _fail(f"{what} at position {token.pos} is {shown}; it must be an integer from -{bound} to {bound}")
    return int(value)


def _binary(op: _Token, left: Decimal, right: Decimal) -> Decimal:
    ctx = _CONTEXT
    if op.kind in ("/", "%") and right == 0:
        kind = "division" if op.kind == "/" else "modulo"
        raise _fail(f"{kind} by zero at position {op.pos}")
    if op.kind == "+":
        return ctx.add(left, right)
    if op.kind == "-":
        return ctx.subtract(left, right)
    if op.kind == "*":
        return ctx.multiply(left, right)
    if op.kind == "/":
        return ctx.divide(left, right)
    return ctx.remainder(left, right)


def _eval(node: _Node) -> Decimal:
    ctx = _CONTEXT
    try:
        if isinstance(node, _Num):
            assert node.token.value is not None
            return ctx.plus(node.token.value)
        if isinstance(node, _Unary):
            operand = _eval(node.operand)
            return ctx.minus(operand) if node.op == "-" else ctx.plus(operand)
        if isinstance(node, _Chain):
            acc = _eval(node.first)
            for op, operand_node in node.rest:
                operand = _eval(operand_node)
                try:
                    acc = _binary(op, acc, operand)
                except Overflow:
                    raise _fail(f"result too large at '{op.text}' (position {op.pos})") from None
                except DecimalException as exc:
                    raise _fail(f"cannot compute '{op.text}' at position {op.pos}: {_why(exc)}") from None
            return acc
        if isinstance(node, _Power):
            base = _eval(node.base)
            exponent = _integer(_eval(node.exponent), "the exponent of '**'", node.op, MAX_EXPONENT)
            if base == 0 and exponent < 0:
                raise _fail(f"division by zero: 0 to a negative power at position {node.op.pos}")
            if base == 0 and exponent == 0:
                raise _fail(f"0 ** 0 is undefined (position {node.op.pos})")
            try:
                return ctx.power(base, exponent)
            except Overflow:
                raise _fail(f"result of '**' at position {node.op.pos} is too large") from None
            except DecimalException as exc:
                raise _fail(f"cannot compute '**' at position {node.op.pos}: {_why(exc)}") from None
        value = _eval(node.value)
        digits = _integer(_eval(node.digits), "round's second argument", node.token, MAX_ROUND_DIGITS)
        try:
            return value.quantize(Decimal(1).scaleb(-digits, ctx), rounding=ROUND_HALF_UP, context=ctx)
        except DecimalException:
            raise _fail(
                f"round at position {node.token.pos}: {digits} decimal places exceed {PRECISION} digits"
            ) from None
    except Overflow:
        raise _fail(f"result too large (more than {PRECISION} digits before the decimal point)") from None


def _why(exc: DecimalException) -> str:
    return "the result needs more than 34 digits" if isinstance(exc, InvalidOperation) else type(exc).__name__


def _format(value: Decimal) -> str:
    if value == 0:
        return "0"  # also turns "-0" and "0E-5" into "0"
    return format(value.normalize(_CONTEXT), "f")  # "f" never uses exponent notation


def _parse(expr: str, max_chars: int) -> _Node:
    if not isinstance(expr, str):
        raise _fail("the expression must be a string")
    if len(expr) > max_chars:
        raise _fail(f"expression is {len(expr)} characters long; the limit is {max_chars}")
    if not expr.strip():
        raise _fail("the expression is empty")
    return _Parser(_tokenize(expr)).parse()


# --- Public API ------------------------------------------------------------------------------------------


def calc(expr: str, *, max_chars: int = 300) -> CalcResult:
    """Evaluate `expr` exactly (see the module docstring for the grammar, including percent versus modulo).

    `calc("1,200 * 12")` -> "14400"; `calc("2,400 * 15%")` -> "360"; `calc("10 % 3")` -> "1";
    `calc("0.1 + 0.2")` -> "0.3". Raises `ModelError(CALC_ERROR)` with a readable message on bad input.
    """
    return CalcResult(value=_format(_eval(_parse(expr, max_chars))))


def recompute(expr: str, *, max_chars: int = 300) -> str | None:
    """The value `calc` gives for `expr`, or None when `expr` is not a valid calc expression."""
    try:
        return calc(expr, max_chars=max_chars).value
    except ModelError:
        return None


def numbers_in(expr: str, *, max_chars: int = 300) -> list[str]:
    """The numeric operands of `expr` as written, in order: `"$1,200.50 * 15%"` -> `["1,200.50", "15%"]`.

    A currency sign is dropped (so the literal is a substring of the quote it came from); a percent sign is
    kept. Round's second argument (the number of places) is not an operand of the value and is left out.
    Raises `ModelError(CALC_ERROR)` when `expr` does not parse.
    """
    found: list[str] = []
    stack: list[_Node] = [_parse(expr, max_chars)]
    while stack:  # depth-first, pushing children in reverse so literals come out left to right
        node = stack.pop()
        if isinstance(node, _Num):
            found.append(node.token.text)
        elif isinstance(node, _Unary):
            stack.append(node.operand)
        elif isinstance(node, _Chain):
            stack.extend(operand for _, operand in reversed(node.rest))
            stack.append(node.first)
        elif isinstance(node, _Power):
            stack.extend((node.exponent, node.base))
        else:
            stack.append(node.value)
    return found
