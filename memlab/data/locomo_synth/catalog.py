"""Events the generator draws from, each with sibling variants for distractors and paraphrased templates.

An event's question uses its base-form phrase (``When did Ana {q}?``); its mentions paraphrase it with a
time slot ``{w}`` (a sentence starting with ``{w}`` is capitalised), so the question and the evidence turn
share the object but rarely the verb. Sibling variants (``the science museum`` / ``the art museum``) make
distractor turns that differ from the asked event by one or two words.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """An activity a speaker can do on a date.

    Attributes:
        key: Stable identifier.
        q: Base-form verb phrase for questions, with ``{o}``.
        variants: Objects; each (speaker, variant) happens at most once per conversation.
        past: Mention templates with ``{o}`` and ``{w}`` (the time phrase).
        plan: Future mention templates with ``{o}`` and ``{w}``.
    """

    key: str
    q: str
    variants: tuple[str, ...]
    past: tuple[str, ...]
    plan: tuple[str, ...]


EVENTS: tuple[Event, ...] = (
    Event(
        "museum",
        "go to {o}",
        ("the science museum", "the art museum", "the natural history museum"),
        (
            "I checked out {o} {w} and lost track of time.",
            "{w} I spent the whole afternoon at {o}.",
            "We finally made it to {o} {w}; the kids loved it.",
        ),
        ("I'm visiting {o} {w}, can't wait.", "{w} we're taking a trip to {o}."),
    ),
    Event(
        "concert",
        "attend {o}",
        ("a jazz concert", "a rock concert", "a classical concert"),
        (
            "{w} I caught {o} downtown and danced all night.",
            "I went to {o} {w} with my cousin.",
            "Got tickets last minute and saw {o} {w}.",
        ),
        ("I've got tickets for {o} {w}.", "{w} I'm seeing {o} with friends."),
    ),
    Event(
        "pottery",
        "take {o}",
        ("a pottery class", "a painting class", "a photography class"),
        (
            "I signed up for {o} {w} and made something lopsided but mine.",
            "{w} I tried {o} for the first time.",
            "My first session of {o} was {w}.",
        ),
        ("I'm starting {o} {w}.", "{w} I begin {o} at the community center."),
    ),
    Event(
        "hike",
        "hike {o}",
        ("the coastal trail", "the mountain ridge trail", "the canyon loop"),
        (
            "{w} I hiked {o}; the views were unreal.",
            "I did {o} {w} and my legs still hurt.",
            "We tackled {o} {w} before sunrise.",
        ),
        ("{w} I'm hiking {o} with my brother.", "I plan to do {o} {w}."),
    ),
    Event(
        "race",
        "run {o}",
        ("a charity 5K", "a half marathon", "a trail race"),
        (
            "I ran {o} {w} and beat my old time!",
            "{w} I finished {o}, totally exhausted.",
            "Crossed the finish line of {o} {w}.",
        ),
        ("I registered to run {o} {w}.", "{w} I'm running {o} for a good cause."),
    ),
    Event(
        "support_group",
        "go to {o}",
        ("a grief support group", "a parenting support group", "a community support group"),
        (
            "{w} I went to {o} and it was so powerful.",
            "I joined {o} {w}; everyone was so welcoming.",
            "I sat in on {o} {w} and shared my story.",
        ),
        ("I'm going to {o} {w}.", "{w} I'll try {o} for the first time."),
    ),
    Event(
        "camping",
        "go camping at {o}",
        ("the lake", "the national park", "the beach"),
        (
            "We pitched a tent at {o} {w} and roasted marshmallows.",
            "{w} we went camping at {o}.",
            "The family and I camped out at {o} {w}.",
        ),
        ("We're going camping at {o} {w}.", "{w} we'll camp at {o} if the weather holds."),
    ),
    Event(
        "speech",
        "give a talk at {o}",
        ("a local school", "the library", "a career fair"),
        (
            "{w} I gave a talk at {o} about my journey.",
            "I spoke at {o} {w}; my hands were shaking.",
            "I was invited to speak at {o} {w}.",
        ),
        ("I'm giving a talk at {o} {w}.", "{w} I'll be speaking at {o}."),
    ),
    Event(
        "volunteer",
        "volunteer at {o}",
        ("the animal shelter", "the food bank", "the youth center"),
        (
            "{w} I volunteered at {o} all day.",
            "I helped out at {o} {w}; it felt good to give back.",
            "Spent a shift at {o} {w}.",
        ),
        ("I signed up to volunteer at {o} {w}.", "{w} I'm helping out at {o}."),
    ),
    Event(
        "festival",
        "go to {o}",
        ("a food festival", "a music festival", "a film festival"),
        (
            "I went to {o} {w} and tried everything.",
            "{w} we wandered around {o} for hours.",
            "The best part of my month was {o} {w}.",
        ),
        ("We're heading to {o} {w}.", "{w} I'm going to {o} with my sister."),
    ),
    Event(
        "book",
        "finish reading {o}",
        ('"The Silent Orchard"', '"Paper Lanterns"', '"Roads of Salt"'),
        (
            "I finished {o} {w}; the ending got me.",
            "{w} I stayed up late to finish {o}.",
            "Wrapped up {o} {w} and I'm still thinking about it.",
        ),
        ("I want to finish {o} {w}.", "{w} I'll finally get through {o}."),
    ),
    Event(
        "adoption",
        "go to {o}",
        ("an adoption agency meeting", "a foster care info session", "an adoption workshop"),
        (
            "I went to {o} {w} and asked a million questions.",
            "{w} I attended {o}; it felt like a big step.",
            "I sat through {o} {w} and took pages of notes.",
        ),
        ("I have {o} {w}.", "{w} I'm attending {o}."),
    ),
    Event(
        "road_trip",
        "take a road trip to {o}",
        ("the coast", "the mountains", "the desert"),
        (
            "We drove to {o} {w}, windows down the whole way.",
            "{w} we took a road trip to {o}.",
            "Our road trip to {o} {w} was amazing.",
        ),
        ("We're driving to {o} {w}.", "{w} we're doing a road trip to {o}."),
    ),
    Event(
        "dinner",
        "have dinner at {o}",
        ("the new Thai place", "the Italian restaurant on Main Street", "the rooftop bistro"),
        (
            "{w} we had dinner at {o}, so good.",
            "I tried {o} {w} for my friend's birthday.",
            "We ate at {o} {w}; I'd go back.",
        ),
        ("We booked a table at {o} {w}.", "{w} we're having dinner at {o}."),
    ),
    Event(
        "workshop",
        "attend {o}",
        ("a coding workshop", "a writing workshop", "a woodworking workshop"),
        ("I attended {o} {w} and learned loads.", "{w} I did {o}; my brain is full.", "I spent the day at {o} {w}."),
        ("I'm enrolled in {o} {w}.", "{w} I'm attending {o}."),
    ),
    Event(
        "garden",
        "plant {o}",
        ("tomatoes in the garden", "a row of sunflowers", "an herb garden"),
        (
            "{w} I planted {o}; fingers crossed.",
            "I finally got around to planting {o} {w}.",
            "The kids helped me plant {o} {w}.",
        ),
        ("I'm planting {o} {w}.", "{w} we'll plant {o}."),
    ),
    Event(
        "game",
        "go to {o}",
        ("a baseball game", "a basketball game", "a soccer match"),
        ("We went to {o} {w} and our team won!", "{w} I took my dad to {o}.", "I cheered myself hoarse at {o} {w}."),
        ("I have tickets to {o} {w}.", "{w} we're going to {o}."),
    ),
    Event(
        "beach",
        "visit {o}",
        ("the boardwalk", "the pier", "the lighthouse"),
        (
            "{w} we walked along {o} at sunset.",
            "I visited {o} {w}; the breeze was perfect.",
            "We spent the morning at {o} {w}.",
        ),
        ("We want to visit {o} {w}.", "{w} we're heading out to {o}."),
    ),
    Event(
        "parade",
        "march in {o}",
        ("the pride parade", "the holiday parade", "the harvest parade"),
        (
            "I marched in {o} {w}; the energy was incredible.",
            "{w} I walked in {o} with my friends.",
            "Being part of {o} {w} was so special.",
        ),
        ("I'm marching in {o} {w}.", "{w} I'll be walking in {o}."),
    ),
    Event(
        "zoo",
        "go to {o}",
        ("the zoo", "the aquarium", "the botanical garden"),
        (
            "{w} we spent hours at {o}; the kids were thrilled.",
            "I took my nephew to {o} {w}.",
            "We wandered through {o} {w} and had a picnic after.",
        ),
        ("We're taking the kids to {o} {w}.", "{w} I'm going to {o} with my niece."),
    ),
    Event(
        "painting",
        "paint {o}",
        ("a sunrise", "a lake landscape", "a portrait of the dog"),
        (
            "I painted {o} {w}; it's hanging in the hallway now.",
            "{w} I finished painting {o}.",
            "I tried painting {o} {w}.",
        ),
        ("I want to paint {o} {w}.", "{w} I'm painting {o} for my mom."),
    ),
    Event(
        "conference",
        "attend {o}",
        ("a teachers' conference", "a tech conference", "a health conference"),
        (
            "I went to {o} {w} and met some inspiring people.",
            "{w} I attended {o} out of town.",
            "The keynote at {o} {w} blew me away.",
        ),
        ("I'm going to {o} {w}.", "{w} I'm attending {o}."),
    ),
)
