"""Names: a name in a claim clause that its quotes use must be in the quote sentence the clause pairs with (or that
gives one of its figures), and a name the clause makes its subject must be the subject of its quote clause, not
another name there nor a name the quote clause gives another role."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from quotebound.agent.gate.meaning.context import antecedents
from quotebound.agent.gate.meaning.lexicon import ARTICLES, CALENDAR, NAME_PARTICLES, is_content, is_weighed, stem
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence, words_of
from quotebound.agent.gate.meaning.pairing import candidates, prose_of


def _name_runs(
    s: Sentence, c: Clause, known: frozenset[str] = frozenset(), quoted: bool = False
) -> list[tuple[frozenset[str], bool]]:
    """(the words of each name of clause `c`, whether it is the clause's subject: the names before its first other
    content word, the first one and those joined to it by "and" / "or"). A name is a run of capitalized words; a
    single letter ("M.") does not break it, nor does a capitalized function or state word inside it ("China Open",
    "United States": one name, though only its content words are kept), nor a lower-case name particle between two
    of its capitalized words ("Bank of Beijing China Open", `NAME_PARTICLES`): a name is one subject, whatever
    common words it is made of. The sentence's first word, capitalized as every first word is, is a
    name when it is one of the `known` names (the claim writes it as one: "... having succeeded Deloitte"). In a
    quote (`quoted`), the names that open the words after a colon are a subject too ("221B Baker Street: The Master
    Detective Game is a board game"); in a claim, what follows a colon is often the answer's list ("Indemnity
    plans: Greece and Turkey"), not a subject."""
    runs: list[tuple[frozenset[str], bool]] = []
    run: set[str] = set()
    leading = True
    joined = True  # the next name is joined to the subject (at the start, or after "and" / "or")
    first = next((i for i, t in enumerate(s.toks) if t.low[:1].isalpha()), -1)
    depth = 0  # brackets open: a colon inside them ("(Serbian Cyrillic: ...)") opens no clause
    complement = False  # the run follows a verb of change or phase ("born Terence McDonald"): its object
    for i, t in enumerate(s.toks[c.start : c.end], start=c.start):
        depth += (t.low in "([") - (t.low in ")]") if len(t.low) == 1 else 0
        opens = quoted and depth <= 0 and t.low == ":"
        opening = i == first and stem(t.low) in known
        name = (t.cap or opening) and t.value < 0 and is_content(t.low) and t.low not in CALENDAR
        if name:
            complement = complement or (not run and i > c.start and _verb(s.toks[i - 1].low))
            run.add(stem(t.low))
            continue
        if run and not opens and (len(t.low) == 1 or t.low == "." or _inside_name(s, i, c.end)):
            continue
        if run:
            runs.append((frozenset(run), leading and joined and not complement))
            run = set()
            joined = complement = False
        if t.low in ("and", "or"):
            joined = joined or bool(runs)
        elif t.low not in ARTICLES:
            joined = joined and not runs
        if t.value < 0 and is_content(t.low):
            leading = False
        if opens:  # a colon opens a clause with its own subject
            leading = joined = True
    if run:
        runs.append((frozenset(run), leading and joined and not complement))
    return runs


def _inside_name(s: Sentence, i: int, end: int) -> bool:
    """Token `i`, after a name's capitalized word, goes on with that name: a capitalized word that is no content word
    ("Open", "States"), or name particles followed by a capitalized content word ("of Beijing", "of the West")."""
    t = s.toks[i]
    if t.value >= 0 or not t.low[:1].isalpha() or t.low in CALENDAR:
        return False
    if t.cap:
        return not is_content(t.low)
    j = i
    while j < end and s.toks[j].value < 0 and s.toks[j].low in NAME_PARTICLES and not s.toks[j].cap:
        j += 1
    return j > i and j < end and s.toks[j].cap and s.toks[j].value < 0 and is_content(s.toks[j].low)


def _verb(low: str) -> bool:
    """A verb of change or phase, which `is_content` leaves out ("born", "founded", "rose")."""
    return is_weighed(low) and not is_content(low)


def name_problems(claim: Sentence, quotes: Sequence[QuoteSentence], exempt: frozenset[str]) -> list[Problem]:
    """A name in a claim clause that its quotes use must be in the quote sentence the clause pairs with (or that
    gives one of its figures, or that such a sentence goes on from: "It was built in 1921"). A name the clause puts
    first (its subject) must be in the quote clause it pairs with when that clause puts a name first too ("The
    Bylaws control" against "If this Declaration and the Bylaws conflict, this Declaration controls"; "Each Owner
    maintains the roofs" against "The Association maintains ... the roofs")."""
    problems: list[Problem] = []
    prose = prose_of(tuple(quotes))
    if not prose:
        return problems
    for c in claim.clauses:
        runs = _name_runs(claim, c)
        if not runs:
            continue  # no name to hold: the clause's quote sentences need not be found
        pairs = [(qs, qc) for qs, qc in candidates(c, quotes) if not qs.sentence.row]
        held = [qs for qs, _ in pairs]
        held += [qs for v in claim.values if c.start <= v.pos < c.end for qs in prose if v.key in qs.sentence.keys]
        homes = {qs.sentence.text for home in held for qs in (home, *antecedents(home, quotes))}
        if not homes:
            continue
        for phrase, lead in runs:
            # a document's or the question's name ("The Declaration states: ...") is a subject only where the quote
            # sentence names it too
            if (
                lead
                and pairs
                and all(
                    _role_taken(phrase, qs.sentence, qc, claim, c)
                    and (not phrase <= exempt or phrase & qs.sentence.stems)
                    for qs, qc in pairs
                )
            ):
                problems.append(
                    Problem(
                        "meaning",
                        f"makes {' '.join(sorted(phrase))!r} the subject where its quote makes another",
                        pairs[0][0].sentence.text,
                    )
                )
                break
            used = [qs for qs in prose if phrase & qs.sentence.stems]
            if (
                used
                and not phrase <= exempt
                and not any(qs.sentence.text in homes for qs in used)
                and not any(qs.sentence.text in _same_subject(runs, held, prose) for qs in used)
            ):
                problems.append(
                    Problem(
                        "unbound",
                        f"names {' '.join(sorted(phrase))!r}, which the quote it rests on does not",
                        used[0].sentence.text,
                    )
                )
                break
    return problems


@lru_cache(maxsize=4096)
def _names(s: Sentence) -> frozenset[str]:
    return frozenset(n for qc in s.clauses for n in qc.names)


def _same_subject(
    runs: list[tuple[frozenset[str], bool]], held: list[QuoteSentence], prose: Sequence[QuoteSentence]
) -> set[str]:
    """The quoted sentences of a home's paragraph that give a name of the clause as the home does ("Charles J. Dunn
    (July 14, 1872 – ...) was an American jurist" and "Born in Houghton County, Michigan, Dunn lived ..."): they
    speak of one subject, and a clause naming it may join what they say of it."""
    named = frozenset().union(*(phrase for phrase, _ in runs))
    out: set[str] = set()
    for h in held:
        shared = named & _names(h.sentence)
        if shared and h.block >= 0:
            out |= {qs.sentence.text for qs in prose if qs.same_block(h) and shared & _names(qs.sentence)}
    return out


def _role_taken(phrase: frozenset[str], s: Sentence, qc: Clause, claim: Sentence, c: Clause) -> bool:
    """The quote clause puts another name first: the claim's is not in it, or stands in it as another role than
    its subject ("Deloitte was appointed ..., succeeding PwC" against "PwC is the auditor, having succeeded
    Deloitte"), unless the claim clause names the quote's subject as its agent ("PwC was succeeded by Deloitte").
    A name that shares words with the quote's subject is that subject unless the quote clause writes it on its own
    as another of its names: "the President" is not "the Vice President" where the quote names both."""
    runs = _name_runs(s, qc, c.names, quoted=True)
    subjects = [p for p, lead in runs if lead]
    others = {p for p, lead in runs if not lead}
    # A name sharing a word with the subject is that name ("Dunn" for "Charles J. Dunn"), unless the subject is it
    # with a modifier before it and the quote clause itself writes it apart ("the Vice President acts in place of
    # the President"); a title's bracketed words after a name ("War Music (Slim the Mobster album)") modify nothing
    apart = phrase in others
    shared = any(p & phrase and not (apart and phrase < p and _modified(p, phrase, s, qc)) for p in subjects)
    if not subjects or shared or _agent(claim, c, subjects):
        return False  # the claim's passive names the quote's subject as its agent: "X was won by Serena Williams"
    if not phrase & words_of(qc):
        return True
    return not _coordinate_subject(phrase, s, qc)


def _modified(subject: frozenset[str], phrase: frozenset[str], s: Sentence, qc: Clause) -> bool:
    """The quote clause writes `subject` opening with a word `phrase` lacks: a modifier before the shorter name
    ("Vice President" for "President"), which makes it another name."""
    first = next((stem(t.low) for t in s.toks[qc.start : qc.end] if t.value < 0 and stem(t.low) in subject), None)
    return first is not None and first not in phrase


def _coordinate_subject(phrase: frozenset[str], s: Sentence, qc: Clause) -> bool:
    """`phrase` opens a coordinate clause inside the quote clause ("Intel provided ... and IMFT repaid ..."): one of
    its words follows "and", "or", "but" or a comma (articles between)."""
    previous = ""
    for t in s.toks[qc.start : qc.end]:
        if t.low in ARTICLES:
            continue
        if t.value < 0 and stem(t.low) in phrase and previous in ("and", "or", "but", ",", ";"):
            return True
        previous = t.low
    return False


def _agent(claim: Sentence, c: Clause, subjects: list[frozenset[str]]) -> bool:
    """The claim clause names one of `subjects` after "by" (a passive clause's agent)."""
    toks = claim.toks[c.start : c.end]
    for i, t in enumerate(toks[:-1]):
        if t.low == "by":
            after = next((u for u in toks[i + 1 :] if u.low not in ARTICLES), None)
            if after is not None and after.cap and any(stem(after.low) in p for p in subjects):
                return True
    return False
