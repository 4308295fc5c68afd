"""`armata-transcript/1`: whole games as a table plays them, replayed step by step
(docs/transcripts.md)."""

from companion.transcript.export import dumps, export_game, transcript_of
from companion.transcript.replay import Outcome, replay_bytes, replay_file, run

__all__ = ["Outcome", "dumps", "export_game", "replay_bytes", "replay_file", "run", "transcript_of"]
