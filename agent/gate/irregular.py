"""English irregular verbs: the past and participle forms a suffix-stripping stem cannot reach ("paid" is "pay",
"sent" is "send", "held" is "hold", "born" is "bear").

The table is the general category, written once, not a list of words seen in drafts. It leaves out the forms that
are as often another word, whose base would lend a claim a word the quote does not mean: "left" (a side), "found"
(to establish), "saw" and "bit" (nouns), "rose" (a flower), "ground", "wound", "bound", "felt", "lay", "fell",
"spoke", "stole", "lit", "bore", "dove", "won" (a currency), and forms of two letters or fewer."""

from __future__ import annotations

from typing import Final

# base: its irregular past and participle forms (only the forms no stem rule reaches)
_FORMS: Final = """
arise arose arisen | awake awoke awoken | bear born borne | beat beaten | become became | begin began begun | bend
bent | bite bitten | bleed bled | blow blew blown | break broke broken | breed bred | bring brought | build built |
burn burnt | buy bought | catch caught | choose chose chosen | cling clung | come came | creep crept | deal dealt |
dig dug | draw drew drawn | dream dreamt | drink drank drunk | drive drove driven | dwell dwelt | eat ate eaten |
feed fed | fight fought | flee fled | fly flew flown | forbid forbade forbidden | forget forgot forgotten | forgive
forgave forgiven | foresee foresaw foreseen | freeze froze frozen | get got gotten | give gave given | grow grew
grown | hang hung | hear heard | hide hid hidden | hold held | keep kept | kneel knelt | know knew known | lead led
| lend lent | lose lost | make made | mean meant | meet met | mistake mistook mistaken | overcome overcame | overpay
overpaid | oversee oversaw overseen | overtake overtook overtaken | pay paid | prepay prepaid | rebuild rebuilt |
repay repaid | resell resold | rewrite rewrote rewritten | ride rode ridden | ring rang rung | rise risen | run ran
| say said | see seen | seek sought | sell sold | send sent | shake shook shaken | shine shone | shoot shot | show
shown | shrink shrank shrunk | sing sang sung | sink sank sunk | sit sat | sleep slept | slide slid | speak spoken |
speed sped | spend spent | spin spun | spring sprang sprung | stand stood | steal stolen | stick stuck | sting stung
| strike struck stricken | strive strove striven | swear swore sworn | sweep swept | swim swam swum | swing swung |
take took taken | teach taught | tear torn | tell told | think thought | throw threw thrown | undergo underwent
undergone | understand understood | undertake undertook undertaken | uphold upheld | wake woke woken | wear wore
worn | weave wove woven | weep wept | withdraw withdrew withdrawn | withhold withheld | write wrote written |
"""

IRREGULAR: Final[dict[str, str]] = {form: entry.split()[0] for entry in _FORMS.split("|") for form in entry.split()[1:]}


def irregular_base(word: str) -> str | None:
    """The base verb of an irregular past or participle form ("paid": "pay"), else None. `word` is folded."""
    return IRREGULAR.get(word)
