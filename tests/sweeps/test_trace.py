"""The span tree: aggregation, no-op when off, strategy instrumentation, trace.json, OTLP export."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from memlab.observability import trace
from memlab.strategies.judge.base import JudgeBase


@pytest.fixture(autouse=True)
def _stopped():
    trace.stop()
    yield
    trace.stop()


def test_spans_aggregate_by_path_with_counts_and_histograms():
    trace.start({"enabled": True})
    for _ in range(3):
        with trace.span("consolidate"):
            with trace.span("cluster"):
                time.sleep(0.001)
            with trace.span("cluster"):
                pass
    with trace.span("recall"):
        pass
    tree = trace.stop()
    assert [c["name"] for c in tree["children"]] == ["consolidate", "recall"]
    consolidate = tree["children"][0]
    assert consolidate["count"] == 3
    cluster = consolidate["children"][0]
    assert cluster["name"] == "cluster" and cluster["count"] == 6 and sum(cluster["hist"].values()) == 6
    assert cluster["max"] >= 0.001 and cluster["seconds"] <= consolidate["seconds"]


def test_nothing_is_recorded_when_off():
    assert trace.start({"enabled": False}) is None
    with trace.span("x"):
        pass

    @trace.traced("f")
    def f(a, *, b=1):
        return a + b

    assert f(1, b=2) == 3
    assert trace.stop() is None


class Judge(JudgeBase):
    name = "toy"
    version = 1

    def judge(self, older, newer, similarity=None):
        return (older, newer, similarity)

    def observe(self, memories):
        return len(memories)


def test_instrument_counts_strategy_calls_and_keeps_signatures():
    import inspect
    from types import SimpleNamespace

    components = SimpleNamespace(judge=Judge())
    assert trace.instrument(components, ["judge"]) == 9  # every method of JudgeBase: judge_capture, withdrawals too
    assert trace.instrument(components, ["judge"]) == 0  # never wrapped twice
    assert isinstance(components.judge, Judge) and "similarity" in inspect.signature(components.judge.judge).parameters
    trace.start({})
    with trace.span("supersession"):
        for i in range(5):
            assert components.judge.judge(i, i + 1, similarity=0.5) == (i, i + 1, 0.5)
    tree = trace.stop()
    node = tree["children"][0]["children"][0]
    assert node["name"] == "judge.judge" and node["count"] == 5


def test_finish_writes_trace_json_and_hands_the_tree_to_the_tracker(tmp_path):
    got = {}

    class Tracker:
        def log_trace(self, tree):
            got["tree"] = tree

    trace.start({})
    with trace.span("benchmark"):
        pass
    tree = trace.finish(tmp_path, Tracker(), {})
    assert (tmp_path / "trace.json").is_file() and got["tree"] == tree


def test_export_over_otlp_http_to_a_local_collector():
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    bodies: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        trace.start({})
        with trace.span("consolidate"), trace.span("cluster"):
            pass
        tree = trace.stop()
        sent = trace.export_otlp(tree, f"http://127.0.0.1:{server.server_port}/v1/traces")
    finally:
        server.shutdown()
    assert sent == 3
    request = ExportTraceServiceRequest()
    for body in bodies:
        request.MergeFromString(body)
    spans = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    names = {s.name: s for s in spans}
    assert set(names) == {"run", "consolidate", "cluster"}
    assert names["cluster"].parent_span_id == names["consolidate"].span_id
    counts = {a.key: a.value.int_value for a in names["cluster"].attributes}
    assert counts["memlab.count"] == 1


def test_layout_keeps_children_inside_their_parent():
    tree = {
        "name": "run",
        "count": 1,
        "seconds": 1.0,
        "first_ns": 1000,
        "children": [{"name": "c", "count": 9, "seconds": 5.0, "first_ns": 2000, "children": []}],
    }
    (_, _, _, s0, e0), (_, parent, _, s1, e1) = trace.layout(tree)
    assert parent == 0 and s0 <= s1 <= e1 <= e0
