"""A webhook receiver for the social-publishing API (docs/webhooks.md), Python 3.10+, standard
library only. Run it:  WEBHOOK_SECRET=whsec_... PORT=4000 python3 verify_webhook.py"""

import hashlib
import hmac
import json
import os
import re
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_SECONDS = 300


def verify_signature(raw_body: bytes, header: str | None, secret: str, now: int | None = None) -> bool:
    """True when `header` (the X-Webhook-Signature value) signs `raw_body` (the exact bytes
    received, before any JSON parsing) with `secret`, at a time within 300 s of now."""
    entries = [entry.strip().split("=", 1) for entry in (header or "").split(",") if "=" in entry]
    timestamps = [value for key, value in entries if key == "t"]
    signatures = [value for key, value in entries if key == "v1"]
    if len(timestamps) != 1 or not re.fullmatch(r"[0-9]+", timestamps[0]) or not signatures:
        return False
    timestamp = int(timestamps[0])
    now = int(time.time()) if now is None else now
    if abs(now - timestamp) > TOLERANCE_SECONDS:
        return False  # a replay, or a bad clock
    signed = f"{timestamp}.".encode() + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest().encode()
    # Constant time: hmac.compare_digest, on bytes (any length, any characters).
    return any(hmac.compare_digest(expected, candidate.encode()) for candidate in signatures)


def handle_delivery(raw_body, signature, secret, seen, on_event, now=None) -> int:
    """The HTTP status to answer. `seen` holds handled event ids: delivery is at least once, and
    a redelivery carries the same id. Keep them in your database in production."""
    if not verify_signature(raw_body, signature, secret, now):
        return 400
    event = json.loads(raw_body)
    if event["id"] in seen:
        return 200
    try:
        on_event(event)
    except Exception:
        return 500  # not handled: the service retries it later
    seen.add(event["id"])
    return 200


if __name__ == "__main__":
    secret = os.environ["WEBHOOK_SECRET"]
    seen: set[str] = set()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            raw_body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            status = handle_delivery(
                raw_body, self.headers.get("X-Webhook-Signature"), secret, seen,
                lambda event: print(event["createdAt"], event["type"], event["id"], event["data"]),
            )
            self.send_response(status)
            self.end_headers()

    HTTPServer(("", int(os.environ.get("PORT", "4000"))), Receiver).serve_forever()
