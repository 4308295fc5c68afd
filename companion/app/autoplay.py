"""`python -m companion.app.autoplay DB`: play random legal commands on a stored game, resuming
the last unfinished one; prints `ACK <game> <head>` after each committed command. Used by the
power-cut test (killed at random) and handy for soak runs."""

from __future__ import annotations

import argparse
import random
import sys

from companion.app.session.game import GameSession
from companion.store.gamelog import GameLog

SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3"), ("charles", "L4")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("db")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    with GameLog(args.db) as log:
        session = GameSession.resume(log)
        games = 0
        for _ in range(args.commands):
            if session is None or session.state.phase == "over":
                games += 1
                session = GameSession.start(log, args.seed * 1000 + games, SEATS)
            rng = random.Random(f"{args.seed}:{session.game_id}:{session.head}")
            session.execute(rng.choice(session.legal_commands()))
            print(f"ACK {session.game_id} {session.head}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
