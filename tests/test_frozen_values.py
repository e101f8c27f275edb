"""The SessionStart value types (:class:`memlab.core.selection_types.FrozenValue`) behave as the frozen dataclasses
they replaced: same constructor, defaults, ``==``, hash, ``repr``, refused assignment, replace, asdict, copy and
pickle."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlab.adapter.repo import Repo
from memlab.core.selection_types import InjectionCandidate, SelectionContext, Tier
from memlab.pipeline.inject import InjectedBlock

T0 = datetime(2025, 12, 1, 9, 30, tzinfo=UTC)


@dataclasses.dataclass(frozen=True)
class ReferenceCandidate:
    """The former definition of InjectionCandidate."""

    id: str
    kind: str
    namespace: str
    text: str
    timestamp: datetime
    relevance: float = 0.0
    recency: float = 0.0
    activation: float = 0.0
    confidence: float = 1.0
    tier: Tier = Tier.WARM


ARGS = [
    (("m1", "memory", "decisions", "- [decisions] x", T0), {}),
    (("m1", "memory", "decisions", "- [decisions] x", T0, 0.5, 0.25), {"tier": Tier.HOT}),
    (("s2", "summary", "learnings", "y", T0), {"confidence": 0.1, "activation": 1.0, "recency": 0.9}),
]


@pytest.mark.parametrize(("args", "kwargs"), ARGS)
def test_candidate_matches_the_frozen_dataclass(args, kwargs):
    new, ref = InjectionCandidate(*args, **kwargs), ReferenceCandidate(*args, **kwargs)
    assert repr(new) == repr(ref).replace("ReferenceCandidate", "InjectionCandidate")
    assert new.as_dict() == dataclasses.asdict(ref)
    assert list(new.as_dict()) == [f.name for f in dataclasses.fields(ref)]
    assert hash(new) == hash(ref)
    assert new == InjectionCandidate(*args, **kwargs) and new != ref
    assert new.replace(text="z").as_dict() == dataclasses.asdict(dataclasses.replace(ref, text="z"))
    assert InjectionCandidate.__match_args__ == ReferenceCandidate.__match_args__
    assert copy.deepcopy(new) == new and pickle.loads(pickle.dumps(new)) == new


def test_fields_cannot_be_assigned_deleted_or_replaced_by_unknown_names():
    c = InjectionCandidate("m1", "memory", "decisions", "x", T0)
    with pytest.raises(AttributeError, match="cannot assign to field 'text'"):
        c.text = "y"
    with pytest.raises(AttributeError, match="cannot assign to field 'other'"):
        c.other = 1
    with pytest.raises(AttributeError, match="cannot delete field 'text'"):
        del c.text
    with pytest.raises(TypeError, match="no field 'txt'"):
        c.replace(txt="y")
    with pytest.raises(TypeError):
        InjectionCandidate("m1", "memory")  # missing required arguments, as with the dataclass
    assert c.text == "x"


def test_other_value_types_compare_hash_and_repr_by_field():
    ctx = SelectionContext(now=T0)
    assert (ctx.now, ctx.query, ctx.chars_per_token) == (T0, None, 4)
    assert ctx == SelectionContext(T0, None, 4) != SelectionContext(T0, "q")
    assert repr(ctx) == f"SelectionContext(now={T0!r}, query=None, chars_per_token=4)"
    repo = Repo(Path("/r"), Path("/r/.git"))
    assert repo == Repo(Path("/r"), Path("/r/.git")) and hash(repo) == hash(Repo(Path("/r"), Path("/r/.git")))
    assert repo.memlab_dir == Path("/r/.git/memlab") and {repo: 1}[Repo(Path("/r"), Path("/r/.git"))] == 1
    assert repr(repo) == "Repo(root=PosixPath('/r'), git_dir=PosixPath('/r/.git'))"
    block = InjectedBlock("abcdefgh", "v", ())
    assert block.tokens == 2 and block == InjectedBlock("abcdefgh", "v", ())
    with pytest.raises(AttributeError):
        block.text = ""
