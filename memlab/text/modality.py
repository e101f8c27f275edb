"""Whether a note looks ahead or back instead of recording something as it happens.

Project notes about one event come in three kinds: the note that records it ("Moved CI to GitHub Actions"),
notes written before it that plan, propose or ask ("We might try GitHub Actions next sprint", "Should we look
at GitHub Actions?"), and notes written after it that retell it ("For the record: CI moved to GitHub Actions
in March", "Reminder: we are still on GitHub Actions"). The date a note was recorded answers "when did it
happen" only for the first kind. The markers are general English modality and discourse words (future tense,
modal hedges, planning verbs, questions; recaps and reminders), not any dataset's phrasing.
"""

from __future__ import annotations

import re

_PROSPECTIVE = re.compile(
    r"\b(?:will|won't|shall|gonna|going\s+to|might|maybe|perhaps|"
    r"plan(?:s|ned|ning)?\s+(?:to|for|on)|plan\s+for|propos(?:e|es|ed|al|als)|consider(?:s|ed|ing)?|"
    r"thinking\s+(?:about|of)|would\s+(?:like|love)\s+to|should\s+we|could\s+we|want\s+to\s+try|"
    r"evaluat(?:e|es|ing)|not\s+(?:yet\s+)?decided|no\s+decision|nothing\s+(?:is\s+)?decided|"
    r"next\s+(?:week|sprint|month|quarter|year|release|iteration))\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"\?\s*(?:$|\n)")
_RETROSPECTIVE = re.compile(
    r"\b(?:for\s+the\s+record|reminder|recap|looking\s+back|back\s+in|a\s+while\s+(?:back|ago)|used\s+to|"
    r"still|remains?|as\s+before|for\s+new\s+(?:people|joiners|hires|colleagues)|tl;\s*dr|in\s+hindsight|"
    r"to\s+repeat|once\s+more)\b",
    re.IGNORECASE,
)


def prospective(text: str) -> bool:
    """The note plans, proposes, hedges or asks (future tense, modal hedge, planning verb, a question)."""
    return bool(_PROSPECTIVE.search(text) or _QUESTION.search(text))


def retrospective(text: str) -> bool:
    """The note retells or restates something earlier (a recap, a reminder, "still", "for the record")."""
    return bool(_RETROSPECTIVE.search(text))
