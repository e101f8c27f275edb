"""The ``ticket`` phrasing family: issue-tracker entries and decision records ("Status: accepted").

Bracketed component tags, labelled fields (Context / Decision / Outcome), formal vocabulary. Shares no
template or attribute name with any other family (:mod:`generator_families`).
"""

from __future__ import annotations

from memlab.data.project_history.family import Family, component_name


def _subject(index: int) -> dict[str, str]:
    if index == 0:
        return {"subj": "the platform", "at": "[platform] ", "of": ""}
    slug = component_name(index).replace(" #", "-").replace(" ", "-") + "-svc"
    return {"subj": slug, "at": f"[{slug}] ", "of": f" in {slug}"}


TICKET = Family(
    name="ticket",
    decide=(
        (
            ("{at}Decision record: {v}", "Status: accepted. Context: {reason}. Decision: {v} is the {attr}{of}."),
            ("{at}Adopt {v}", "Outcome: adopt {v} as {attr}{of}. Rationale: {reason}."),
            ("{at}Selected {v} ({attr})", "Evaluation closed; {v} selected as {attr}{of} on the basis of {reason}."),
        ),
        (
            ("{at}Closed: {attr} selection", "Resolution: {v}{of}. Driver: {reason}."),
            ("{at}Approved: {v}", "Approved by the architecture group{of}: {v} ({reason})."),
        ),
    ),
    change=(
        (
            (
                "{at}Supersede {old} with {new}",
                "Status: accepted, supersedes the {old} record. Decision: {attr}{of} becomes {new}. Why: {reason}.",
            ),
            ("{at}Migrate {attr} to {new}", "Migration of {attr}{of} from {old} to {new} completed. Driver: {reason}."),
            ("{at}Retire {old}", "{old} retired as {attr}{of}. Replacement: {new}. Rationale: {reason}."),
        ),
        (
            ("{at}Done: {new} rollout", "Rollout of {new}{of} complete; it is now the {attr}. Driver: {reason}."),
            ("{at}Accepted: {new}", "Decision updated{of}: {attr} = {new}. Rationale: {reason}."),
            ("{at}{new} in production", "Resolution: {new} serves as {attr}{of} from this release. ({reason})"),
        ),
    ),
    revert=(
        (
            ("{at}Revert to {new}", "Rollback of {attr}{of}: {old} withdrawn, {new} reinstated."),
            ("{at}Withdraw {old}", "Decision on {old} withdrawn{of}; {attr} reverts to {new}."),
        ),
        (
            ("{at}Reinstated: {new}", "Incident follow-up: {new} reinstated{of} after {old} failed acceptance."),
            ("{at}Rollback complete", "{attr}{of} restored to {new}; the {old} change is closed as failed."),
        ),
    ),
    restate=(
        (
            ("{at}Confirmed: {v}", "Audit item: {attr}{of} confirmed as {v}. No action."),
            ("{at}Status check: {attr}", "Status unchanged: {v} remains {attr}{of}."),
        ),
        (
            ("{at}FAQ: {attr}", "Answer for the FAQ: {v}{of}. Closing as answered."),
            ("{at}Duplicate question", "Closed as duplicate: the {attr}{of} is {v}."),
        ),
    ),
    detail=(
        (
            ("{at}Addendum: {v}", "Addendum to the {v} record{of}: {detail}."),
            ("{at}{v} configuration", "Configuration requirement for {v}{of}: {detail}."),
        ),
        (
            ("{at}Guideline", "Guideline for {v}{of}: {detail}."),
            ("{at}Follow-up on {v}", "Follow-up task done{of}: {detail}."),
        ),
    ),
    scoped=(
        (
            ("{at}Exception: {v}", "Exception granted: {v} as {attr}{of}. {Scope}. Default stays {main}."),
            ("{at}{v} allowed", "{v} permitted{of}. {Scope}. Does not affect the main {attr} ({main})."),
        ),
        (("{at}Scoped use of {v}", "{Scope}. {v} approved{of} for that use only."),),
    ),
    blocker_raise=(
        ("{at}P1: {v} failing", "Severity 1. {v} failing{of} since {when}. Releases blocked."),
        ("{at}Incident: {v}", "Incident opened: {attr} ({v}) unavailable{of}, first seen {when}. Deploys frozen."),
        ("{at}Blocker raised", "Blocking issue: {v} errors{of} since {when}."),
    ),
    blocker_resolve=(
        ("{at}Incident closed", "Incident closed: {v} restored{of}. Releases unblocked."),
        ("{at}Fixed: {v} failures", "Root cause found and patched; {v} healthy{of}. Blocker closed."),
    ),
    plan=(
        ("{at}RFC: evaluate {new}", "Status: draft. Proposal to evaluate {new} as {attr}{of}. Current: {old}."),
        ("{at}Backlog: try {new}", "Backlog item: investigate {new} for {attr}{of}. Not scheduled."),
    ),
    passing=(
        ("{at}Bug: timeout in {mod}", "Timeout in {mod} traced to a slow {v} call{of}. Fixed, no config change."),
        ("{at}Upgrade {lib}", "Upgraded {lib}{of}; compatibility with {v} verified."),
    ),
    recap=(
        ("{at}Summary: {attr} history", "Summary: {attr}{of} moved from {old} to {new}; {new} current. No action."),
        ("{at}Quarterly review", "Quarterly review item: the {old} to {new} change{of} is complete and stable."),
    ),
    noise=(
        ("progress", "[chore] Fix {mod} crash", "Closed: {mod} crashed on empty input; patch merged."),
        ("progress", "[chore] Upgrade {lib} to {n}.{m}", "Dependency upgrade completed; no breaking changes."),
        ("progress", "[task] Clean up {mod}", "Refactoring of {mod} merged; behaviour unchanged."),
        ("reviews", "[review] {mod} change set", "Review complete: {n} comments, approved with changes."),
        ("retrospective", "[retro] Iteration {n}", "Keep: pairing on {mod}. Change: smaller change sets."),
        ("learnings", "[kb] {lib} truncation", "Knowledge base: {lib} truncates values above {n} characters."),
        ("research", "[research] {lib} scheduling", "Research notes on {lib} scheduling; no follow-up."),
        ("elicitation", "[req] CSV export in {mod}", "Requirement from support: CSV export in {mod}."),
        ("patterns", "[std] Retries in {mod}", "Standard: remote calls in {mod} use exponential backoff."),
    ),
    distractor=(
        ("research", "[research] {v} vs {w}", "Comparison of {v} and {w} for {attr} filed. No decision requested."),
        ("elicitation", "[req] {w} support", "Customer request: support for {w}. Answered; no change."),
        ("learnings", "[kb] {w} overview", "Knowledge base article on {w} as {attr} added for reference."),
    ),
    queries={
        "current": ("Which {attr} is in effect{of}?", "Current {attr} decision{of}?"),
        "as_of": ("Which {attr} was in effect{of} on {date}?", "{attr} decision{of} valid on {date}?"),
        "when": ("Date the {attr}{of} changed to {v}?", "When was {v} adopted as {attr}{of}?"),
        "revert": ("When was {v} reinstated as {attr}{of}?",),
        "blocker": ("When was the {v} incident{of} first seen?", "Start date of the {v} blocker{of}?"),
        "history": ("Decision history of the {attr}{of}?", "List the {attr} decisions{of} in order."),
    },
    subject=_subject,
    attributes={
        "web_framework": ("HTTP stack", "application framework", "backend framework"),
        "database": ("persistence layer", "database engine", "data tier"),
        "auth": ("authentication provider", "identity mechanism", "auth strategy"),
        "ci": ("CI system", "build pipeline", "CI/CD platform"),
        "deploy_target": ("deployment target", "compute platform", "hosting provider"),
        "test_runner": ("unit test framework", "test execution tool", "test suite runner"),
        "api_versioning": ("API version strategy", "versioning policy", "public API versioning"),
        "owner": ("component owner", "accountable engineer", "assignee"),
        "release_date": ("release milestone", "GA milestone", "target ship date"),
        "formatter": ("formatting standard", "code formatting tool", "style enforcer"),
        "line_length": ("line-length rule", "max columns", "line-width standard"),
        "message_queue": ("messaging system", "event streaming platform", "async transport"),
        "cache": ("caching tier", "cache technology", "distributed cache"),
        "frontend": ("client framework", "SPA framework", "front-end framework"),
        "package_manager": ("dependency management tool", "package tooling", "lock tool"),
        "monitoring": ("observability platform", "monitoring solution", "telemetry backend"),
        "branching": ("branching policy", "source control workflow", "merge strategy"),
        "docstring_style": ("docstring standard", "API doc convention", "inline documentation format"),
    },
    scope="Scope: {thing}",
    incident=" Reference: incident review of {when}.",
    twin=" (Logged {month} {day}.)",
)
