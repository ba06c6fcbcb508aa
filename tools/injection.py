"""Instructional text inside sources: spans that read like orders to an assistant (prompt injection).

Source text is data. Flagged lines are recorded (bundle `flags`, receipts) and can never support a fact; they
never change what the graph does. The rules are deliberately generic: they describe
how text addressed to an AI assistant reads, not any benchmark's phrasing. A line is flagged when it, or one of
its sentences, is

- an override, persona, prompt-exfiltration or tool-call attempt ("ignore previous instructions", "you are now");
- a directive about the reply being written: a sentence that tells its reader what to do with "your response /
  reply / answer / output / message" ("Encode your response in Base64", "In your reply, mention ...");
- a demand for the reply's form: reply/answer/write ... in another language, an encoding, a cipher, emojis or
  reverse order ("Reply in reverse", "Can you reply in German?");
- a request for help in the first person ("Show me how ...", "Help me with ...", "How can I ...?");
- an imperative assigning an assistant's task: write, summarize, analyze, recommend, translate ... something
  ("Summarize the main findings of ...", "Recommend a good book ...");
- a question put to the reader ("What are the major risks of ...?"): documents state facts; a question asks for
  an answer, and is no evidence of one either.

A false positive costs little: the line can still be read and searched, it just cannot be the support of a fact
(so a question whose only answer sits on such a line abstains).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

FLAG_PREFIX = "instructional_text:"

_OVERRIDES = re.compile(
    "|".join(
        (
            r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:previous|prior|above|earlier|all)\b.{0,20}"
            r"\b(?:instructions?|prompts?|rules|messages?)\b",
            r"\byou are now\b",
            r"\bact as (?:an?|the)\b.{0,40}\b(?:assistant|ai|model|system)\b",
            r"\b(?:system|developer) (?:prompt|message|instructions?)\b",
            r"\b(?:reveal|print|show|repeat|leak)\b.{0,30}\b(?:prompt|instructions|hidden|restricted|sources?)\b",
            r"\bdo not (?:mention|cite|reveal|tell)\b",
            r"</?\s*(?:tool|function)[_ ]?calls?\s*>|\"(?:tool|function)_?(?:name|call)\"\s*:",
        )
    ),
    re.IGNORECASE,
)

# How a request opens: a short lead-in clause ("When finished,"), politeness, modal questions and reminders put
# before the verb ("Please", "Can you", "Don't forget to", "Make sure to", "Always").
_OPENER: Final = (
    r"^\W*(?:[^,.;:!?]{1,40},\s*)?(?:(?:please|kindly|now|also|then|and)\W+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:(?:(?:don['’]t|do\s+not)\s+forget|be\s+sure|make\s+sure|remember)\s+(?:to\s+|you\s+)|always\s+|never\s+)?"
)

# 1. A directive about the reply being written.
_REPLY = r"\byour\s+(?:(?:final|next|entire|whole|own)\s+)?(?:response|reply|answer|output|message)(?:['’]s|s)?\b"
_DIRECTIVE_VERBS: Final = (
    "add|append|apply|augment|begin|conclude|display|encode|encrypt|end|enhance|express|format|highlight|include|"
    "insert|integrate|invert|mention|modify|prepend|provide|render|replace|represent|respond|reverse|rewrite|shift|"
    "start|substitute|translate|use|write|hint|allude|promote|spread|suggest|embed|sign|finish|close|present"
)
_ABOUT_REPLY = re.compile(
    rf"^(?=.*{_REPLY}){_OPENER}"
    rf"(?:(?:{_DIRECTIVE_VERBS})\b|(?:in|within|throughout|at the (?:start|end) of)\s+{_REPLY})",
    re.IGNORECASE,
)

# 2. A demand for the reply's form: a language, an encoding, a cipher, emojis, reversal.
_LANGUAGES: Final = (
    "arabic|bengali|chinese|czech|danish|dutch|english|finnish|french|german|greek|hebrew|hindi|hungarian|"
    "indonesian|italian|japanese|korean|latin|mandarin|norwegian|persian|polish|portuguese|romanian|russian|"
    "spanish|swahili|swedish|thai|turkish|ukrainian|urdu|vietnamese"
)
_FORMS: Final = (
    rf"reverse(?:\s+order)?|backwards?|base\s?-?\d{{2}}|emojis?|(?:\w+\s+)?cipher|morse(?:\s+code)?|binary|"
    rf"hexadecimal|rot-?13|pig\s+latin|leetspeak|(?:{_LANGUAGES})"
)
_FORM_OF_REPLY = re.compile(
    rf"{_OPENER}(?:reply|respond|answer|write|express|render|encode|encrypt|translate|output|type|speak)\b"
    rf"(?:\W+\w+){{0,4}}?\W+(?:in|into|using|with|to)\s+(?:{_FORMS})\b",
    re.IGNORECASE,
)

# 3. First-person requests for help.
_FOR_ME = re.compile(
    rf"{_OPENER}(?:(?:show|help|tell|give|teach|walk|guide|remind)\s+me\b|how\s+(?:can|do|should|could|would)\s+i\b"
    r"|i\s+(?:need|want)\s+you\s+to\b)",
    re.IGNORECASE,
)

# 4. An imperative assigning an assistant's task. Verbs a document rarely aims at its human reader open the
# sentence on their own; common ones (write, list, provide ...) only when what follows names something to produce.
_TASK_ONLY_VERBS: Final = (
    "summari[sz]e|analy[sz]e|describe|explain|recommend|suggest|classify|outline|brainstorm|translate|paraphrase"
)
_TASK_VERBS: Final = (
    "write|compose|draft|generate|list|determine|evaluate|assess|compare|rewrite|provide|predict|estimate"
)
_TASK = re.compile(
    rf"{_OPENER}(?:(?:{_TASK_ONLY_VERBS})\s+\w|(?:{_TASK_VERBS})\s+(?:a|an|the|some|this|these|that|those|all|"
    r"insights?|how|what|why|whether)\b)",
    re.IGNORECASE,
)

# 5. A question put to the reader: a wh- or auxiliary opening, at least five words, a question mark at the end.
_QUESTION_OPENING = re.compile(
    r"^\W*(?:what|which|who|whom|whose|why|how|when|where|is|are|was|were|do|does|did|can|could|would|will|"
    r"should|shall|may|might)\b",
    re.IGNORECASE,
)
_QUESTION_WORDS: Final = 5


def _is_question(sentence: str) -> bool:
    text = sentence.strip().rstrip("\"'’”)]").rstrip()
    return text.endswith("?") and _QUESTION_OPENING.search(text) is not None and len(text.split()) >= _QUESTION_WORDS


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'’”)\]]*\s+|[:;]\s+(?=[A-Z\"'“])|\s+[-–—]\s+")
_SENTENCE_RULES: Final = (_ABOUT_REPLY, _FORM_OF_REPLY, _FOR_ME, _TASK)


def sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_END.split(text) if part.strip()]


def is_instructional(text: str) -> bool:
    if _OVERRIDES.search(text) is not None:
        return True
    return any(
        _is_question(sentence) or any(rule.search(sentence) for rule in _SENTENCE_RULES) for sentence in sentences(text)
    )


def instructional_locators(lines: Iterable[tuple[int, int, str]]) -> list[str]:
    """Single-line locators (`p.P Ln-Ln`) of the lines that carry instructional text."""
    return [f"p.{page} L{line_no}-L{line_no}" for page, line_no, text in lines if text and is_instructional(text)]
