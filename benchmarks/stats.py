"""What every benchmark script computes from its samples."""

from __future__ import annotations


def percentile(samples: list[float], q: float) -> float:
    """The sample at quantile `q` (0-1) of the sorted samples (nearest rank, no interpolation)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]
