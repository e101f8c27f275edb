"""The ``narrative`` phrasing family: first-person prose, reasons first, past tense, several sentences.

The way people write in a team journal ("After two weeks of flaky builds we finally moved everything over
to ..."): the attribute is described rather than named, the project itself goes unnamed. Shares no template
or attribute name with any other family (:mod:`generator_families`).
"""

from __future__ import annotations

from memlab.data.project_history.family import Family, component_name


def _subject(index: int) -> dict[str, str]:
    if index == 0:
        return {"subj": "the codebase", "at": "", "of": ""}
    name = component_name(index)
    return {"subj": f"the {name} backend", "at": "", "of": f" in the {name} backend"}


NARRATIVE = Family(
    name="narrative",
    decide=(
        (
            (
                "We settled on {v}{of}",
                "After some back and forth we settled on {v} as the {attr}{of}. What tipped it was {reason}.",
            ),
            ("Picking {v} as the {attr}", "We are going with {v} for the {attr}{of}; {reason} mattered most."),
            ("First call on the {attr}: {v}", "The team agreed to start with {v}{of}, mainly for {reason}."),
        ),
        (
            ("Started out with {v}", "We started out on {v}{of}. {Reason} was the argument nobody could beat."),
            ("A word on {v}", "Everyone liked {v} in the trial{of}, so that is what we built on ({reason})."),
        ),
    ),
    change=(
        (
            (
                "We moved off {old}{of}",
                "After weeks of friction we moved the {attr}{of} off {old} and onto {new}. {Reason} was the reason.",
            ),
            (
                "Goodbye {old}, hello {new}",
                "We finally retired {old}{of}; {new} took its place as the {attr} because of {reason}.",
            ),
            (
                "{New} replaced {old} this week",
                "This week {new} replaced {old} as the {attr}{of}. We did it for {reason}.",
            ),
        ),
        (
            ("{New} is in{of}", "We spent the sprint getting {new} in as the {attr}{of}, and it is done. {Reason}."),
            ("Finished the {new} migration", "The migration is finished: all of the {attr}{of} sits on {new} today."),
            ("Life on {new}", "Everything{of} went over to {new} on Monday; the old setup is gone ({reason})."),
        ),
    ),
    revert=(
        (
            (
                "We went back to {new}",
                "The {old} experiment{of} did not survive contact with production, so we went back to {new}.",
            ),
            ("Rolled back from {old}", "We rolled the {attr}{of} back from {old} to {new} after a rough week."),
        ),
        (
            ("{New}, again", "It turned out {old} was the wrong call{of}; {new} is once more what we rely on."),
            (
                "Second thoughts about {old}",
                "We undid the switch{of} and restored {new}. {old} had too many surprises.",
            ),
        ),
    ),
    restate=(
        (
            ("Still on {v}", "Nothing has changed with the {attr}{of}: we are still on {v}."),
            ("To repeat: {v}", "Someone asked again, so for the record the {attr}{of} is {v}."),
        ),
        (
            ("The same answer as before", "People keep asking about the {attr}{of}. The answer has not moved: {v}."),
            ("{v} continues to serve us", "{v} keeps doing its job as the {attr}{of}, and we are not looking around."),
        ),
    ),
    detail=(
        (
            ("How we run {v}", "A bit more about how we run {v}{of}: {detail}."),
            ("Notes on our {v} setup", "While setting up {v} as the {attr}{of} we agreed that {detail}."),
        ),
        (
            ("One more thing about {v}", "Worth writing down about {v}{of}: {detail}."),
            ("Working with {v}", "A practical note for whoever touches the {attr}{of} next: {detail}."),
        ),
    ),
    scoped=(
        (
            ("{v}, {scope}", "We use {v} as the {attr}{of}, {scope}; everywhere else it stays {main}."),
            ("An exception {scope}", "{Scope} we allowed ourselves {v}{of}. The main {attr} is still {main}."),
        ),
        (("{v} has a niche", "{v} found a niche {scope}{of}, which is fine as long as it stays there."),),
    ),
    blocker_raise=(
        ("We are stuck on {v}", "Nothing{of} can ship: {v} has been failing since {when} and we are stuck."),
        ("{v} trouble", "Since {when} {v} has been misbehaving{of}, and deploys are on hold until it is sorted."),
        ("A bad week with {v}", "The {attr}{of} ({v}) started breaking {when}; we stopped releasing."),
    ),
    blocker_resolve=(
        ("We are moving again", "The {v} problem{of} is behind us; releases are flowing again."),
        ("{v} is healthy again", "We found the cause of the {v} failures{of} and fixed it, so we are unblocked."),
    ),
    plan=(
        ("Thinking about {new}", "We have been talking about trying {new} as the {attr}{of}; nothing is decided."),
        ("Should we look at {new}?", "A few of us would like to evaluate {new} instead of {old}{of} next quarter."),
    ),
    passing=(
        ("A flaky test, explained", "The flaky test in {mod} turned out to be a slow call to {v}{of}; we fixed it."),
        ("Upgrading {lib}", "We upgraded {lib}{of} and checked it against {v}; nothing else changed."),
    ),
    recap=(
        (
            "Looking back at the {attr}",
            "Looking back, moving the {attr}{of} from {old} to {new} was the right call; we are still on {new}.",
        ),
        ("How we ended up on {new}", "For new people: we used {old}{of} for a while and then moved to {new}."),
    ),
    noise=(
        ("progress", "Finally fixed the {mod} bug", "The bug in {mod} came from an off-by-one; it is fixed now."),
        ("progress", "A quieter {mod}", "We cleaned up {mod}; it reads better and does the same thing."),
        ("progress", "Moved {lib} forward", "We upgraded {lib} to {n}.{m} after reading the changelog."),
        ("reviews", "Reviewing {mod}", "I reviewed the {mod} changes today and left {n} comments."),
        ("retrospective", "What sprint {n} taught us", "Pairing on {mod} worked well; our pull requests are too big."),
        ("learnings", "A surprise in {lib}", "We learned the hard way that {lib} cuts values after {n} characters."),
        ("research", "Reading about {lib}", "I spent an afternoon with the {lib} internals; no changes for us."),
        ("elicitation", "What support wants from {mod}", "Support would love CSV exports from {mod}."),
        ("patterns", "How we retry in {mod}", "We agreed that remote calls in {mod} retry with backoff."),
        ("inception", "Why {mod} exists", "The point of {mod} is to get new customers going faster."),
    ),
    distractor=(
        (
            "research",
            "Reading about {w}",
            "I read a long comparison of {v} and {w} as a {attr}; we are not changing anything.",
        ),
        ("learnings", "A talk on {w}", "Watched a conference talk about running {w}; interesting, not for us yet."),
        ("elicitation", "A customer mentioned {w}", "A customer asked whether we work with {w}; I answered them."),
    ),
    queries={
        "current": ("What is the {attr}{of} these days?", "Which one is the {attr}{of} at the moment?"),
        "as_of": ("What was the {attr}{of} back on {date}?", "On {date}, what did we have as the {attr}{of}?"),
        "when": ("On what day did the {attr}{of} become {v}?", "When did we move the {attr}{of} over to {v}?"),
        "revert": ("When did we return to {v} as the {attr}{of}?",),
        "blocker": ("When did the {v} trouble{of} begin?", "What day did {v} start failing{of}?"),
        "history": ("What has the {attr}{of} been over time?", "Tell the story of the {attr}{of}."),
    },
    subject=_subject,
    attributes={
        "web_framework": ("framework behind the HTTP endpoints", "web layer", "request-handling framework"),
        "database": ("database we keep production data in", "storage engine", "system of record"),
        "auth": ("way clients sign in", "sign-in approach", "authentication setup"),
        "ci": ("place our builds run", "build service", "automated build setup"),
        "deploy_target": ("place production runs", "infrastructure we deploy onto", "hosting setup"),
        "test_runner": ("tool that runs our tests", "test framework", "testing setup"),
        "api_versioning": ("way we version the public API", "API versioning approach", "versioning convention"),
        "owner": ("person in charge", "owning engineer", "go-to person"),
        "release_date": ("date we ship", "planned release", "go-live date"),
        "formatter": ("tool that formats our code", "formatter we run", "code formatting setup"),
        "line_length": ("line length we allow", "width limit for code", "maximum width of a line"),
        "message_queue": ("system that carries our events", "messaging backbone", "queue between services"),
        "cache": ("caching setup", "layer that caches results", "cache in front of the database"),
        "frontend": ("framework the UI is written in", "front-end stack", "UI toolkit"),
        "package_manager": ("tool that manages our dependencies", "dependency tooling", "packaging tool"),
        "monitoring": ("monitoring setup", "tool that watches production", "observability setup"),
        "branching": ("way we branch", "git branching approach", "branching workflow"),
        "docstring_style": ("format we write docstrings in", "docstring convention", "documentation style"),
    },
    scope="just for {thing}",
    incident=" The discussion started with the incident {when}.",
    twin=" (Written on {month} {day}.)",
)
