"""A stub OpenAI-compatible chat-completions server on 127.0.0.1 for tests of LLM-backed strategies.

It answers every ``POST /v1/chat/completions`` (and ``/chat/completions``) with the next scripted reply,
or with ``responder(messages)`` when a function is given. A reply is the message text, or a dict
``{"content": ..., "status": 401, "prompt_tokens": 7, "completion_tokens": 3}`` (a status other than 200
answers an OpenAI-style error body instead; the token counts default to the server's ``prompt_tokens`` and
``completion_tokens``). ``GET /v1/models`` lists one model, ``served``. The last scripted reply repeats. It
records the requests it got. No accuracy is ever reported from it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StubOpenAI:
    """Context manager running the stub server on a free loopback port."""

    def __init__(
        self,
        replies: list[str | dict[str, Any]] | None = None,
        responder: Callable[[list[dict]], str | dict[str, Any]] | None = None,
        prompt_tokens: int = 1,
        completion_tokens: int = 1,
        served: str = "stub-model",
    ):
        self.replies = list(replies or [])
        self.responder = responder
        self.prompt_tokens = prompt_tokens
        self.completion_tokens = completion_tokens
        self.served = served
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def _next(self, messages: list[dict]) -> str | dict[str, Any]:
        with self._lock:
            if self.responder is not None:
                return self.responder(messages)
            if len(self.replies) > 1:
                return self.replies.pop(0)
            return self.replies[0] if self.replies else ""

    def __enter__(self) -> StubOpenAI:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # /v1/models: what the server says it serves
                entry = {"id": stub.served, "object": "model", "created": len(stub.requests), "owned_by": "memlab-test"}
                data = json.dumps({"object": "list", "data": [entry]}).encode()
                self.send_response(200 if self.path.rstrip("/").endswith("/models") else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append(body)
                reply = stub._next(body.get("messages", []))
                spec = reply if isinstance(reply, dict) else {"content": reply}
                status = int(spec.get("status", 200))
                content = str(spec.get("content", ""))
                prompt_tokens = int(spec.get("prompt_tokens", stub.prompt_tokens))
                completion_tokens = int(spec.get("completion_tokens", stub.completion_tokens))
                error = {"error": {"message": content or f"stub status {status}", "type": "stub_error", "code": status}}
                payload = (
                    error
                    if status != 200
                    else {
                        "id": f"stub-{len(stub.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "stub"),
                        "choices": [
                            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": completion_tokens,
                            "total_tokens": prompt_tokens + completion_tokens,
                        },
                    }
                )
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def llm_config(self, **extra: Any) -> dict[str, Any]:
        """An ``llm`` config mapping pointing at this server: no cache, no retries, and ``on_error=fallback``
        (tests of a strategy's stand-in; pass ``on_error="fail"`` to test that a failure stops the run)."""
        return {
            "model": "openai/stub-model",
            "api_base": self.base_url,
            "api_key": "stub",
            "cache": False,
            "num_retries": 0,
            "malformed_retries": 0,
            "on_error": "fallback",
            "temperature": 0.0,
            "max_tokens": 256,
            **extra,
        }
