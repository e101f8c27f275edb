"""The span tree of a run: phases and strategy calls with counts and durations (``trace.enabled``).

:func:`span` (a context manager) and :func:`traced` (a decorator) open a span under the current one; spans
of the same name under the same parent are aggregated into one node (count, total, min, max and a
log-spaced histogram of durations), so a judge called 50,000 times is one node, not 50,000 records.
:func:`instrument` wraps the public methods of a run's strategy objects so that every strategy call is
counted under the phase that made it. Everything is a no-op (one global read) unless :func:`start` was
called; :func:`finish` writes ``trace.json`` into the run's folder, hands the tree to the tracker
(an MLflow trace linked to the run) and, with ``trace.otlp_endpoint``, exports it over OTLP/HTTP.

Imports nothing from memlab above it; OpenTelemetry is imported only when exporting.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from math import log10
from pathlib import Path
from time import perf_counter
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger("memlab.observability.trace")

#: Histogram bins per decade of microseconds (bin ``b`` holds durations in [10^(b/4), 10^((b+1)/4)) µs).
BINS_PER_DECADE = 4


class Node:
    """One aggregated span: every call of ``name`` under the same parent path."""

    __slots__ = ("children", "count", "counts", "first_ns", "hist", "max", "min", "name", "seconds")

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0
        self.seconds = 0.0
        self.min = math.inf
        self.max = 0.0
        self.first_ns = 0
        self.hist: dict[int, int] = {}
        self.children: dict[str, Node] = {}
        self.counts: dict[str, float] = {}

    def add(self, seconds: float) -> None:
        """Record one call of ``seconds``."""
        self.count += 1
        self.seconds += seconds
        if seconds < self.min:
            self.min = seconds
        if seconds > self.max:
            self.max = seconds
        b = int(BINS_PER_DECADE * log10(seconds * 1e6)) if seconds > 1e-6 else 0
        hist = self.hist
        hist[b] = hist.get(b, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        """JSON form (children in first-call order; ``counts`` only when :func:`record` gave some)."""
        extra = {"counts": dict(self.counts)} if self.counts else {}
        return {
            **extra,
            "name": self.name,
            "count": self.count,
            "seconds": self.seconds,
            "min": 0.0 if self.count == 0 else self.min,
            "max": self.max,
            "first_ns": self.first_ns,
            "hist": {str(k): v for k, v in sorted(self.hist.items())},
            "children": [c.to_dict() for c in sorted(self.children.values(), key=lambda n: n.first_ns)],
        }


class Tracer:
    """The span stack and tree of one run."""

    def __init__(self, name: str = "run") -> None:
        self.root = Node(name)
        self.root.first_ns = time.time_ns()
        self.t0 = time.perf_counter()
        self.stack: list[Node] = [self.root]

    def child(self, name: str) -> Node:
        """The current span's child ``name``, created on first use."""
        parent = self.stack[-1]
        node = parent.children.get(name)
        if node is None:
            node = parent.children[name] = Node(name)
            node.first_ns = time.time_ns()
        return node

    def enter(self, name: str) -> Node:
        """Open ``name`` under the current span."""
        node = self.child(name)
        self.stack.append(node)
        return node

    def exit(self, node: Node, seconds: float) -> None:
        """Close ``node`` after ``seconds``."""
        node.add(seconds)
        if self.stack and self.stack[-1] is node:
            self.stack.pop()

    def close(self) -> dict[str, Any]:
        """Close the root and return the tree."""
        self.root.add(time.perf_counter() - self.t0)
        return self.root.to_dict()


_TRACER: Tracer | None = None


class _Span:
    __slots__ = ("name", "node", "t0", "tracer")

    def __init__(self, tracer: Tracer, name: str) -> None:
        self.tracer = tracer
        self.name = name

    def __enter__(self) -> _Span:
        self.node = self.tracer.enter(self.name)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.tracer.exit(self.node, time.perf_counter() - self.t0)


class _NullSpan:
    __slots__ = ()

    def __enter__(self) -> _NullSpan:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


_NULL = _NullSpan()


def enabled() -> bool:
    """Whether a tracer is recording."""
    return _TRACER is not None


def span(name: str) -> Any:
    """Context manager timing a block as span ``name`` under the current span (no-op when not recording)."""
    tracer = _TRACER
    return _NULL if tracer is None else _Span(tracer, name)


