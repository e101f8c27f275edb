"""The ``chat`` phrasing family: team-chat messages saved as notes ("fyi we're on kafka now").

Lower case, informal, values often written in lower case too, the project itself unnamed. Shares no template
or attribute name with any other family (:mod:`generator_families`).
"""

from __future__ import annotations

from memlab.data.project_history.family import Family, component_name


def _subject(index: int) -> dict[str, str]:
    if index == 0:
        return {"subj": "the app", "at": "", "of": ""}
    name = component_name(index)
    return {"subj": name, "at": "", "of": f" on {name}"}


CHAT = Family(
    name="chat",
    decide=(
        (
            ("ok so {v} for the {attr}{of}", "ok so we're doing {v} for the {attr}{of}, mostly bc of {reason}"),
            ("{attr}{of}: let's do {v}", "let's just do {v}{of}, {reason} wins it imo"),
            ("going w/ {v}{of}", "going with {v} as our {attr}{of}. {reason} ftw"),
        ),
        (
            ("{v} it is", "alright {v} it is{of} 👍 ({reason})"),
            ("we're on {v}{of}", "set up {v} today{of}, reason being {reason}"),
        ),
    ),
    change=(
        (
            ("fyi {attr}{of} is {new} now", "heads up, we ditched {old}{of}, it's {new} from here on ({reason})"),
            ("bye {old}{of}", "killed {old} today, {new} is the {attr}{of} going fwd. {reason}"),
            ("{old} -> {new}{of} done", "switch from {old} to {new} is done{of}! {reason}"),
        ),
        (
            ("{new} is live{of} 🎉", "{new} is live as the {attr}{of}, bc {reason}"),
            ("pls use {new} now{of}", "everyone pls use {new}{of} from today, the old one's gone"),
            ("{new} all the way{of}", "we're fully on {new}{of} now, {reason} sold it"),
        ),
    ),
    revert=(
        (
            ("rolling back to {new}{of}", "{old} was a mess{of}, rolling back to {new} 😬"),
            ("{old} reverted{of}", "reverted the {old} thing{of}, we're on {new} again"),
        ),
        (
            ("ok {new} is back{of}", "ok {new} is back as {attr}{of}, {old} didn't work out"),
            ("nvm {old}{of}", "nvm on {old}{of}, {new} is what we use, sorry for the churn"),
        ),
    ),
    restate=(
        (
            ("reminder: {attr}{of} = {v}", "just a reminder the {attr}{of} is {v}, nothing changed"),
            ("yes it's still {v}{of}", "to answer the q in standup: yes still {v}{of}"),
        ),
        (
            ("{attr}{of}?? it's {v}", "ppl keep asking lol, it's {v}{of}"),
            ("still {v}{of} btw", "btw still {v}{of}, no plans to change"),
        ),
    ),
    detail=(
        (
            ("{v} tip{of}", "tip for {v}{of}: {detail}"),
            ("re {v}{of}", "re {v} ({attr}{of}): {detail}"),
        ),
        (
            ("psa{of}", "psa about {v}: {detail}"),
            ("small thing about {v}", "small thing{of}: {detail}"),
        ),
    ),
    scoped=(
        (
            ("{v} {scope}{of}", "we use {v} {scope}{of}, main {attr} is still {main}"),
            ("fyi {scope} it's {v}", "fyi {scope}{of} it's {v}, don't change the {main} setup"),
        ),
        (("{v} but {scope}", "{v}, {scope}{of}, ok?"),),
    ),
    blocker_raise=(
        ("{v} is broken again{of}", "{v} has been broken since {when}{of}, don't deploy 🚫"),
        ("anyone else seeing {v} errors?", "{v} started failing {when}{of}, deploys on hold"),
        ("😩 {v}{of}", "{v} down since {when}{of}, we're blocked"),
    ),
    blocker_resolve=(
        ("{v} fixed{of} 🎉", "{v} is fixed{of}, deploy away"),
        ("all good w/ {v} now", "{v} issue sorted{of}, we're unblocked"),
    ),
    plan=(
        ("thoughts on {new}?", "anyone tried {new}? thinking we could look at it for the {attr}{of} at some point"),
        ("maybe {new}{of}?", "maybe we should try {new} instead of {old}{of}? not urgent"),
    ),
    passing=(
        ("flaky test{of} again", "{mod} test flaked again, it was a {v} timeout{of}. bumped the limit"),
        ("updated {lib}", "updated {lib}{of}, still works with {v}"),
    ),
    recap=(
        ("tl;dr {attr}{of}", "tl;dr for newbies: we used {old}{of}, then moved to {new}, still on {new}"),
        ("why {new}?", "someone asked why {new}{of}: we left {old} a while ago, long story"),
    ),
    noise=(
        ("progress", "fixed the {mod} crash", "fixed the {mod} crash on empty input, pls pull"),
        ("progress", "bumped {lib}", "bumped {lib} to {n}.{m}, all green"),
        ("progress", "cleaned up {mod}", "cleaned up {mod} a bit, no behaviour change"),
        ("reviews", "left comments on {mod}", "left {n} comments on the pr for {mod}"),
        ("retrospective", "retro {n} notes", "pairing on {mod} was great, prs too big"),
        ("learnings", "watch out for {lib}", "watch out, {lib} silently chops anything over {n} chars"),
        ("research", "{lib} rabbit hole", "went down a {lib} rabbit hole, nothing actionable"),
        ("elicitation", "support wants csv from {mod}", "support keeps asking for csv export in {mod}"),
        ("patterns", "retries in {mod}", "let's always retry remote calls in {mod} with backoff"),
    ),
    distractor=(
        ("research", "{v} vs {w}?", "saw a {v} vs {w} benchmark for the {attr}, not changing anything"),
        ("learnings", "cool {w} post", "cool post about {w} as a {attr}, saving for later"),
        ("elicitation", "customer asked about {w}", "a customer asked if we support {w}, replied in the ticket"),
    ),
    queries={
        "current": ("what's the {attr}{of} rn?", "which {attr} are we on{of}?"),
        "as_of": ("what was the {attr}{of} on {date}?", "which {attr} did we have{of} on {date}?"),
        "when": ("when did we switch the {attr}{of} to {v}?", "since when is {v} the {attr}{of}?"),
        "revert": ("when did we go back to {v}{of}?",),
        "blocker": ("when did {v} start breaking{of}?", "what day did the {v} errors start{of}?"),
        "history": ("what {attr}s have we had{of}?", "{attr}{of} over time?"),
    },
    subject=_subject,
    attributes={
        "web_framework": ("web stack", "server thing", "api stack"),
        "database": ("prod database", "db server", "database box"),
        "auth": ("login stuff", "auth setup", "sign-in"),
        "ci": ("build bot", "ci thing", "build server"),
        "deploy_target": ("host", "prod box", "cloud setup"),
        "test_runner": ("test lib", "test thingy", "testing lib"),
        "api_versioning": ("api version thing", "versioning setup", "version scheme"),
        "owner": ("go-to dev", "main dev", "person on point"),
        "release_date": ("ship day", "launch day", "release day"),
        "formatter": ("formatter bot", "auto format", "prettifier"),
        "line_length": ("line limit", "char limit", "max width"),
        "message_queue": ("queue thing", "event pipe", "pubsub"),
        "cache": ("cache thing", "cache box", "memo cache"),
        "frontend": ("ui stack", "frontend lib", "ui framework thing"),
        "package_manager": ("deps manager", "package tool", "install tool"),
        "monitoring": ("dashboards", "alerting", "monitoring tool"),
        "branching": ("branch setup", "git process", "branching rules"),
        "docstring_style": ("docstring thing", "doc comments", "docstring rules"),
    },
    scope="only for {thing}",
    incident=" (came up after the incident {when})",
    twin=" ({month} {day})",
    lower_values=0.4,
)
