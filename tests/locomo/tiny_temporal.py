"""A hand-written LoCoMo-format conversation for the temporal answerer (no LoCoMo text is copied).

Session 1 is Monday 5 June 2023, session 2 Monday 14 August 2023, session 3 Friday 1 September 2023.
``EXPECTED`` holds each question, the dialogue ids of the context in retrieval order, and the exact answer.
"""

from __future__ import annotations

import copy
from typing import Any


def _turn(speaker: str, dia_id: str, text: str) -> dict[str, str]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text}


def _qa(question: str, answer: str, evidence: str, category: int = 2) -> dict[str, Any]:
    return {"question": question, "answer": answer, "evidence": [evidence], "category": category}


CONVERSATION: dict[str, Any] = {
    "sample_id": "conv-t",
    "conversation": {
        "speaker_a": "Dana",
        "speaker_b": "Eli",
        "session_1_date_time": "2:00 pm on 5 June, 2023",
        "session_1": [
            _turn(
                "Dana", "D1:1", "Hi Eli! Guess what happened last Friday? I finished my first triathlon in the rain."
            ),
            _turn("Eli", "D1:2", "Congrats! I adopted a kitten two weeks ago and we bought a new sofa last week."),
            _turn("Dana", "D1:3", "I'm going to a jazz concert next month with my sister."),
            _turn("Eli", "D1:4", "Nice. I've played the cello for 3 years now."),
            _turn("Eli", "D1:5", "We went hiking on a mountain trail yesterday."),
            _turn("Eli", "D1:6", "Oh, and I fixed the shed roof yesterday."),
        ],
        "session_2_date_time": "11:00 am on 14 August, 2023",
        "session_2": [
            _turn("Dana", "D2:1", "I went to a jazz concert yesterday, it was loud."),
            _turn("Eli", "D2:2", "I'm taking a break this weekend to paint the fence."),
            _turn("Eli", "D2:3", "Last week I hiked a mountain trail with my cousin."),
            _turn("Dana", "D2:4", "My bakery opened its doors! People queued around the block."),
            _turn("Eli", "D2:5", "I repainted the shed yesterday."),
        ],
        "session_3_date_time": "9:00 am on 1 September, 2023",
        "session_3": [
            _turn("Dana", "D3:1", "I finally visited the glass museum downtown."),
            _turn("Eli", "D3:2", "Oh nice, when was that?"),
            _turn("Dana", "D3:3", "It was two weeks ago."),
            _turn("Dana", "D3:4", "Three days ago I repaired my old bicycle and rode it to the lake."),
            _turn("Dana", "D3:5", "I painted the harbour the week before 20 August; it hangs in the hall."),
        ],
    },
    "qa": [
        _qa("When did Dana finish her first triathlon?", "The Friday before 5 June 2023", "D1:1", 2),
        _qa("When did Eli adopt a kitten?", "Two weeks before 5 June 2023", "D1:2", 2),
        _qa("When did Eli buy a new sofa?", "The week before 5 June 2023", "D1:2", 2),
        _qa("When is Dana going to the jazz concert?", "July 2023", "D1:3", 2),
        _qa("When did Eli start playing the cello?", "2020", "D1:4", 2),
        _qa("When did Eli go hiking in June?", "4 June 2023", "D1:5", 2),
        _qa("When did Eli hike a mountain trail with his cousin?", "The week before 14 August 2023", "D2:3", 2),
        _qa("When is Eli painting the fence?", "The weekend of 14 August 2023", "D2:2", 2),
        _qa("When did Dana's bakery open?", "14 August 2023", "D2:4", 2),
        _qa("When did Dana visit the glass museum?", "Two weeks before 1 September 2023", "D3:1", 2),
        _qa("When did Dana paint the harbour?", "The week before 20 August 2023", "D3:5", 2),
        _qa("What does Eli play?", "the cello", "D1:4", 4),
    ],
}

#: question -> (context dialogue ids in retrieval order, exact answer of the default AnswerConfig)
EXPECTED: dict[str, tuple[tuple[str, ...], str]] = {
    # the time expression sits in the sentence before the event's
    "When did Dana finish her first triathlon?": (("D1:1", "D1:3"), "The Friday before 5 June 2023"),
    # two expressions in one sentence: the one nearest the event's words
    "When did Eli adopt a kitten?": (("D1:2",), "Two weeks before 5 June 2023"),
    "When did Eli buy a new sofa?": (("D1:2",), "The week before 5 June 2023"),
    # a plan: the mention after the fact ("yesterday", ranked first) is not the planned date
    "When is Dana going to the jazz concert?": (("D2:1", "D1:3"), "July 2023"),
    # a present-perfect length dates the start
    "When did Eli start playing the cello?": (("D1:4",), "2020"),
    # the question names June: the August hike ranked first contradicts it
    "When did Eli go hiking in June?": (("D2:3", "D1:5"), "4 June 2023"),
    "When did Eli hike a mountain trail with his cousin?": (("D2:3", "D1:5"), "The week before 14 August 2023"),
    # LoCoMo's way of writing "this weekend"
    "When is Eli painting the fence?": (("D2:2",), "The weekend of 14 August 2023"),
    # the turn that tells the event beats a better-ranked turn that merely holds time expressions
    "When did Dana's bakery open?": (("D1:2", "D2:4"), "14 August 2023"),
    # the event's turn has no time; the same speaker's short reply two turns on dates it
    "When did Dana visit the glass museum?": (("D3:1", "D3:3"), "Two weeks before 1 September 2023"),
    # an expression with its own date is written against that date, not the session's
    "When did Dana paint the harbour?": (("D3:5",), "The week before 20 August 2023"),
}


def conversation(sample_id: str = "conv-t") -> dict[str, Any]:
    """A deep copy of :data:`CONVERSATION` under another id."""
    data = copy.deepcopy(CONVERSATION)
    data["sample_id"] = sample_id
    return data
