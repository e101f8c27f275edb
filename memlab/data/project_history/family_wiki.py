"""The ``wiki`` phrasing family: entries of a project handbook or status page ("The primary datastore is ...").

Third person, present tense, page-revision wording ("has been replaced by", "remains", "reinstated"); a
component is named as a service in brackets. Shares no template or attribute name with any other family
(:mod:`generator_families`).
"""

from __future__ import annotations

from memlab.data.project_history.family import Family, component_name


def _subject(index: int) -> dict[str, str]:
    if index == 0:
        return {"subj": "the project", "at": "", "of": ""}
    name = component_name(index)
    return {"subj": f"the {name} service", "at": f"[{name}] ", "of": f" of the {name} service"}


WIKI = Family(
    name="wiki",
    decide=(
        (
            ("{at}{Attr} — {v}", "The {attr}{of} is {v}. Rationale: {reason}."),
            ("{at}Standard: {v}", "{v} is the standard {attr}{of} (reason: {reason})."),
            ("{at}Adopted {v}", "Adopted {v} as the {attr}{of}. Background: {reason}."),
        ),
        (
            ("{at}About {v}", "{v} serves as the {attr}{of}; see the design page ({reason})."),
            ("{at}{v} in use", "{Subj} uses {v}. This was settled with {reason} in mind."),
        ),
    ),
    change=(
        (
            ("{at}{Attr} — now {new}", "The {attr}{of} was {old}; it is now {new}. Rationale: {reason}."),
            ("{at}Replaced {old}", "{old} has been replaced by {new} as the {attr}{of} ({reason})."),
            (
                "{at}Migration to {new} complete",
                "Migration from {old} to {new} is complete for the {attr}{of}. Background: {reason}.",
            ),
        ),
        (
            ("{at}{Attr} — {new}", "The {attr}{of} is {new} as of this page revision; {reason}."),
            ("{at}{new} adopted", "{Subj} adopted {new}. Motivation: {reason}."),
            (
                "{at}Current: {new}",
                "Current {attr}{of}: {new}. Earlier revisions of this page are obsolete ({reason}).",
            ),
        ),
    ),
    revert=(
        (
            ("{at}{Attr} — back to {new}", "{old} has been rolled back; the {attr}{of} is {new} again."),
            ("{at}Rollback of {old}", "The move to {old} was reversed. {new} is once more the {attr}{of}."),
        ),
        (
            ("{at}{new} reinstated", "{new} is reinstated{of} after problems with {old}."),
            ("{at}Reverted to {new}", "Problems with {old} led to a rollback{of}; {new} is back in service."),
        ),
    ),
    restate=(
        (
            ("{at}{Attr} — unchanged", "The {attr}{of} remains {v}; no change is planned."),
            ("{at}Reminder for newcomers: {v}", "Reminder for newcomers: the {attr}{of} is {v}."),
        ),
        (
            ("{at}Handbook question: {attr}", "Handbook question: which {attr} does {subj} use? {v}, as before."),
            ("{at}Still {v}", "{v} continues to be used{of}."),
        ),
    ),
    detail=(
        (
            ("{at}{v} guidelines", "Guidelines for {v}{of}: {detail}."),
            ("{at}Working with {v}", "When working with {v}{of}, note: {detail}."),
        ),
        (
            ("{at}{v} conventions", "Convention{of}: {detail} ({v})."),
            ("{at}Operating {v}", "Operations note on {v}{of}: {detail}."),
        ),
    ),
    scoped=(
        (
            ("{at}{v} applies {scope}", "Exception{of}: {v} is the {attr} {scope}; elsewhere {main} applies."),
            ("{at}Exception to the rule: {v}", "{Scope} the {attr}{of} is {v}. The default remains {main}."),
        ),
        (("{at}{v} also used {scope}", "{v} is also in use {scope}{of}."),),
    ),
    blocker_raise=(
        ("{at}Open incident: {v}", "Ongoing incident{of}: {v} unavailable since {when}. Deploys are on hold."),
        ("{at}Outage — {v}", "{v} outage{of} since {when}; releases are suspended."),
        ("{at}{Attr} degraded", "The {attr}{of} ({v}) is degraded since {when}. Merges are on hold."),
    ),
    blocker_resolve=(
        ("{at}Resolved: {v}", "The incident{of} with {v} is resolved; deploys resume."),
        ("{at}{v} operational again", "{v} service{of} is restored; releases are back to normal."),
    ),
    plan=(
        ("{at}Proposal: {new}", "Proposal under discussion: {new} as the {attr}{of}. No decision yet."),
        (
            "{at}Evaluating {new}",
            "An evaluation of {new} as a replacement for {old}{of} is planned; nothing changes for now.",
        ),
    ),
    passing=(
        ("{at}Upgrade of {lib}", "{lib} was upgraded{of}; {v} is not affected."),
        ("{at}Timeout fix", "A timeout when calling {v}{of} was fixed by raising the limit."),
    ),
    recap=(
        (
            "{at}{Attr} — history",
            "Page history: the {attr}{of} moved from {old} to {new} some time ago; {new} is current.",
        ),
        ("{at}Summary of {attr}", "Summary: {old} was retired in favour of {new}{of}; {new} remains in use."),
    ),
    noise=(
        ("progress", "Fixed: {mod} failure on empty input", "A guard and a regression test were added to {mod}."),
        ("progress", "Upgraded {lib} to {n}.{m}", "Routine dependency upgrade; no API changes."),
        ("progress", "{mod} restructured", "Helpers were extracted from {mod}; behaviour is unchanged."),
        ("progress", "{mod} performance", "{mod} is {n}% faster after caching a lookup."),
        ("reviews", "Review notes: {mod}", "{n} minor comments and one error-handling bug."),
        ("retrospective", "Retrospective {n}", "Went well: pairing on {mod}. To improve: fewer meetings."),
        ("learnings", "Known issue in {lib}", "{lib} cuts values above {n} characters without warning."),
        ("research", "Reading list: {lib}", "Background reading only; no action."),
        ("elicitation", "Request: CSV export in {mod}", "Support requested a CSV export in {mod}."),
        (
            "patterns",
            "Pattern page: retrying calls from {mod}",
            "Remote calls in {mod} retry with jittered exponential backoff.",
        ),
    ),
    distractor=(
        ("research", "Comparison: {v} and {w}", "{v} and {w} were compared as {attr}; no change follows."),
        ("research", "Prototype with {w}", "A throwaway prototype used {w} as the {attr}; findings are on the wiki."),
        ("elicitation", "Question about {w}", "A customer asked whether {w} is supported; answered by support."),
    ),
    queries={
        "current": ("Which {attr} is in use{of}?", "What is the {attr}{of} at present?"),
        "as_of": ("Which {attr} was in use{of} on {date}?", "What was the {attr}{of} at {date}?"),
        "when": ("When did {v} become the {attr}{of}?", "Since when is {v} the {attr}{of}?"),
        "revert": ("When was the {attr}{of} rolled back to {v}?",),
        "blocker": ("When did the {v} incident{of} start?", "On which day did {v} become unavailable{of}?"),
        "history": ("List every {attr}{of} in order.", "Every past and present {attr}{of}, oldest first?"),
    },
    subject=_subject,
    attributes={
        "web_framework": ("application server framework", "web serving library", "routing framework"),
        "database": ("datastore of record", "durable storage product", "main database engine"),
        "auth": ("identity provider", "sign-on mechanism", "access control scheme"),
        "ci": ("build orchestration service", "integration platform", "build automation system"),
        "deploy_target": ("runtime platform", "production environment", "compute platform for prod"),
        "test_runner": ("test launcher", "test execution harness", "test tooling"),
        "api_versioning": ("API compatibility scheme", "interface versioning rule", "API revision policy"),
        "owner": ("area owner", "steward of the area", "named custodian"),
        "release_date": ("general availability day", "go-to-market date", "scheduled launch day"),
        "formatter": ("source formatter", "formatting tool of record", "auto-format step"),
        "line_length": ("line-length limit", "wrap width", "character cap per line"),
        "message_queue": ("event transport", "async messaging layer", "pub-sub backbone"),
        "cache": ("result cache layer", "cache backend", "memoization tier"),
        "frontend": ("web UI framework", "presentation layer", "browser-side framework"),
        "package_manager": ("dependency resolver", "package installer", "module fetcher"),
        "monitoring": ("alerting platform", "telemetry stack", "production observability suite"),
        "branching": ("branch discipline", "integration branch policy", "version control flow"),
        "docstring_style": ("doc comment style", "docstring dialect", "in-code doc format"),
    },
    scope="within {thing}",
    incident=" See the post-mortem of {when}.",
    twin=" (Revision of {month} {day}.)",
)
