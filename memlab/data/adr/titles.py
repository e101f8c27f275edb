"""A decision record's title without its record number and any superseded/deprecated mark on it."""

from __future__ import annotations

import re

from memlab.data.adr.refs import strip_leading_number

_MARK_WORD = r"(?:supersed|superced|deprecat|obsolet|replaced|withdrawn|rejected|retired|abandoned|outdated)"
_TITLE_BRACKET = re.compile(rf"(?i)[\[(]\s*{_MARK_WORD}")
_TITLE_PREFIX = re.compile(rf"(?i)^\s*\W*{_MARK_WORD}\w*\W*?(?:\s*[:\-–—|]\s*|\s+)")
_TITLE_SUFFIX = re.compile(rf"(?i)\s*[\-–—:|]\s*{_MARK_WORD}\w*(?:\s+by\b.*)?\s*$")
_STRIKE = re.compile(r"~~(.+?)~~")


def strip_title(title: str, number: int | None = None) -> str:
    """The title without its record number and any superseded/deprecated mark."""
    title = _STRIKE.sub(r"\1", title).strip().strip("#=").strip()
    for _ in range(3):
        match = _TITLE_BRACKET.search(title)
        if match:  # "[Superseded by [ADR-0019](...)]", "(deprecated)": drop the bracket with what it holds
            close = {"[": "]", "(": ")"}[title[match.start()]]
            depth, end = 0, len(title)
            for i in range(match.start(), len(title)):
                if title[i] in "[(":
                    depth += 1
                elif title[i] in "])":
                    depth -= 1
                    if depth == 0 and title[i] == close:
                        end = i + 1
                        break
            title = (title[: match.start()] + " " + title[end:]).strip()
        title = _TITLE_PREFIX.sub("", title)
        title = _TITLE_SUFFIX.sub("", title)
        title = strip_leading_number(title, number)
    return re.sub(r"\s+", " ", title).strip(" -–—:|")