def traced(name: str) -> Callable[[F], F]:
    """Decorator: every call of the function is span ``name`` under the current span."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            tracer = _TRACER
            if tracer is None:
                return fn(*args, **kwargs)
            stack = tracer.stack
            node = stack[-1].children.get(name) or tracer.child(name)
            stack.append(node)
            t0 = perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                node.add(perf_counter() - t0)
                stack.pop()

        wrapper.__memlab_traced__ = True  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def record(name: str, seconds: float, counts: Mapping[str, float]) -> None:
    """Record one finished call of ``seconds`` as span ``name`` under the current span and add ``counts``
    (e.g. an LLM call's tokens) to the span's totals (no-op when not recording).
    """
    tracer = _TRACER
    if tracer is None:
        return
    node = tracer.child(name)
    node.add(seconds)
    for key, value in counts.items():
        node.counts[key] = node.counts.get(key, 0.0) + float(value)


def kind_methods(obj: Any, base: str) -> tuple[str, ...]:
    """The public methods that the class named ``base`` (a kind's base class, :data:`memlab.core.groups.BASES`) defines,
    required and optional alike, read from ``obj``'s class: the kind's one definition is the list traced.
    """
    for cls in type(obj).__mro__:
        if f"{cls.__module__}.{cls.__qualname__}" == base:
            return tuple(n for n, v in vars(cls).items() if callable(v) and not n.startswith("_"))
    return ()


def instrument(components: Any, groups: Sequence[str]) -> int:
    """Wrap every method of the kind's base class on each group's strategy object so that every call the pipeline
    makes is a span ``group.method``; calls a strategy makes to its own helpers are not.

    Methods are wrapped on the instance (the object keeps its class, attributes and signature); a wrapper records
    only while a tracer runs, and an already wrapped method is left alone. Returns the number of methods wrapped.
    """
    from memlab.core.groups import BASES

    wrapped = 0
    for group in groups:
        obj = getattr(components, group, None)
        for attr in kind_methods(obj, BASES.get(group, "")):
            method = getattr(obj, attr)
            if not getattr(method, "__memlab_traced__", False):
                setattr(obj, attr, traced(f"{group}.{attr}")(method))
                wrapped += 1
    return wrapped


def start(settings: Mapping[str, Any] | None) -> Tracer | None:
    """Start recording when ``settings["enabled"]`` (default on); returns the tracer or ``None``."""
    global _TRACER
    if not (settings or {}).get("enabled", True):
        _TRACER = None
        return None
    _TRACER = Tracer()
    return _TRACER


def stop() -> dict[str, Any] | None:
    """Stop recording; the tree, or ``None`` when nothing was recorded."""
    global _TRACER
    tracer, _TRACER = _TRACER, None
    return tracer.close() if tracer is not None else None


def finish(
    folder: Path, tracker: Any = None, settings: Mapping[str, Any] | None = None, run_id: str | None = None
) -> dict[str, Any] | None:
    """Stop recording; write ``trace.json``; give the tree to ``tracker.log_trace``; export it over OTLP.

    Export problems are logged (a run never fails because a collector is down).
    """
    tree = stop()
    if tree is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trace.json").write_text(json.dumps(tree, indent=1) + "\n", encoding="utf-8")
    for child in tree["children"]:
        log.debug("span", extra={"span": child["name"], "seconds": child["seconds"], "count": child["count"]})
    if tracker is not None:  # a Tracker (memlab.tracking.base): NullTracker ignores the tree
        try:
            tracker.log_trace(tree)
        except Exception as exc:
            log.warning("could not record the trace in the tracker: %s", exc)
    endpoint = (settings or {}).get("otlp_endpoint")
    if endpoint:
        try:
            export_otlp(tree, str(endpoint), {"memlab.run_id": run_id or ""})
        except Exception as exc:
            log.warning("could not export the trace to %s: %s", endpoint, exc)
    return tree


def layout(tree: Mapping[str, Any]) -> list[tuple[int, int | None, Mapping[str, Any], int, int]]:
    """Spans with times for exporters: ``(index, parent index, node, start_ns, end_ns)`` in tree order.

    An aggregated node starts at its first call and lasts its total time, clipped to its parent's end.
    """
    out: list[tuple[int, int | None, Mapping[str, Any], int, int]] = []

    def visit(node: Mapping[str, Any], parent: int | None, lo: int, hi: int | None) -> None:
        start_ns = max(int(node.get("first_ns") or lo), lo)
        end_ns = start_ns + int(float(node["seconds"]) * 1e9)
        if hi is not None:
            start_ns, end_ns = min(start_ns, hi), min(end_ns, hi)
        index = len(out)
        out.append((index, parent, node, start_ns, end_ns))
        for child in node.get("children", []):
            visit(child, index, start_ns, end_ns)

    visit(tree, None, int(tree.get("first_ns") or 0), None)
    return out


def attributes(node: Mapping[str, Any]) -> dict[str, Any]:
    """Span attributes of an aggregated node."""
    count = int(node["count"])
    return {
        "memlab.count": count,
        "memlab.total_s": float(node["seconds"]),
        "memlab.mean_s": float(node["seconds"]) / count if count else 0.0,
        "memlab.min_s": float(node["min"]),
        "memlab.max_s": float(node["max"]),
        **{f"memlab.{k}": float(v) for k, v in (node.get("counts") or {}).items()},
    }


def export_otlp(tree: Mapping[str, Any], endpoint: str, resource: Mapping[str, str] | None = None) -> int:
    """Send the tree to an OTLP/HTTP collector (``http://host:4318/v1/traces``); returns spans sent."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.trace import set_span_in_context

    provider = TracerProvider(resource=Resource.create({"service.name": "memlab", **dict(resource or {})}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=endpoint, timeout=10)))
    otel = provider.get_tracer("memlab")
    spans: dict[int, Any] = {}
    ends: list[tuple[Any, int]] = []
    for index, parent, node, start_ns, end_ns in layout(tree):
        context = set_span_in_context(spans[parent]) if parent is not None else None
        spans[index] = otel.start_span(node["name"], context=context, start_time=start_ns, attributes=attributes(node))
        ends.append((spans[index], end_ns))
    for s, end_ns in reversed(ends):
        s.end(end_time=end_ns)
    provider.force_flush()
    provider.shutdown()
    return len(ends)
