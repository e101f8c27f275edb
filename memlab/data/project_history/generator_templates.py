"""Wording of the project-history generator: several templates per event kind, plain and subtle.

Placeholders: ``{subj}``/``{Subj}`` (subject, lower/capitalised), ``{attr}`` (attribute or a synonym),
``{v}`` (value), ``{old}``/``{new}`` (values of a change), ``{reason}``, ``{detail}``, ``{scope}``,
``{main}`` (the main value beside a scoped one), ``{when}`` (a relative time expression). Each template is
``(summary, content)``. *Plain* templates carry explicit cues ("switched from … to …"); *subtle* ones leave
the relation to be inferred (harder difficulties draw them more often).
"""

from __future__ import annotations

Template = tuple[str, str]

DECIDE_PLAIN: tuple[Template, ...] = (
    ("Use {v} as the {attr} for {subj}", "Decision: {subj} uses {v} as its {attr}. Reason: {reason}."),
    ("Decided on {v} for {subj}'s {attr}", "We picked {v} as the {attr} of {subj} because of {reason}."),
    ("{Subj} adopts {v} as {attr}", "After comparing options, {v} is the {attr} for {subj} ({reason})."),
    ("Chose {v} as {subj}'s {attr}", "The {attr} of {subj} will be {v}; main driver: {reason}."),
)
DECIDE_SUBTLE: tuple[Template, ...] = (
    ("{v} it is for {subj}", "Settled the {attr} question for {subj}: {v}, mostly for {reason}."),
    ("Going with {v} ({subj})", "{reason} tipped it: {subj} goes with {v} for its {attr}."),
)

CHANGE_PLAIN: tuple[Template, ...] = (
    ("Switched {subj}'s {attr} from {old} to {new}", "{Subj} moved from {old} to {new} for {reason}."),
    ("Replaced {old} with {new} as {subj}'s {attr}", "{old} is replaced by {new} in {subj}; reason: {reason}."),
    ("{Subj} no longer uses {old}; {attr} is now {new}", "We dropped {old}. {New} is the {attr} from now on."),
    ("Migrated {subj} from {old} to {new}", "The {attr} of {subj} changed to {new} instead of {old} ({reason})."),
    ("Deprecated {old} for {subj} in favour of {new}", "{old} is deprecated for {subj}; use {new} ({reason})."),
)
CHANGE_SUBTLE: tuple[Template, ...] = (
    ("{Subj} now runs on {new}", "From this week the {attr} of {subj} is {new}; {reason} made the case."),
    ("{attr_cap} for {subj} going forward: {new}", "New direction on the {attr} of {subj}: {new}. Why: {reason}."),
    ("{New} becomes {subj}'s {attr}", "Effective today {subj} relies on {new} for its {attr} ({reason})."),
)

REVERT_PLAIN: tuple[Template, ...] = (
    ("Reverted {subj}'s {attr} back to {new}", "{old} did not work out for {subj}; we went back to {new}."),
    ("Rolled back to {new} for {subj}", "The move to {old} is undone: {subj} uses {new} again as its {attr}."),
    ("Back to {new} as {subj}'s {attr}", "Switched {subj} back from {old} to {new} after problems with {old}."),
)
REVERT_SUBTLE: tuple[Template, ...] = (
    ("{Subj} returns to {new}", "Lesson learned with {old}: the {attr} of {subj} is once again {new}."),
    ("{New} again for {subj}", "Undid last change on the {attr} of {subj}; {new} is what we use."),
)

RESTATE_PLAIN: tuple[Template, ...] = (
    ("Reminder: {subj} uses {v} as its {attr}", "Still true: the {attr} of {subj} is {v}."),
    ("{Subj} {attr}: {v}", "For reference, {subj} keeps using {v} as its {attr}."),
    ("Confirmed {v} remains {subj}'s {attr}", "Checked again: {v} is still the {attr} of {subj}."),
)
RESTATE_SUBTLE: tuple[Template, ...] = (
    ("As agreed, {v} for {subj}", "Nothing changed: {subj} relies on {v} ({attr})."),
    ("Note on {subj}: {attr} is {v}", "New joiners keep asking; the answer for {subj} is {v}."),
    ("{v} is what {subj} runs", "Quick recap for the team: {attr} of {subj} = {v}."),
)

