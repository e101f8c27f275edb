"""The ``terse`` phrasing family: changelog lines and commit-message notes ("ci: travis -> actions").

Short summaries with a component prefix, arrows for changes, clipped content; the project itself goes
unnamed. Shares no template or attribute name with any other family (:mod:`generator_families`).
"""

from __future__ import annotations

from memlab.data.project_history.family import Family, component_name


def _subject(index: int) -> dict[str, str]:
    if index == 0:
        return {"subj": "the repo", "at": "", "of": ""}
    name = component_name(index)
    return {"subj": name, "at": f"{name}: ", "of": f" ({name})"}


TERSE = Family(
    name="terse",
    decide=(
        (
            ("{at}{attr} = {v}", "{Attr} set to {v}{of}. why: {reason}."),
            ("{at}pick {v} as {attr}", "Picked {v} for {attr}{of} - {reason}."),
            ("{at}add {v} ({attr})", "Set up {v} as {attr}{of}; rationale: {reason}."),
        ),
        (
            ("{at}{v}", "Going with {v}{of}. {Reason} decided it."),
            ("{at}start on {v}", "Kicked off with {v}{of}; {reason}."),
        ),
    ),
    change=(
        (
            ("{at}{attr}: {old} -> {new}", "{Attr}{of} changed {old} -> {new}. why: {reason}."),
            ("{at}swap {old} for {new}", "Swapped {old} out, {new} in ({attr}{of}). {Reason}."),
            ("{at}drop {old}, use {new}", "{old} removed{of}; {attr} is {new} now. {Reason}."),
        ),
        (
            ("{at}{attr} => {new}", "{New} is the {attr}{of} as of today; {reason}."),
            ("{at}on {new} now", "Everything{of} runs on {new}. Reason: {reason}."),
            ("{at}{new} live", "Cut over to {new} ({attr}{of}) - {reason}."),
        ),
    ),
    revert=(
        (
            ("{at}revert {attr} to {new}", "Rolled {attr}{of} from {old} back to {new}; {old} caused trouble."),
            ("{at}undo {old} switch", "{old} experiment{of} reverted, {new} restored as {attr}."),
        ),
        (
            ("{at}{new} restored", "{old} didn't pan out{of}; {new} is in place again."),
            ("{at}back on {new}", "Returned to {new}{of} after issues with {old}."),
        ),
    ),
    restate=(
        (
            ("{at}{attr} still {v}", "No change: {attr}{of} = {v}."),
            ("{at}reminder: {v}", "FYI {v} remains the {attr}{of}."),
        ),
        (
            ("{at}re {attr}", "Answering the recurring question: it's {v}{of}."),
            ("{at}{v} (unchanged)", "Still on {v}{of}, nothing new."),
        ),
    ),
    detail=(
        (
            ("{at}{v} note", "{v} ({attr}{of}): {detail}."),
            ("{at}{v}: config", "Config for {v}{of}: {detail}."),
        ),
        (
            ("{at}tip", "Tip for {v}{of}: {detail}."),
            ("{at}{v} setup", "Setup notes{of} - {detail}."),
        ),
    ),
    scoped=(
        (
            ("{at}{v} {scope}", "{v} as {attr} {scope}{of}; {main} everywhere else."),
            ("{at}{Scope}: {v}", "{Scope}{of} it's {v}; default {attr} stays {main}."),
        ),
        (("{at}+{v} {scope}", "Added {v} {scope}{of}."),),
    ),
    blocker_raise=(
        ("{at}BLOCKED: {v}", "{v} failing{of} since {when}; merges frozen."),
        ("{at}{v} down", "{v} outage{of} since {when}, nothing ships."),
        ("{at}blocker: {attr}", "{Attr} ({v}) broken{of} {when}; deploys paused."),
    ),
    blocker_resolve=(
        ("{at}unblocked: {v}", "{v} fixed{of}; merges open again."),
        ("{at}{v} back up", "{v} outage{of} over, shipping resumed."),
    ),
    plan=(
        ("{at}idea: {new} for {attr}", "Might try {new} as {attr}{of} next sprint; nothing decided."),
        ("{at}spike {new}?", "Proposal: evaluate {new} to replace {old}{of}. Not started."),
    ),
    passing=(
        ("{at}bump {lib}", "Bumped {lib}{of}; {v} unaffected."),
        ("{at}fix flaky test", "Flaky test{of} was a timeout talking to {v}; raised the limit."),
    ),
    recap=(
        ("{at}history: {old} -> {new}", "For the record: {attr}{of} went {old} -> {new} a while back, still current."),
        ("{at}recap {attr}", "Recap: we left {old} for {new}{of}; {new} is what we use."),
    ),
    noise=(
        ("progress", "fix: {mod} crash on empty input", "Guard added in {mod}; regression test included."),
        ("progress", "chore: bump {lib} {n}.{m}", "Dependency bump, no API changes."),
        ("progress", "refactor {mod}", "Pulled helpers out of {mod}; same behaviour."),
        ("progress", "perf: {mod} {n}% faster", "Cached a lookup in {mod}."),
        ("reviews", "review {mod} PR", "{n} nits, one real bug in error handling."),
        ("retrospective", "retro #{n}", "+ pairing on {mod}  - too many meetings"),
        ("learnings", "TIL {lib}", "{lib} drops values over {n} chars silently."),
        ("research", "read: {lib} internals", "Notes only, no action."),
        ("elicitation", "req: CSV from {mod}", "Support asked for CSV export in {mod}."),
        ("patterns", "pattern: backoff in {mod}", "Retry remote calls in {mod} with jittered backoff."),
    ),
    distractor=(
        ("research", "bench {v} vs {w}", "Benchmarked {v} against {w} as {attr}; no action."),
        ("research", "spike {w}", "Throwaway branch with {w} as {attr}; results in wiki."),
        ("elicitation", "q: {w} support?", "Customer asked if we support {w}; replied on ticket."),
    ),
    queries={
        "current": ("current {attr}{of}?", "{attr}{of} today?"),
        "as_of": ("{attr}{of} on {date}?", "{attr}{of} as at {date}?"),
        "when": ("date {attr}{of} went to {v}?", "{v} as {attr}{of} since?"),
        "revert": ("date {attr}{of} reverted to {v}?",),
        "blocker": ("{v} breakage{of} started when?", "first day of {v} failures{of}?"),
        "history": ("{attr}{of} changelog?", "all {attr} values{of}, in order?"),
    },
    subject=_subject,
    attributes={
        "web_framework": ("web fw", "http lib", "server lib"),
        "database": ("db", "prod db", "datastore"),
        "auth": ("auth", "login flow", "authn"),
        "ci": ("ci", "ci runner", "pipelines"),
        "deploy_target": ("hosting", "infra", "deploy env"),
        "test_runner": ("test fw", "unit tests lib", "test harness"),
        "api_versioning": ("api versions", "versioning", "api version scheme"),
        "owner": ("DRI", "point person", "lead"),
        "release_date": ("release", "GA date", "ship target"),
        "formatter": ("formatter", "fmt tool", "autoformat"),
        "line_length": ("max line", "line len", "col width"),
        "message_queue": ("mq", "queue", "broker"),
        "cache": ("caching", "cache store", "kv cache"),
        "frontend": ("frontend", "ui lib", "fe stack"),
        "package_manager": ("deps tool", "locking", "pkg mgr"),
        "monitoring": ("monitoring", "metrics", "o11y"),
        "branching": ("branching", "merge policy", "branch model"),
        "docstring_style": ("docstrings", "doc format", "docs style"),
    },
    scope="for {thing} only",
    incident=" ref: incident {when}.",
    twin=" [{month} {day}]",
)
