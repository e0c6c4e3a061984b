"""The figures the resilience tests measure, printed at the end of the run and kept in
var/resilience-figures.json for the operations guide."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILE = Path(__file__).resolve().parents[2] / "var" / "resilience-figures.json"
measured: dict[str, dict[str, Any]] = {}


def record(test: str, **figures: Any) -> None:
    """Keep a test's figures (rounded for reading)."""
    measured[test] = {
        name: round(value, 3) if isinstance(value, float) else value
        for name, value in figures.items()
    }


def save() -> None:
    """Write what this run measured over the same tests' figures of earlier runs."""
    if not measured:
        return
    try:
        earlier = json.loads(FILE.read_text())
    except (OSError, ValueError):
        earlier = {}
    FILE.parent.mkdir(parents=True, exist_ok=True)
    FILE.write_text(json.dumps({**earlier, **measured}, indent=1, sort_keys=True) + "\n")


def lines() -> list[str]:
    """Return the figures as lines for the terminal."""
    return [
        f"{test}: " + ", ".join(f"{name}={value}" for name, value in figures.items())
        for test, figures in sorted(measured.items())
    ]