DETAIL_PLAIN: tuple[Template, ...] = (
    ("{v} for {subj}: {detail}", "Detail on the {attr} of {subj}: with {v}, {detail}."),
    ("Added detail to {subj}'s {attr} ({v})", "In addition, for {v} in {subj}, {detail}."),
    ("{Subj} {v} setup: {detail}", "More on how {subj} uses {v} as its {attr}: {detail}."),
)
DETAIL_SUBTLE: tuple[Template, ...] = (
    ("About {v} in {subj}", "One more thing about the {attr} of {subj}: {detail}."),
    ("{v} conventions for {subj}", "Working agreement: {detail} ({subj}, {attr} {v})."),
)

SCOPED_PLAIN: tuple[Template, ...] = (
    (
        "{Subj} uses {v} {scope}",
        "{scope_cap}, {subj} uses {v} as the {attr}; the main setup stays on {main}.",
    ),
    ("{v} {scope} for {subj}, {main} elsewhere", "Only {scope} does {subj} use {v}; everywhere else it is {main}."),
    ("{scope_cap} {subj} runs {v}", "{v} is the {attr} of {subj} {scope}. This does not change the main {attr}."),
)
SCOPED_SUBTLE: tuple[Template, ...] = (
    ("{v} {scope} ({subj})", "{scope_cap} {subj} uses {v} as its {attr}."),
    ("{Subj}: {v} {scope}", "Set up {v} {scope} for {subj}; it is a separate {attr} there."),
)

BLOCKER_RAISE: tuple[Template, ...] = (
    ("Blocked: {v} on {subj} fails {when}", "Work on {subj} is blocked: {v} started failing {when}."),
    ("Blocker: {subj} {attr} broken", "Since {when}, {v} in {subj} keeps breaking; deploys are on hold."),
    ("{Subj} deploys halted", "Deploys of {subj} halted after {when}'s {v} outage."),
)
BLOCKER_RESOLVE: tuple[Template, ...] = (
    ("Resolved: {v} on {subj} works again", "The {v} problem in {subj} is fixed and deploys resumed."),
    ("Unblocked {subj}", "The {attr} issue with {v} is resolved; {subj} ships again."),
    ("{Subj} {v} outage over", "Root cause of the {v} outage in {subj} fixed; blocker closed."),
)

#: Hard negatives (``hard_negatives`` > 0). A change considered, not made: relates to nothing.
PLAN: tuple[Template, ...] = (
    ("Considering {new} as {subj}'s {attr}", "We might move {subj} to {new} later; {old} stays for now."),
    ("Proposal: {new} for {subj}", "Proposed evaluating {new} as the {attr} of {subj}; no decision yet."),
    ("Spike planned on {new}", "Next sprint we will try {new} for {subj}'s {attr} before deciding anything."),
)
#: A note about something else that names the instance's value in passing: relates to nothing.
PASSING: tuple[Template, ...] = (
    ("Fixed a flaky test in {mod}", "The flaky test in {mod} was a timeout against {v}; {subj} is unaffected."),
    ("Upgraded {lib} in {subj}", "Bumped {lib}; checked that it still works with {v}."),
    ("Onboarding notes for {subj}", "New joiners need access to {v} and the wiki page for {subj}."),
)
#: A later retelling of the last change: a DUPLICATE of the live memories, not a new change.
RECAP: tuple[Template, ...] = (
    (
        "Recap: {subj} moved from {old} to {new}",
        "Summary for the quarterly report: the {attr} of {subj} changed from {old} to {new} and is still {new}.",
    ),
    ("History of {subj}'s {attr}", "For new joiners: {subj} used {old} before; {new} has been the {attr} since."),
)

