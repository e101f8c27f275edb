"""``memlab hook <event>``: Claude Code hook entry points (JSON on stdin) and repository set-up.

Events: ``session-start`` (prints the SessionStart JSON), ``stop`` and ``session-end`` (start a background
consolidation when due), ``capture`` (append a memory), ``sync-config`` (refspecs, rewriteRef, merge
strategies), ``sync`` (fetch, merge and push every notes ref). Hook events never fail a session: any error
prints nothing, exits 0 and leaves one line in ``.git/memlab/hook.log``; when the time budget runs out the
process logs one line and exits 0 at once, whatever it was doing. Stdin is parsed, never written anywhere.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    import argparse

_STARTED = time.monotonic()

EVENTS = ("session-start", "stop", "session-end", "capture", "sync-config", "sync")
#: Largest stdin accepted from Claude Code.
MAX_STDIN = 4 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab hook``."""
    parser.add_argument("event", choices=EVENTS, help="hook event")
    parser.add_argument(
        "--spec", help="memlab-hook.json (default: $MEMLAB_SPEC, else the spec installed here, else built-in defaults)"
    )
    parser.add_argument("--project", help="repository (default: the cwd in the hook JSON, else the current dir)")
    parser.add_argument("--time-budget", type=float, default=None, help="seconds before session-start gives up")
    parser.add_argument("--namespace", help="capture: namespace (decisions, learnings, progress, ...)")
    parser.add_argument("--summary", help="capture: one-line summary")
    parser.add_argument("--content", help="capture: body (markdown)")
    parser.add_argument("--tags", default="", help="capture: comma-separated tags")
    parser.add_argument("--remote", default="origin", help="sync-config, sync: the remote")
    parser.add_argument("--no-push", action="store_true", help="sync: fetch and merge only")


#: Events :func:`fast_args` parses (the Claude Code hooks, run on every session start and stop).
FAST_EVENTS = ("session-start", "stop", "session-end")
#: Options :func:`fast_args` accepts, each with one value: option -> attribute.
FAST_OPTIONS = {"--spec": "spec", "--project": "project", "--time-budget": "time_budget"}


def fast_args(argv: list[str]) -> argparse.Namespace | None:
    """``memlab hook`` arguments of an event hook parsed without :mod:`argparse`, or ``None``.

    Accepts exactly ``EVENT [--spec S] [--project P] [--time-budget T]`` (each option at most once, as
    ``--opt value``) with ``EVENT`` in :data:`FAST_EVENTS`; anything else (``--opt=value``, ``--help``, an
    unknown option, a missing value, a bad number) returns ``None`` so that the full parser handles it
    and reports errors as usual.

    Args:
        argv: The arguments after ``hook``.

    Returns:
        A namespace with every attribute :func:`add_arguments` defines, or ``None``.
    """
    from types import SimpleNamespace

    if not argv or argv[0] not in FAST_EVENTS or len(argv) % 2 == 0:
        return None
    values: dict[str, object] = {}
    for option, value in zip(argv[1::2], argv[2::2], strict=True):
        name = FAST_OPTIONS.get(option)
        if name is None or name in values or value.startswith("-"):
            return None
        values[name] = value
    if "time_budget" in values:
        try:
            values["time_budget"] = float(str(values["time_budget"]))
        except ValueError:
            return None
    ns = SimpleNamespace(event=argv[0], spec=None, project=None, time_budget=None, namespace=None, summary=None)
    ns.__dict__.update(content=None, tags="", remote="origin", no_push=False, **values)
    return ns  # type: ignore[return-value]


def _read_payload() -> dict:
    raw = sys.stdin.buffer.read(MAX_STDIN + 1) if not sys.stdin.isatty() else b""
    if len(raw) > MAX_STDIN:
        raise ValueError("hook input larger than 4 MiB")
    if not raw.strip():
        return {}
    try:
        payload = json.loads(raw.decode("utf-8", "replace"))
    except RecursionError:
        raise ValueError("hook input nested too deeply") from None
    if not isinstance(payload, dict):
        raise ValueError("hook input is not a JSON object")
    return payload


def _cwd(payload: dict) -> str | None:
    """The event's ``cwd`` when it is a non-empty text (anything else is ignored: the process cwd is used)."""
    cwd = payload.get("cwd")
    return cwd if isinstance(cwd, str) and cwd and "\x00" not in cwd else None


def _memlab_dir(payload: dict, project: str | None):
    from memlab.adapter.repo import find_repo

    for where in (project or _cwd(payload), os.getcwd()):
        try:
            return find_repo(where or os.getcwd()).memlab_dir
        except Exception:
            continue
    return None


