"""Every removal rule of the stripper, in both modes, on synthetic records."""

import pytest

from memlab.data.adr.strip import clean_record
from memlab.data.adr.titles import strip_title

STEMS = frozenset({"0002-use-json", "0004-use-nats", "0007-use-kafka", "0009-later"})


def earlier_than_9(key):
    return key not in ("0009-later", "9")


def clean(text, refs="strip", path="docs/adr/0007-use-kafka.md", title="7. Use Kafka", **kw):
    return clean_record(text, title, path, 7, refs=refs, stems=STEMS, keep=earlier_than_9, **kw)


@pytest.mark.parametrize(
    ("title", "want"),
    [
        ("12. Use NATS", "Use NATS"),
        ("ADR-0012: Use NATS", "Use NATS"),
        ("ADR 012: Use NATS", "Use NATS"),
        ("ADR012 - Use NATS", "Use NATS"),
        ("#12 Use NATS", "Use NATS"),
        ("0012-use-nats", "use-nats"),
        ("0012 Use NATS", "Use NATS"),
        ("ADR: Use NATS", "Use NATS"),
        ("[Superseded by [ADR-0019](0019-x.md)] Use NATS", "Use NATS"),
        ("Use NATS (deprecated)", "Use NATS"),
        ("Use NATS [SUPERSEDED]", "Use NATS"),
        ("Superseded: Use NATS", "Use NATS"),
        ("12. Use NATS - Superseded by 14", "Use NATS"),
        ("~~12. Use NATS~~", "Use NATS"),
        ("2 regions per service", "2 regions per service"),
        ("12 regions per service", "regions per service"),
    ],
)
def test_strip_title(title, want):
    assert strip_title(title, 12) == want


def test_title_status_section_and_meta_lines_go_in_both_modes():
    text = (
        "# 7. Use Kafka\n\nDate: 2020-01-01\n- Deciders: Ann, Bob\n**Status:** superseded\n\n"
        "## Status\n\nSuperseded by [9. Later](0009-later.md)\n\n### History\n\nAccepted once.\n\n"
        "## Context\n\nWe need a queue.\n\n## Decision\n\nWe will use Kafka.\n"
    )
    for refs in ("strip", "keep"):
        out = clean(text, refs)
        assert out.summary == "Use Kafka"
        assert out.content == "We will use Kafka."
    body = clean(text.replace("## Decision", "## Outcome"))
    assert body.content == "## Context\n\nWe need a queue.\n\n## Outcome\n\nWe will use Kafka."


def test_front_matter_status_is_removed():
    text = (
        "---\nadr: 7\nstatus: Deprecated\ndeprecated-reason: see ADR-9\n---\n\n"
        "## Decision Drivers\n\n- speed\n\n## Decision Outcome\n\nKafka it is.\n"
    )
    for refs in ("strip", "keep"):
        assert clean(text, refs, title="Use Kafka").content == "Kafka it is."


def test_supersede_sentences_strip_removes_keep_keeps_older_references():
    text = (
        "# 7. Use Kafka\n\n## Status\n\nAccepted. Supersedes [4. Use NATS](0004-use-nats.md)\n\n"
        "## Context\n\nThis ADR replaces ADR-0002. Queues matter.\n\n"
        "## Decision\n\nWe will use Kafka. This supersedes ADR 4. Amends [the JSON decision](0002-use-json.md).\n"
    )
    strip = clean(text)
    assert strip.content == "We will use Kafka."
    keep = clean(text, "keep")
    assert keep.content.startswith("Supersedes [4. Use NATS](0004-use-nats.md)\nThis ADR replaces ADR-0002.\n\n")
    assert keep.content.endswith(
        "We will use Kafka. This supersedes ADR 4. Amends [the JSON decision](0002-use-json.md)."
    )
    assert "Accepted" not in keep.content


def test_future_marks_go_in_keep_mode_too():
    text = (
        "# 7. Use Kafka\n\n## Decision\n\nWe will use Kafka. "
        "This decision has been superseded by [9. Later](0009-later.md). "
        "Replaced by ADR-9. This ADR is now deprecated. See [the later one](0009-later.md) and ADR-0009 for more.\n"
    )
    out = clean(text, "keep", title="[Superseded by [9. Later](0009-later.md)] 7. Use Kafka (deprecated)")
    assert out.content == "We will use Kafka. See the later one and for more."
    assert out.summary == "Use Kafka"


