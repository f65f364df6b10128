"""Server-Sent Events: the page's live feed (a snapshot first, then updates)."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, stream_with_context

from web_ui import get_referee
from web_ui.blueprints.api import _session_arg

bp = Blueprint("stream", __name__, url_prefix="/api")


def _message(kind: str, data: Any, ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@bp.get("/stream")
def stream() -> Response:
    """`text/event-stream`: `snapshot` at once, then `update`, `status` and `reset` messages,
    and a comment every few seconds to keep the connection open."""
    runner = get_referee().runner(_session_arg())
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    subscription = runner.broadcaster.subscribe()
    first = runner.snapshot()

    def events() -> Iterator[str]:
        try:
            yield "retry: 2000\n" + _message("snapshot", first)
            while True:
                try:
                    msg = subscription.get(timeout=keepalive)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if msg is None:
                    yield _message("bye", {})
                    return
                ident, kind, data = msg
                yield _message(kind, data, ident)
        finally:
            runner.broadcaster.unsubscribe(subscription)

    resp = Response(stream_with_context(events()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
