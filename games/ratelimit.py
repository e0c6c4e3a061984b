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
    refused: int = 0  # refusals since the last allowed message

    def allow(self, now: float) -> bool:
        """Return whether a message arriving at `now` (seconds) may be handled."""
        if self.updated:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False
