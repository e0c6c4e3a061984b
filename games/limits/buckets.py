"""A token bucket per connection: bursts are fine, floods are refused and then cut off."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TokenBucket:
    """Allows `rate` messages a second on average and bursts of up to `burst`."""

    rate: float = 8.0
    burst: float = 16.0
    tokens: float = 16.0
    updated: float = 0.0
    # Refusals since the last pause of `forgive` seconds without one. Not "since the last
    # allowed message": a steady flood gets a token back every 1/rate s, which used to reset
    # the count, so fifty messages a second were refused forever and never cut off.
    refused: int = 0
    forgive: float = 2.0
    last_refusal: float = 0.0

    def allow(self, now: float) -> bool:
        """Return whether a message arriving at `now` (seconds) may be handled."""
        if self.updated:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.refused and now - self.last_refusal > self.forgive:
            self.refused = 0
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        self.last_refusal = now
        return False


# A resume costs a query, often a whole snapshot of the room: far more than any other message.
# A page asks for one only on a gap in the event numbers, at most every three seconds
# (static/js/socket.js), so this never refuses a real page; a socket sending resumes
# seven times a second is refused, and cut off like any other flood.
RESUMES_PER_SECOND = 0.5
RESUME_BURST = 4.0


def resume_bucket() -> TokenBucket:
    """Return a new bucket for one socket's resume messages (the stricter limit)."""
    return TokenBucket(rate=RESUMES_PER_SECOND, burst=RESUME_BURST, tokens=RESUME_BURST)


# A hint costs a write and a pass over the round's solution, and a player has no use for two
# a second: a page asks for one per click. A burst of 3 (both kinds, and one again) then one
# every two seconds; more are answered rate_limited, charged nothing, and a flood is cut off.
HINTS_PER_SECOND = 0.5
HINT_BURST = 3.0


def hint_bucket() -> TokenBucket:
    """Return a new bucket for one socket's hint requests."""
    return TokenBucket(rate=HINTS_PER_SECOND, burst=HINT_BURST, tokens=HINT_BURST)