#: Noise: unrelated progress and chatter. ``{mod}`` a module, ``{lib}`` a library, ``{n}`` a number.
NOISE: tuple[tuple[str, str, str], ...] = (
    ("progress", "Fixed flaky test in {mod}", "The test of {mod} relied on dict ordering; it is deterministic now."),
    ("progress", "Refactored {mod}", "Split {mod} into smaller functions; no behaviour change."),
    ("progress", "Bumped {lib} to {n}.{m}", "Routine dependency update of {lib}; changelog reviewed."),
    ("progress", "Added type hints to {mod}", "mypy passes on {mod} now; {n} errors fixed."),
    ("progress", "Closed {n} stale issues", "Triage pass: closed {n} issues that no longer reproduce."),
    ("reviews", "Review notes for {mod}", "Reviewed the pull request for {mod}; asked for {n} small changes."),
    ("retrospective", "Sprint {n} retrospective", "Went well: pairing on {mod}. To improve: smaller PRs."),
    ("inception", "Project goal for {mod}", "{mod} should make onboarding of new customers faster."),
    ("elicitation", "Requirement from support about {mod}", "Support wants {mod} to export CSV files."),
    ("research", "Read about {lib} internals", "Notes on how {lib} schedules work; nothing to change yet."),
    ("learnings", "Gotcha in {lib}", "{lib} silently truncates values longer than {n} characters."),
    ("patterns", "Pattern: retries in {mod}", "Wrap remote calls in {mod} with exponential backoff."),
    ("progress", "Profiled {mod}", "{mod} spends {n} percent of its time in serialisation."),
    ("progress", "Documented {mod}", "Added a README section about configuring {mod}."),
)
NOISE_MODULES: tuple[str, ...] = (
    "the importer",
    "the CSV exporter",
    "the rate limiter",
    "the settings loader",
    "the CLI",
    "the migration scripts",
    "the invoice renderer",
    "the feature flags",
    "the email sender",
    "the audit trail",
    "the search indexer",
    "the retry helper",
)
NOISE_LIBS: tuple[str, ...] = ("requests", "pydantic", "numpy", "attrs", "click", "httpx", "orjson", "structlog")

#: Distractors: mention a topic value without changing any fact (gold COEXIST with everything).
DISTRACTOR: tuple[tuple[str, str, str], ...] = (
    ("research", "Compared {v} and {w}", "Read a benchmark of {v} against {w} as {attr}s; no change planned."),
    ("research", "Spike: {w} as a {attr}", "Tried {w} in a throwaway branch; results are in the wiki."),
    ("learnings", "Blog post on {w}", "Interesting article on running {w} as a {attr}; bookmarked."),
    ("elicitation", "Customer asked about {w}", "A customer asked whether we support {w}; answered in the ticket."),
)

#: Relative time expressions with a function of the anchor's date giving the gold interval (days).
RELATIVE: tuple[str, ...] = ("yesterday", "two days ago", "last week", "last Tuesday", "last Friday")

#: Question templates per query kind (``{subj}``, ``{attr}``, ``{v}``, ``{date}``).
CURRENT_Q = (
    "Which {attr} does {subj} use?",
    "What is {subj}'s {attr} right now?",
    "What {attr} is {subj} on today?",
)
AS_OF_Q = (
    "Which {attr} did {subj} use on {date}?",
    "What was the {attr} of {subj} as of {date}?",
)
WHEN_Q = (
    "When did {subj} switch its {attr} to {v}?",
    "Since when has {subj} used {v} as its {attr}?",
)
REVERT_Q = ("When did {subj} go back to {v} as its {attr}?",)
BLOCKER_Q = (
    "When did the {v} trouble on {subj} start?",
    "On which day did {v} problems begin for {subj}?",
)
HISTORY_Q = (
    "How has the {attr} of {subj} changed over time?",
    "What {attr}s has {subj} used, in order?",
)
