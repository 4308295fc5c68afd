"""`python -m companion replay FILE|DIR... [--json]`: play transcripts step by step.

Each transcript stops at its first refused step (unless the step expects the refusal) or its
first failed expectation. Text: `PASS <name> (<n> steps)`, or one line per problem:
`FAIL <file>: step <n>: <field>: expected <x>, got <y>` / `ERROR <file>: step <n>: <why>`, then
`N passed, M failed`. `--json`: one object per transcript. Exit status 0 only when at least one
transcript ran and all passed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from companion.app.announce import announcements, headline_of
from companion.engine.game import commands as c
from companion.engine.game.emitter import clone
from companion.engine.game.game import Game
from companion.errors import CompanionError, IllegalCommand, TranscriptError
from companion.jsonfiles import json_files
from companion.transcript.expect import check
from companion.transcript.model import Opened, decode
from companion.transcript.steps import COMMON, VERBS, Step, StepReader, verb_of


@dataclass
class Problem:
    step: int | None  # 1-based; None: the setup or the file itself
    field: str | None = None
    expected: Any = None
    actual: Any = None
    error: str | None = None  # a malformed transcript or an unexpected refusal

    def line(self, file: str) -> str:
        where = f"{file}: step {self.step}" if self.step is not None else file
        if self.error is not None:
            return f"ERROR {where}: {self.error}"
        expected = json.dumps(self.expected, ensure_ascii=False)
        actual = json.dumps(self.actual, ensure_ascii=False)
        return f"FAIL {where}: {self.field}: expected {expected}, got {actual}"


@dataclass
class Outcome:
    file: str
    name: str | None
    steps: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def replay_file(path: Path) -> Outcome:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return Outcome(str(path), None, problems=[Problem(None, error=f"cannot read: {exc}")])
    return replay_bytes(raw, str(path), path.parent)


def replay_bytes(raw: bytes, file: str, folder: Path | None = None) -> Outcome:
    try:
        transcript = decode(raw)
        opened = Opened(transcript, folder)
    except CompanionError as exc:
        return Outcome(file, None, problems=[Problem(None, error=str(exc))])
    outcome = Outcome(file, transcript.name)
    game = Game(opened.rules, [opened.started])
    for room, rotation in opened.turns:  # the table's platforms as set up (the wizard's fixes)
        game.execute(c.SetRotation(room=room, rotation=rotation))
    reader = StepReader(opened.rules, opened.names)
    for number, step in enumerate(transcript.steps, 1):
        outcome.steps = number
        problems = _play(game, reader, opened, step, number)
        if problems:
            outcome.problems = problems
            break
    return outcome


def _play(game: Game, reader: StepReader, opened: Opened, step: Step, n: int) -> list[Problem]:
    try:
        verb = verb_of(step)
        _check_fields(step, verb)
        headlines: list[str] = []
        if verb is not None:
            # the state before the step, only when its announcements are to be checked
            wants = isinstance(step.get("expect"), dict) and "announcement" in step["expect"]
            before = clone(game.state) if wants else None
            command = reader.command(step, game.state)
            refused = step.get("refused")
            try:
                events = game.execute(command)
            except IllegalCommand as exc:
                if refused is None or refused is False:
                    return [Problem(n, error=f"refused: {exc}")]
                if isinstance(refused, str) and refused not in str(exc):
                    return [Problem(n, "refused", refused, str(exc))]
                return _expectations(game, opened, step, n, headlines)
            if refused not in (None, False):
                return [Problem(n, "refused", refused, "accepted")]
            if before is not None:
                headlines = [
                    headline_of(a.reasons, str, opened.names.fact)
                    for a in announcements(opened.rules, before, events)
                ]
        return _expectations(game, opened, step, n, headlines)
    except TranscriptError as exc:
        return [Problem(n, error=str(exc))]


#: the fields of verbs and fixes (besides the verb itself)
FIELDS = ("stealth", "rewards", "mode", "source", "give", "take", "to", "strigoi", "room",
          "altar", "inferno", "token", "turn")  # fmt: skip


def _check_fields(step: Step, verb: str | None) -> None:
    if not isinstance(step, dict):
        raise TranscriptError("a step is an object")
    unknown = sorted(set(step) - {*VERBS, "fix", *COMMON, *FIELDS})
    if unknown:
        raise TranscriptError(
            f"unknown field {unknown[0]!r} (verbs: {', '.join(VERBS)}, fix; fields: "
            f"{', '.join((*COMMON, *FIELDS))})"
        )
    if verb is None and "expect" not in step:
        raise TranscriptError(
            f"the step names no verb (one of: {', '.join(VERBS)}, fix) and no expectation"
        )


def _expectations(
    game: Game, opened: Opened, step: Step, n: int, headlines: list[str]
) -> list[Problem]:
    if "expect" not in step:
        return []
    found = check(opened.rules, opened.names, game.state, step["expect"], headlines)
    return [Problem(n, f, want, got) for f, want, got in found]


def run(paths: list[str], as_json: bool, out: TextIO) -> int:
    passed = failed = 0
    for path in json_files(paths):
        outcome = replay_file(path)
        if as_json:
            out.write(json.dumps(_as_data(outcome), ensure_ascii=False) + "\n")
        elif outcome.ok:
            out.write(f"PASS {outcome.name} ({outcome.steps} steps)\n")
        else:
            for problem in outcome.problems:
                out.write(problem.line(outcome.file) + "\n")
        passed += outcome.ok
        failed += not outcome.ok
    if not as_json:
        out.write(f"{passed} passed, {failed} failed\n")
    return 0 if passed and not failed else 1


def _as_data(outcome: Outcome) -> dict[str, Any]:
    return {
        "file": outcome.file,
        "name": outcome.name,
        "ok": outcome.ok,
        "steps": outcome.steps,
        "problems": [
            {
                "step": p.step,
                "field": p.field,
                "expected": p.expected,
                "actual": p.actual,
                "error": p.error,
            }
            for p in outcome.problems
        ],
    }