def _guarded(args: argparse.Namespace, event: str) -> int:
    """Run a Claude Code event hook: never raises, always exits 0."""
    payload: dict = {}
    budget = args.time_budget if args.time_budget is not None else float(os.environ.get("MEMLAB_HOOK_BUDGET", 3.0))

    def _alarm(signum, frame):
        # Exit from the handler itself: an exception raised here could land in a finaliser or an
        # ``except Exception`` and be swallowed, and the hook would go on past its budget.
        target = _memlab_dir(payload, args.project)
        if target is not None:
            from memlab.adapter.state import log_line

            log_line(target, f"{event} failed: time guard: gave up after {budget:.3f} s")
        os._exit(0)

    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(budget, 1e-6))
        try:
            payload = _read_payload()
        except ValueError as exc:
            raise ValueError(f"stdin is not a hook JSON object ({str(exc)[:80]})") from None  # never its text
        out = _dispatch(args, event, payload, budget)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if out:
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
            sys.stdout.flush()
    except Exception as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        target = _memlab_dir(payload, args.project)
        if target is not None:
            from memlab.adapter.state import log_line

            log_line(target, f"{event} failed: {type(exc).__name__}: {exc}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return 0


def _dispatch(args: argparse.Namespace, event: str, payload: dict, budget: float) -> dict | None:
    from memlab.adapter.repo import find_repo
    from memlab.adapter.spec import resolve_spec
    from memlab.adapter.state import clock

    repo = find_repo(args.project or _cwd(payload) or os.getcwd())
    if args.spec or os.environ.get("MEMLAB_SPEC"):
        spec = resolve_spec(args.spec, repo=repo)  # refused when it lies inside the repository
    else:
        from memlab.adapter.installed_spec import choose_spec

        spec = choose_spec(None, repo)[0]
    if args.time_budget is None and "MEMLAB_HOOK_BUDGET" not in os.environ:  # the spec's own budget
        budget = float(spec["hook"]["time_budget_seconds"])
        signal.setitimer(signal.ITIMER_REAL, max(0.001, budget - (time.monotonic() - _STARTED)))
    if event == "session-start":
        from memlab.adapter.session import session_start

        # raw notes (first session only) may use half of what is left of the budget
        deadline = time.monotonic() + max(0.05, 0.5 * (budget - (time.monotonic() - _STARTED)))
        return session_start(payload, repo, spec, clock(), deadline)
    from memlab.adapter.freshness import moved
    from memlab.adapter.session import claim_start, spawn_consolidation
    from memlab.adapter.state import CACHE_FILE, log_line, read_json
    from memlab.adapter.triggers import due

    ok, _reason = due(repo, spec, clock())
    min_new = int(spec["hook"]["consolidate_min_new"])
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    which = f"policy {spec.get('path') or 'built-in default'}"
    if isinstance(cache, dict) and moved(repo, cache, confirm=False) is not None:  # what this session captured
        spawn_consolidation(repo, spec.get("path"), min_new=min_new if ok else None, incremental=True)
        log_line(repo.memlab_dir, f"{event}: incremental consolidation started ({which})")
    elif ok and claim_start(repo, float(spec["hook"]["consolidate_min_interval_seconds"])):
        spawn_consolidation(repo, spec.get("path"), min_new=min_new)
        log_line(repo.memlab_dir, f"{event}: background consolidation started ({which})")
    return None


def _capture(args: argparse.Namespace) -> int:
    from memlab.adapter.gitcli import find_repo
    from memlab.adapter.notes_store import append_memory
    from memlab.adapter.state import clock
    from memlab.core.errors import MemlabError

    payload: dict = {}
    if args.summary is None:
        try:
            payload = _read_payload()
        except ValueError as exc:
            raise MemlabError(f"capture reads --summary/--content or a JSON object on stdin: {exc}") from None
    namespace = args.namespace or payload.get("namespace") or "progress"
    summary = args.summary if args.summary is not None else payload.get("summary") or ""
    content = args.content if args.content is not None else payload.get("content") or ""
    tags = [t.strip() for t in args.tags.split(",") if t.strip()] or payload.get("tags") or []
    cwd = payload.get("cwd")
    if not isinstance(tags, list) or not isinstance(cwd, str | None):
        raise MemlabError("capture JSON: tags must be a list of text and cwd a path")
    repo = find_repo(args.project or cwd or os.getcwd())
    mid = append_memory(repo, namespace, summary, content, timestamp=clock(), tags=tuple(tags))
    print(mid)
    return 0


def run(args: argparse.Namespace) -> int:
    """Dispatch one hook event."""
    if args.event == "capture":
        return _capture(args)
    if args.event in ("sync-config", "sync"):
        from memlab.adapter.gitcli import find_repo
        from memlab.adapter.sync import sync, sync_config

        repo = find_repo(args.project or os.getcwd())
        if args.event == "sync-config":
            lines = sync_config(repo, args.remote)
        else:
            lines = sync(repo, args.remote, push=not args.no_push)
        for line in lines:
            print(line)
        return 0
    return _guarded(args, args.event)
