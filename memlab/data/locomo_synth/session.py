"""Lay planned beats (a statement plus the other speaker's reaction) into sessions of alternating turns."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from memlab.data.locomo_synth.chatter import CLOSINGS, FILLERS, GREETING_REPLIES, GREETINGS


@dataclass
class Beat:
    """A statement by ``speaker`` (0 or 1) followed by the other speaker's ``reaction``.

    With ``follow`` = (question, answer), the other speaker asks and ``speaker`` answers between the
    statement and the reaction (the date then sits in the answer turn, ``follow_id``). ``dia_id`` is set
    when the beat is placed; a beat that does not fit its session stays ``None``.
    """

    session: int
    speaker: int
    text: str
    reaction: str
    tag: str
    data: dict[str, Any] = field(default_factory=dict)
    follow: tuple[str, str] | None = None
    dia_id: str | None = None
    follow_id: str | None = None

    @property
    def mention_id(self) -> str | None:
        """The turn holding the time phrase (the answer turn of a follow-up, else the statement)."""
        return self.follow_id or self.dia_id

    @property
    def evidence(self) -> list[str]:
        """Turns a reader needs: the statement, and the follow-up answer if any."""
        return [i for i in (self.dia_id, self.follow_id) if i is not None]


def lay_out(
    session: int, beats: list[Beat], names: tuple[str, str], n_turns: int, rng: random.Random
) -> list[dict[str, str]]:
    """Turns of one session: greeting and reply, the beats in order, small talk, then a closing turn.

    Beats whose speaker is not next get one small-talk turn first; beats that would not fit in
    ``n_turns`` are skipped. Returns exactly ``n_turns`` LoCoMo turn dicts.
    """
    starter = rng.randrange(2)
    turns: list[tuple[int, str]] = []

    def speaker_now() -> int:
        return (starter + len(turns)) % 2

    def say(text: str) -> None:
        who = speaker_now()
        turns.append((who, text.format(other=names[1 - who])))

    say(rng.choice(GREETINGS))
    say(rng.choice(GREETING_REPLIES))
    for beat in beats:
        need = (4 if beat.follow else 2) + (0 if speaker_now() == beat.speaker else 1)
        if len(turns) + need > n_turns:
            continue
        if speaker_now() != beat.speaker:
            say(rng.choice(FILLERS))
        beat.dia_id = f"D{session}:{len(turns) + 1}"
        say(beat.text)
        if beat.follow:
            say(beat.follow[0])
            beat.follow_id = f"D{session}:{len(turns) + 1}"
            say(beat.follow[1])
        say(beat.reaction)
    while len(turns) < n_turns - 1:
        say(rng.choice(FILLERS))
    if len(turns) < n_turns:
        say(rng.choice(CLOSINGS))
    return [
        {"speaker": names[who], "dia_id": f"D{session}:{i + 1}", "text": text}
        for i, (who, text) in enumerate(turns[:n_turns])
    ]
