"""The board hardware as the app sees it: the health view, and the simulated board that stands in
for real nodes when there are none (the embedded default of `./setup.sh run`)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from firmware_bridge.bridge import Bridge


@dataclass(frozen=True)
class NodeRow:
    node: str
    kind: str
    online: bool
    seen_s_ago: float | None
    rtt_ms: float | None
    acked: int
    errors: dict[str, int]
    source: str | None


@dataclass(frozen=True)
class HealthView:
    nodes: list[NodeRow]
    dropped: dict[str, int] = field(default_factory=dict)  # refused input, by reason

    def lines(self) -> list[str]:
        out = [f"{'node':9} {'kind':12} {'state':8} {'seen':>8} {'round trip':>11}  errors"]
        for row in self.nodes:
            seen = "never" if row.seen_s_ago is None else f"{row.seen_s_ago:.1f}s ago"
            rtt = "-" if row.rtt_ms is None else f"{row.rtt_ms:.2f} ms"
            errors = ", ".join(f"{k} {v}" for k, v in sorted(row.errors.items())) or "none"
            state = "online" if row.online else "offline"
            out.append(f"{row.node:9} {row.kind:12} {state:8} {seen:>8} {rtt:>11}  {errors}")
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items())) or "none"
        out.append(f"refused input: {dropped}")
        return out


def health_view(bridge: Bridge) -> HealthView:
    now = time.monotonic()
    rows = [
        NodeRow(
            node=h.node,
            kind=h.kind,
            online=h.online,
            seen_s_ago=None if h.last_seen is None else now - h.last_seen,
            rtt_ms=h.rtt_ms,
            acked=h.acked,
            errors=dict(h.errors),
            source=h.source,
        )
        for h in bridge.health()
    ]
    dropped: Counter[str] = Counter(bridge.drops.counts)
    link_drops = getattr(bridge.link, "drops", None)
    if link_drops is not None and link_drops is not bridge.drops:
        dropped.update(link_drops.counts)
    return HealthView(rows, dict(dropped))
