"""Rule options: the RULES.md decisions marked (option), as a settings value, never globals."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Options:
    #: R-TEL-3 (option): when False (the default decision) the centre room counts as "no platform"
    #: and a Strigoi never teleports into it; when True it lands on the centre room's centre.
    centre_room_is_destination: bool = False
    #: R-RND-2 (option): equal initiative is broken by seat order (the later seat counts as the
    #: higher initiative for R-LOS-2). When False a tie stays a tie and the earlier seat is taken.
    seat_order_breaks_ties: bool = True

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


__all__ = [
    "Options",
]
