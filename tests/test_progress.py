"""Progress of long work: piped, a line naming every running task at least every EVERY seconds (a fake clock);
on a terminal, bars the heartbeat redraws; nothing when quiet; a cold cache says what it stores and what that
saves; the episode loop reports its episode and its memories and queries through a callback."""

from __future__ import annotations

import io

import pytest

from memlab.observability import progress as p


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock(monkeypatch):
    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.delenv("CI", raising=False)
    fake = Clock()
    monkeypatch.setattr(p, "_clock", fake)
    monkeypatch.setitem(p._STATE, "last", 0.0)
    monkeypatch.setitem(p._STATE, "beat", object())  # no heartbeat thread: the test calls beat() itself
    monkeypatch.setattr(p, "_SAVED", {})
    return fake


def lines_over(clock, seconds: float, step: float = 0.25) -> list[float]:
    """Call beat() every ``step`` fake seconds; the fake times at which it wrote."""
    out = []
    for _ in range(int(seconds / step)):
        clock.now += step
        if p.beat():
            out.append(clock.now)
    return out


def test_piped_a_line_at_least_every_ten_seconds_naming_every_running_task(clock, capsys):
    episodes = ["adr:alpha", "adr:beta", "adr:gamma"]
    with p.task("job seed=0: running"):
        written = []
        for _ in p.progress(episodes, desc="episode", label=str):
            with p.task("memories and queries", 40) as work:
                for _ in range(4):
                    written += lines_over(clock, 7.5)
                    work.advance(10)
    err = capsys.readouterr().err.splitlines()
    gaps = [b - a for a, b in zip([1000.0, *written[:-1]], written, strict=True)]
    assert len(err) == len(written) == 11 and max(gaps) <= p.EVERY and min(gaps) >= p.EVERY - p.MARGIN  # 90 s: 11
    assert err[0] == "memlab: job seed=0: running: 8 s so far; episode 1/3 adr:alpha; memories and queries 10/40"
    assert err[-1].startswith("memlab: job seed=0: running: 88 s so far; episode 3/3 adr:gamma; memories and queries")


def test_a_step_not_yet_announced_is_not_named_by_a_heartbeat_line(clock, capsys, monkeypatch):
    monkeypatch.setattr(p, "EVERY", 0.5)  # every tick is past the silence limit
    with p.task("embedding 58 records", announce=1.0):
        clock.now += 0.25
        assert not p.beat()  # a tick before the announcement: no "0 s so far" ahead of "..."
        clock.now += 1.0
        assert p.beat()
    assert capsys.readouterr().err.splitlines() == [
        "memlab: embedding 58 records ...",
        "memlab: embedding 58 records: 1 s so far",
    ]


class Writes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def write(self, text: str) -> int:
        self.calls.append(text)
        return super().write(text)


def test_a_line_is_one_write_with_its_newline_so_processes_sharing_stderr_cannot_split_it(clock, monkeypatch):
    out = Writes()
    monkeypatch.setattr(p.sys, "stderr", out)
    p.say("job #0 seed=0: running ...")
    assert out.calls == ["memlab: job #0 seed=0: running ...\n"]


def test_short_work_and_finished_work_write_nothing(clock, capsys):
    with p.task("judging pairs", 5) as work:
        clock.now += 7.5
        work.advance(5)
        assert not p.beat()
    clock.now += 60
    assert not p.beat() and capsys.readouterr().err == ""


def test_a_terminal_gets_bars_the_heartbeat_redraws_not_lines(clock, monkeypatch):
    for stream, bar in ((Tty(), True), (io.StringIO(), False)):
        monkeypatch.setattr("sys.stderr", stream)
        with p.task("memories and queries", 74) as work:
            assert (work.bar is not None) is bar
            work.advance(3)
            clock.now += 9.5
            assert p.beat()
        out = stream.getvalue()
        assert ("so far" in out) is not bar and ("memories and queries:   4%" in out) is bar  # 3 of 74


@pytest.mark.parametrize(("columns", "bars"), [(0, False), (120, True)])
def test_a_terminal_0_columns_wide_gets_lines(clock, monkeypatch, columns, bars):
    class Sized(Tty):
        def fileno(self) -> int:
            return 2

    monkeypatch.setattr(p.sys, "stderr", Sized())
    monkeypatch.setattr(p.os, "get_terminal_size", lambda fd: p.os.terminal_size((columns, 40)))
    assert p.quiet() is not bars


@pytest.mark.parametrize("env", ["MEMLAB_QUIET", "CI"])
def test_quiet_and_ci_write_nothing(clock, capsys, monkeypatch, env):
    monkeypatch.setenv(env, "1")
    with p.task("episode", 3):
        clock.now += 30
        assert not p.beat()
    p.cached("records embedded with MiniLM in x.sqlite", 3, 2.0)
    p.say_cached(10.0)
    assert capsys.readouterr().err == ""


def test_a_cold_cache_says_what_it_stores_and_how_long_the_next_run_takes(clock, capsys):
    what = "records embedded with MiniLM in /c/embeddings.sqlite"
    p.cached(what, 2, 1.5)
    p.cached(what, 398, 68.5)
    p.say_cached(165.0)
    p.say_cached(90.0)  # told once: the next run has nothing new to say
    assert capsys.readouterr().err.splitlines() == [
        f"memlab: caching {what} as they are computed; the next run reads them",
        f"memlab: cached 400 {what} (70 s of work): the next run reads them (~95 s instead of 165 s)",
    ]


def test_the_episode_runner_ticks_after_each_memory_and_query():
    from datetime import timedelta

    from memlab.pipeline.episode import Episode, Query, run_episode
    from tests.test_episode import T0, comps, memories

    queries = (Query("q1", "parser module", T0 + timedelta(days=1, hours=1, minutes=30)), Query("q2", "parser", T0))
    with p.task("memories and queries", 14) as work:
        ticks: list[int] = []
        run_episode(
            Episode("e", tuple(memories()), queries), comps(), tick=lambda n: (work.advance(n), ticks.append(work.at))
        )
    assert ticks == list(range(1, 15))  # 12 memories, 2 queries


@pytest.mark.slow  # loads sentence-transformers
def test_minilm_on_a_cold_cache_says_where_it_caches_and_a_warm_one_says_nothing(tmp_path, monkeypatch, capsys):
    from memlab.embed.minilm import MiniLMEmbedder

    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(p, "_SAVED", {})
    texts = ["Use Kafka as the event bus", "Postgres is the primary store", "Deploys run on Fridays"]
    for _ in range(2):
        MiniLMEmbedder(cache_dir=str(tmp_path)).encode(texts)
        p.say_cached(5.0)
    captured = capsys.readouterr().err
    assert "Loading weights" not in captured  # transformers' loading bar: not in memlab's progress output
    err = [line for line in captured.splitlines() if line.startswith("memlab: cach")]
    what = f"records embedded with MiniLM in {tmp_path / 'embeddings.sqlite'}"
    assert err[0] == f"memlab: caching {what} as they are computed; the next run reads them"
    assert err[1].startswith(f"memlab: cached 3 {what} (") and "the next run reads them (~" in err[1]
    assert len(err) == 2  # the second, warm run computed and cached nothing