def test_numbers_and_record_links_strip_mode():
    text = (
        "# 7. Use Kafka\n\n## Decision\n\nAs in [ADR-0004: Use NATS](0004-use-nats.md) and [json][j], "
        "see ADR 2, ADR#4, ADR004 and #12, also 0002-use-json.md and [docs](https://example.org/guide.md). "
        "Ubuntu 16.04 stays.\n\n[j]: 0002-use-json.md\n[k]: https://example.org\n"
    )
    out = clean(text)
    assert out.content == (
        "As in Use NATS and json, see, and, also use json and [docs](https://example.org/guide.md). "
        "Ubuntu 16.04 stays.\n\n[k]: https://example.org"
    )
    keep = clean(text, "keep")
    assert "[ADR-0004: Use NATS](0004-use-nats.md)" in keep.content and "[j]: 0002-use-json.md" in keep.content


def test_passive_mark_with_a_title_reference_goes_in_strip_mode():
    text = (
        "# 7. Use Kafka\n\n## Decision\n\n"
        "Supersedes the decision to use RabbitMQ. We use Kafka. Kafka replaces RabbitMQ.\n"
    )
    assert clean(text).content == "We use Kafka. Kafka replaces RabbitMQ."
    assert clean(text, "keep").content.startswith("Supersedes the decision to use RabbitMQ.")


def test_rst_and_asciidoc_headings():
    rst = (
        "7. Use Kafka\n============\n\nStatus\n======\n\nRejected May 2021\n-----------------\n"
        "Superseded by ADR 0009.\n\nDecision\n========\n\nWe use Kafka.\n\nConsequences\n============\n\nFine.\n"
    )
    out = clean(rst, path="docs/0007-use-kafka.rst")
    assert out.content == "We use Kafka."
    adoc = (
        "= Use Kafka\n:toc:\n:toclevels: 5\n\n== Status\n\nDraft\n\n== Decision\n\n"
        "[source,sh]\n----\n# not a heading\n----\nWe use Kafka.\n"
    )
    out = clean(adoc, path="docs/0007-use-kafka.adoc", title="[source,sh]")
    assert out.summary == "Use Kafka"
    assert out.content == "[source,sh]\n----\n# not a heading\n----\nWe use Kafka."
    untitled = clean("# Context\n\nWe need speed.\n", title="Context", path="docs/adr-0012-ci-server.md")
    assert untitled.summary == "ci server"
    assert untitled.content == "# Context\n\nWe need speed."


def test_code_blocks_are_untouched_and_comments_and_badges_removed():
    text = (
        "# Use Kafka\n\n![Superseded](https://img.shields.io/badge/adr-superseded-orange)\n\n## Decision\n\n"
        "<!-- template hint -->\n```\n# ADR-0004 superseded by x\n```\nDone.\n"
    )
    assert clean(text).content == "```\n# ADR-0004 superseded by x\n```\nDone."


def test_content_is_capped_on_a_word_boundary():
    text = "# Use Kafka\n\n## Decision\n\n" + "word " * 100
    out = clean(text, max_chars=23)
    assert out.content == "word word word word" and len(out.content) <= 23


def test_unknown_refs_mode():
    with pytest.raises(ValueError, match="refs"):
        clean("# x", refs="maybe")


def test_keep_mode_keeps_a_reference_that_calls_the_older_record_deprecated():
    text = (
        "# 7. Use Kafka\n\n## Decision\n\nWe will use Kafka, "
        "which replaces [ADR-4](0004-use-nats.md) (now deprecated). Kafka is fast.\n"
    )
    keep = clean(text, "keep")
    assert "which replaces [ADR-4](0004-use-nats.md) (now deprecated)." in keep.content
    assert clean(text).content == "Kafka is fast."  # strip mode: the sentence names a record and a relation
    marked = clean("# 7. Use Kafka\n\n## Decision\n\nWe will use Kafka. Superseded by ADR-9 (old).\n", "keep")
    assert marked.content == "We will use Kafka."  # a mark on this record still goes
