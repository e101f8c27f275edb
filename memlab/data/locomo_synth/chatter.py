"""Everything but events: single-hop facts, pets for the multi-hop item, names, greetings, small talk."""

from __future__ import annotations

#: (key, fact template, question, answer options). Single-hop facts, stated once per speaker.
FACTS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "job",
        "These days I work as a {v}, which keeps me busy.",
        "What does {name} do for work?",
        ("nurse", "software developer", "high school teacher", "graphic designer", "chef", "librarian"),
    ),
    (
        "hometown",
        "I grew up in {v}, so big crowds still feel new to me.",
        "Where did {name} grow up?",
        ("a small town in Ohio", "Lisbon", "a farm in Iowa", "Toronto", "a village near Krakow", "Austin"),
    ),
    (
        "instrument",
        "I've been learning the {v} in the evenings.",
        "Which instrument is {name} learning?",
        ("violin", "guitar", "piano", "cello", "ukulele", "flute"),
    ),
)

#: Pets for the multi-hop item (two pets per speaker, stated in different sessions).
PET_KINDS: tuple[str, ...] = ("dog", "cat", "rabbit", "parrot", "turtle", "hamster")
PET_NAMES: tuple[str, ...] = ("Max", "Luna", "Biscuit", "Pepper", "Oliver", "Milo", "Daisy", "Coco", "Ziggy", "Nala")
PET_FIRST = "My {kind} {pet} has been keeping me company lately."
PET_SECOND = "Big news at home: we adopted a {kind} and named it {pet}."

NAMES: tuple[str, ...] = (
    "Caroline", "Melanie", "Jon", "Gina", "Audrey", "Andrew", "Maria", "John", "Tim", "Joanna", "Nate",
    "Priya", "Deborah", "Evan", "Sam", "Calvin", "Dave", "Jolene", "Rosa", "Hiro", "Lena", "Omar",
)  # fmt: skip

GREETINGS: tuple[str, ...] = (
    "Hey {other}! Good to see you! How have you been?",
    "Hi {other}, long time no talk! What's new?",
    "{other}! I was just thinking about you. How are things?",
    "Hey {other}, hope your week is going well!",
)
GREETING_REPLIES: tuple[str, ...] = (
    "Hey {other}! I'm swamped with work, but good. What's up with you?",
    "Hi! Things are busy but fine. Anything new with you?",
    "So good to hear from you, {other}! Life's been a whirlwind.",
    "Doing well, thanks for asking! How about you?",
)
REACTIONS: tuple[str, ...] = (
    "That sounds amazing! How did it go?",
    "Wow, I'm so happy for you.",
    "No way, that's awesome! Tell me more.",
    "That must have been really special.",
    "I love that for you. Did you take pictures?",
    "Sounds like a great way to spend the day.",
    "Good for you! I've always wanted to try that.",
    "Oh nice, that sounds like a lot of fun.",
)
#: (the other speaker asks when, the answer with the time phrase ``{w}``) for split mentions.
FOLLOW_UPS: tuple[tuple[str, str], ...] = (
    ("Oh nice, when was that?", "It was {w}."),
    ("Wait, when did you do that?", "{w}, actually."),
    ("When was this?", "Just {w}! I'm still buzzing."),
    ("How recent was that?", "That was {w}."),
)
PLAN_FOLLOW_UPS: tuple[tuple[str, str], ...] = (
    ("Ooh, when is that happening?", "It's {w}."),
    ("When are you going?", "{w}, if all goes to plan."),
)
PLAN_REACTIONS: tuple[str, ...] = (
    "That sounds exciting, let me know how it goes!",
    "Fun! I hope the weather cooperates.",
    "You'll have a blast, I'm sure.",
)
FILLERS: tuple[str, ...] = (
    "Work has been hectic, but I'm trying to keep a good balance.",
    "I've been trying to get more sleep, it makes such a difference.",
    "Honestly, I just needed a quiet evening with a cup of tea.",
    "The kids have been keeping me on my toes as usual.",
    "I keep meaning to call my mom more often.",
    "I'm trying to cook at home more instead of ordering in.",
    "I've been journaling again, it really helps me think.",
    "The weather has been so unpredictable here.",
    "I'm grateful for friends like you who check in.",
    "Trying to stay positive even when things get messy.",
    "I started a new playlist for my commute, it's all old favorites.",
    "My neighbor keeps bringing over baked goods, I'm not complaining.",
    "I should really clean out the garage one of these days.",
    "I've been reading a lot about mindfulness lately.",
    "Thanks for listening, it means a lot.",
    "That's so true, I couldn't agree more.",
    "Ha, that sounds just like you!",
    "Totally get that. Life gets busy.",
)
CLOSINGS: tuple[str, ...] = (
    "Anyway, I should get going. Talk soon!",
    "It was so nice catching up. Take care!",
    "Let's chat again soon, okay?",
)
