#!/usr/bin/env python3
"""Drive an agent loop through `condense serve`, with the standard library only.

The agent brings its own model: before each model call it asks the server to
render the request (compacting the history when the budget asks), sends that
request to its model, and appends the answer. Here the "model" is a stand-in
function; replace `call_model` with a real client call (the rendered request is
an OpenAI chat request body, ready to POST to /v1/chat/completions).

    condense serve --store jsonl:/tmp/condense-demo &
    python3 examples/python/agent_loop.py --url http://127.0.0.1:7878

Set CONDENSE_TOKEN when the server runs with --tokens.
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.request


class CondenseError(Exception):
    def __init__(self, status, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code = status, code


class Condense:
    def __init__(self, url, token=None):
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req) as resp:
                raw = resp.read()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            err = json.loads(e.read() or b"{}").get("error", {})
            raise CondenseError(e.code, err.get("code"), err.get("message")) from None


def text(role, s):
    return {"role": role, "parts": [{"type": "text", "text": s}]}


def call_model(request):
    """A stand-in model: answers with the size of what it was sent."""
    msgs = request["messages"]
    last = msgs[-1]["content"] if msgs else ""
    if isinstance(last, list):
        last = " ".join(p.get("text", "") for p in last)
    return f"I read {len(msgs)} messages; the last said: {last[:40]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:7878")
    ap.add_argument("--turns", type=int, default=12)
    args = ap.parse_args()
    c = Condense(args.url, os.environ.get("CONDENSE_TOKEN"))

    # A small window, so that compaction happens within a dozen turns.
    s = c.call("POST", "/v1/sessions", {
        "model": "gpt-4o", "window": 4000, "reserved_output": 500, "strategy": "pipeline",
        "system": "You are a helpful agent.",
        "messages": [dict(text("user", "The task: keep notes of every step."), pinned=True),
                     text("assistant", "Understood.")],
    })
    sid = s["id"]
    compactions = 0
    for turn in range(args.turns):
        note = f"step {turn}: measured p99 latency 4.{turn}ms in internal/queue/lease.go. " * 12
        c.call("POST", f"/v1/sessions/{sid}/messages", {"messages": [text("user", note)]})
        r = c.call("POST", f"/v1/sessions/{sid}/render", {"format": "openai"})
        for rec in r["compactions"]:
            compactions += 1
            print(f"turn {turn}: compacted with {rec['strategy']}: "
                  f"{rec['tokens_before']} -> {rec['tokens_after']} tokens (checkpoint {rec.get('checkpoint')})")
        answer = call_model(r["request"])
        c.call("POST", f"/v1/sessions/{sid}/messages", {"messages": [text("assistant", answer)]})

    snap = c.call("GET", f"/v1/sessions/{sid}")
    print(f"session {sid}: {snap['messages']} messages, next request "
          f"{snap['usage']['tokens']} tokens ({snap['usage']['percent']}% of the input limit), "
          f"{compactions} compaction(s)")
    try:
        c.call("POST", f"/v1/sessions/{sid}/compact", {"instructions": "keep the measurements"})
        print("manual compaction done")
    except CondenseError as e:
        if e.code != "nothing_to_compact":
            raise
        print("nothing to compact")
    return 0 if compactions > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
