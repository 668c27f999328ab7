"""Per-second load counts of a Daphne process under bench/capacity.py (not the product's).

    LOAD_LOG_DIR=/tmp/load BENCH_TIMELINE=/tmp/timeline.jsonl \
    PYTHONPATH=bench/load_counts:. .venv/bin/python bench/capacity.py ...
    .venv/bin/python bench/load_timeline.py /tmp/load /tmp/timeline.jsonl

Python imports this file at start-up when its folder is on PYTHONPATH (`sitecustomize`);
it does anything only when LOAD_LOG_DIR is set. It wraps Channels' database_sync_to_async
so that each process writes, a JSON line a second, to LOAD_LOG_DIR/<pid>.jsonl: per
function run that way ("db:" in the one database thread, "pool:" in another executor)
[calls, total ms waited from the call to its start in its thread, the longest wait, total
ms run]; the database thread's longest queue (`dbq_max`); the event loop's longest lag
over a 10 ms sleep (`lag_ms`); the process's CPU ms in the second (`cpu_ms`). A
BENCH_BEFORE tree's servers get its own PYTHONPATH, so they are not counted."""

import os

if os.environ.get("LOAD_LOG_DIR"):
    import asyncio
    import collections
    import contextvars
    import json
    import threading
    import time

    import channels.db as _cdb

    _DIR = os.environ["LOAD_LOG_DIR"]
    _rec = contextvars.ContextVar("_load_rec", default=None)
    _lock = threading.Lock()
    _bins = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0]))
    _extra = collections.defaultdict(lambda: {"dbq_max": 0, "lag_max": 0.0})
    _state = {"dbq": 0, "started": False}

    def _name(fn):
        f = getattr(fn, "func", fn)
        return getattr(f, "__qualname__", repr(f))

    _orig_call = _cdb.DatabaseSyncToAsync.__call__
    _orig_th = _cdb.DatabaseSyncToAsync.thread_handler

    async def _call(self, *a, **k):
        if not _state["started"]:
            _state["started"] = True
            asyncio.ensure_future(_lag_probe())
            threading.Thread(target=_flusher, daemon=True).start()
        key = ("db:" if self._thread_sensitive else "pool:") + _name(self.func)
        rec = {"submit": time.monotonic(), "key": key, "ts": self._thread_sensitive}
        if self._thread_sensitive:
            with _lock:
                _state["dbq"] += 1
                sec = int(time.time())
                _extra[sec]["dbq_max"] = max(_extra[sec]["dbq_max"], _state["dbq"])
        token = _rec.set(rec)
        try:
            return await _orig_call(self, *a, **k)
        finally:
            _rec.reset(token)

    def _th(self, loop, exc_info, task_context, func, *a, **k):
        rec = None
        for cell in func.__closure__ or ():
            c = cell.cell_contents
            if isinstance(c, contextvars.Context):
                rec = c.get(_rec)
        start = time.monotonic()
        if rec is not None and rec["ts"]:
            with _lock:
                _state["dbq"] -= 1
        try:
            return _orig_th(self, loop, exc_info, task_context, func, *a, **k)
        finally:
            if rec is not None:
                end = time.monotonic()
                with _lock:
                    b = _bins[int(time.time())][rec["key"]]
                    b[0] += 1
                    b[1] += start - rec["submit"]
                    b[2] = max(b[2], start - rec["submit"])
                    b[3] += end - start

    _cdb.DatabaseSyncToAsync.__call__ = _call
    _cdb.DatabaseSyncToAsync.thread_handler = _th

    async def _lag_probe():
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.01)
            lag = time.monotonic() - t - 0.01
            sec = int(time.time())
            with _lock:
                _extra[sec]["lag_max"] = max(_extra[sec]["lag_max"], lag)

    def _flusher():
        path = os.path.join(_DIR, f"{os.getpid()}.jsonl")
        cpu = time.process_time()
        with open(path, "a") as out:
            while True:
                time.sleep(1)
                now = int(time.time())
                c = time.process_time()
                with _lock:
                    done = sorted(s for s in set(_bins) | set(_extra) if s < now)
                    rows = []
                    for s in done:
                        b = _bins.pop(s, {})
                        e = _extra.pop(s, {"dbq_max": 0, "lag_max": 0.0})
                        rows.append(
                            {
                                "t": s,
                                "dbq_max": e["dbq_max"],
                                "lag_ms": round(e["lag_max"] * 1000, 1),
                                "f": {
                                    k: [
                                        v[0],
                                        round(v[1] * 1000, 1),
                                        round(v[2] * 1000, 1),
                                        round(v[3] * 1000, 1),
                                    ]
                                    for k, v in b.items()
                                },
                            }
                        )
                if rows:
                    rows[-1]["cpu_ms"] = round((c - cpu) * 1000)
                cpu = c
                for r in rows:
                    out.write(json.dumps(r) + "\n")
                out.flush()
