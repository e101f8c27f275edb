import json

import pytest

from memlab.core.errors import MemlabError
from memlab.data import splits
from memlab.data.adr.corpus import SEAL_SALT, SPLITS, read_repo, repo_files
from tests.adr.factory import kafka_repo, record, write_repo

#: The sealed third of the shared folder's 26 repository names (computed from names only).
SHARED = [
    "DFE-Digital__buy-for-your-school",
    "DFE-Digital__dfe-complete-conversions-transfers-and-changes",
    "MITLibraries__mario",
    "NERC-CEH__datalab",
    "ThoughtWorksInc__kakuma-frontend",
    "alphagov__govuk-aws",
    "alphagov__gsp",
    "cardano-scaling__hydra",
    "celestiaorg__celestia-app",
    "cljdoc__cljdoc",
    "cloudfoundry__cf-k8s-networking",
    "decentraland__adr",
    "digitalservicebund__ris-backend-service",
    "dogmatiq__dogma",
    "elastisys__compliantkubernetes",
    "hmrc__play-frontend-hmrc",
    "input-output-hk__mithril",
    "microsoft__semantic-kernel",
    "nationalarchives__tdr-dev-documentation",
    "openedx__license-manager",
    "operate-first__blueprint",
    "raster-foundry__raster-foundry",
    "simpledotorg__simple-android",
    "simpledotorg__simple-server",
    "wikimedia__mediawiki-extensions-Wikibase",
    "zooniverse__front-end-monorepo",
]
SEALED = {
    "wikimedia__mediawiki-extensions-Wikibase",
    "digitalservicebund__ris-backend-service",
    "cardano-scaling__hydra",
    "microsoft__semantic-kernel",
    "DFE-Digital__dfe-complete-conversions-transfers-and-changes",
    "cloudfoundry__cf-k8s-networking",
    "operate-first__blueprint",
    "alphagov__govuk-aws",
    "simpledotorg__simple-server",
}


def test_sealed_names_reproduce_the_shared_split():
    assert len(SHARED) == 26
    assert splits.sealed_names(SHARED, SEAL_SALT) == SEALED


def test_sealed_is_a_third_rounded_up():
    assert len(splits.sealed_names([f"o__r{i}" for i in range(7)], SEAL_SALT)) == 3
    assert splits.sealed_names([], SEAL_SALT) == set()


def test_read_repo_reads_records_and_links(tmp_path):
    repo = read_repo(kafka_repo(tmp_path))
    assert repo.repo == "acme/queue" and repo.name == "acme__queue" and repo.license == "MIT"
    assert [r.number for r in repo.records] == [1, 2, 3, 4]
    assert repo.records[2].date.isoformat() == "2021-06-01"
    assert [(link.relation) for link in repo.links] == ["supersedes", "supersedes", "amends"]


def _split_folder(tmp_path):
    names = [f"own__r{i}" for i in range(6)]
    for name in names:
        write_repo(tmp_path, name.replace("__", "/"), [], [])
    return names


def test_repo_files_splits_partition_the_folder(tmp_path):
    names = _split_folder(tmp_path)
    sealed = splits.sealed_names(names, SEAL_SALT)
    dev = [p.stem for p in repo_files(tmp_path, split="dev")]
    assert set(dev) == set(names) - sealed and len(sealed) == 2
    assert {p.stem for p in repo_files(tmp_path, split="sealed")} == sealed
    assert [p.stem for p in repo_files(tmp_path)] == sorted(names)
    assert "all" in SPLITS


def test_repo_files_selects_by_either_name_form(tmp_path):
    names = _split_folder(tmp_path)
    got = repo_files(tmp_path, repos=["own/r1", "own__r2"])
    assert [p.stem for p in got] == ["own__r1", "own__r2"]
    with pytest.raises(MemlabError, match=r"unknown repository 'own__nope'.*valid: own__r0"):
        repo_files(tmp_path, repos=["own/nope"])
    dev_only = sorted(set(names) - splits.sealed_names(names, SEAL_SALT))
    sealed_one = sorted(splits.sealed_names(names, SEAL_SALT))[0]
    with pytest.raises(MemlabError, match="unknown repository"):
        repo_files(tmp_path, repos=[sealed_one], split="dev")
    assert [p.stem for p in repo_files(tmp_path, repos=[dev_only[0]], split="dev")] == [dev_only[0]]


def test_repo_files_missing_folder_or_no_files(tmp_path):
    with pytest.raises(MemlabError, match="ADR folder not found"):
        repo_files(tmp_path / "nope")
    with pytest.raises(MemlabError, match=r"no owner__name\.json files"):
        repo_files(tmp_path)
    _split_folder(tmp_path)
    with pytest.raises(MemlabError, match="unknown split"):
        repo_files(tmp_path, split="test")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["adrs"][1].pop("date"), r"record 1 \(id 'b.md'\): missing field 'date'"),
        (lambda d: d["adrs"][1].update(date="soon"), r"record 1 \(id 'b.md'\): field 'date' 'soon' is not"),
        (lambda d: d["adrs"][0].update(number="3"), r"record 0 \(id 'a.md'\): field 'number' must be an integer"),
        (lambda d: d["adrs"][1].update(id="a.md"), r"record 1 \(id 'a.md'\): duplicate id"),
        (lambda d: d["adrs"][0].update(text=None), r"record 0 \(id 'a.md'\): field 'text' must be str"),
        (lambda d: d["adrs"].append("x"), r"record 2: expected an object"),
        (lambda d: d.pop("repo"), r"missing field 'repo'"),
        (lambda d: d["links"].append({"old": "a.md", "new": "b.md", "relation": "refines"}), r"link 0 .*'refines'"),
    ],
)
def test_malformed_file_is_one_line_error_naming_file_and_record(tmp_path, mutate, message):
    data = {
        "repo": "o/r",
        "adrs": [record(1, "A", "2020-01-01", "# A", path="a.md"), record(2, "B", "2020-02-01", "# B", path="b.md")],
        "links": [],
    }
    mutate(data)
    path = tmp_path / "o__r.json"
    path.write_text(json.dumps(data))
    with pytest.raises(MemlabError, match=message) as err:
        read_repo(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_not_json_and_missing_file(tmp_path):
    bad = tmp_path / "o__r.json"
    bad.write_text("{nope")
    with pytest.raises(MemlabError, match="not valid JSON"):
        read_repo(bad)
    with pytest.raises(MemlabError, match="ADR file not found"):
        read_repo(tmp_path / "x.json")
