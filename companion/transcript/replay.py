"""`python -m companion replay FILE|DIR... [--json]`: play transcripts step by step.

Each transcript stops at its first refused step (unless the step expects the refusal) or its
first failed expectation. Text: `PASS <name> (<n> steps)`, or one line per problem:
`FAIL <file>: step <n>: <field>: expected <x>, got <y>` / `ERROR <file>: step <n>: <why>`, then
`N passed, M failed`. `--json`: one object per transcript. Exit status 0 only when at least one
transcript ran and all passed.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from companion.app.story.announce import announcements
from companion.app.story.headlines import headline_of
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.emitter import clone
from companion.engine.game.fold import apply
from companion.engine.game.game import Game
from companion.engine.game.registry import BY_TYPE
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
from companion.errors import CompanionError, IllegalCommand, TranscriptError
from companion.jsonfiles import json_files
from companion.transcript.expect import check
from companion.transcript.model import Opened, decode
from companion.transcript.names import key
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
    """One transcript, played: never raises (a broken transcript is this file's problem only)."""
    try:
        return replay_recorded(raw, file, folder)
    except CompanionError as exc:
        return Outcome(file, None, problems=[Problem(None, error=str(exc))])
    except Exception as exc:  # a bug of this program: reported for this file, the run goes on
        error = f"internal error: {type(exc).__name__}: {exc}"
        return Outcome(file, None, problems=[Problem(None, error=error)])


#: told each accepted command, its events and the state after it (`record`)
Recorder = Callable[[c.Command, list[e.Event], GameState], None]


def replay_recorded(
    raw: bytes,
    file: str,
    folder: Path | None,
    record: Callable[[Opened], Recorder] | None = None,
) -> Outcome:
    """`record`: given the opened transcript, returns what is told every accepted command
    (companion/transcript/into_log.py stores the game that way)."""
    try:
        transcript = decode(raw)
        opened = Opened(transcript, folder)
    except CompanionError as exc:
        return Outcome(file, None, problems=[Problem(None, error=str(exc))])
    outcome = Outcome(file, transcript.name)
    game = Game(opened.rules, [opened.started])
    if record is not None:
        _recorded(game, record(opened))
    for room, rotation in opened.turns:  # the table's platforms as set up (the wizard's fixes)
        game.execute(c.SetRotation(room=room, rotation=rotation))
    player = _Player(game, StepReader(opened.rules, opened.names), opened)
    for number, step in enumerate(transcript.steps, 1):
        outcome.steps = number
        try:
            problems = player.play(step, number)
        except TranscriptError as exc:
            problems = [Problem(number, error=str(exc))]
        except CompanionError as exc:
            problems = [Problem(number, error=f"{type(exc).__name__}: {exc}")]
        except Exception as exc:  # the engine failed on this step: this file's problem
            problems = [Problem(number, error=f"internal error: {type(exc).__name__}: {exc}")]
        if problems:
            outcome.problems = problems
            break
    return outcome


def _recorded(game: Game, recorder: Recorder) -> None:
    """Tell `recorder` every command `game` accepts, as it accepts it."""
    execute = game.execute

    def recorded(command: c.Command) -> list[e.Event]:
        events = execute(command)
        recorder(command, events, game.state)
        return events

    game.execute = recorded  # type: ignore[method-assign]


#: event kinds a `during` entry may name: the event's tag in words ("strigoi moved")
EVENT_NAMES = {
    tag.replace("_", " "): kind
    for kind in typing.get_args(e.AnyEvent)
    for tag in [kind.__struct_config__.tag]
    if isinstance(tag, str)
}


@dataclass
class Settled:
    """A decision the engine took because there was only one answer (or none)."""

    task: Task
    events: list[e.Event]


class _Player:
    """Plays the steps of one transcript on its game."""

    def __init__(self, game: Game, reader: StepReader, opened: Opened) -> None:
        self.game = game
        self.reader = reader
        self.opened = opened
        self.settled: list[Settled] = []  # since the last command played

    def play(self, step: Step, n: int) -> list[Problem]:
        verb = verb_of(step)
        _check_fields(step, verb)
        if verb is None:
            if "during" in step:
                raise TranscriptError("field 'during': only a step that does something has one")
            return self._expectations(step, n, [])
        if verb == "set up":
            commands = self.reader.set_up(step["set up"])
            events: list[e.Event] = []
            before = clone(self.game.state)
            for field, build in commands:
                try:
                    command = build(self.game.state)
                except TranscriptError as exc:
                    raise TranscriptError(f"field {field!r}: {exc}") from None
                result = self._execute(step, n, command)
                if isinstance(result, list):
                    for problem in result:  # which part of the set-up was refused
                        if problem.error is not None:
                            problem.error = f"field {field!r}: {problem.error}"
                    if result:
                        return result
                    return self._expectations(step, n, [])  # refused, as expected
                events += result[0]
            if step.get("refused") not in (None, False):
                return [Problem(n, "refused", step["refused"], "accepted")]
            return self._after(step, n, before, events, [])
        command = self.reader.command(step, self.game.state)
        wants = isinstance(step.get("expect"), dict) and "announcement" in step["expect"]
        before = clone(self.game.state)
        result = self._execute(step, n, command)
        if isinstance(result, list):
            return result or self._expectations(step, n, [])
        events = result[0]
        if step.get("refused") not in (None, False):
            return [Problem(n, "refused", step["refused"], "accepted")]
        headlines: list[str] = []
        if wants:
            headlines = [
                headline_of(a.reasons, str, self.opened.names.fact)
                for a in announcements(self.opened.rules, before, events)
            ]
        return self._after(step, n, before, events, headlines, command)

    def _execute(
        self, step: Step, n: int, command: c.Command
    ) -> tuple[list[e.Event]] | list[Problem]:
        """(events,) when accepted; [] when refused as the step expects; else the problems."""
        refused = step.get("refused")
        try:
            return (self.game.execute(command),)
        except IllegalCommand as exc:
            if self._settled_already(command):
                return (list[e.Event](),)  # the engine took this only choice itself
            if refused is None or refused is False:
                return [Problem(n, error=f"refused: {exc}")]
            if isinstance(refused, str) and refused not in str(exc):
                return [Problem(n, "refused", refused, str(exc))]
            return []

    def _settled_already(self, command: c.Command) -> bool:
        """A step naming the only legal choice, which the engine took by itself (it settles a
        decision nobody needs to take): accepted as that choice."""
        for i, done in enumerate(self.settled):
            task = done.task
            rule = BY_TYPE[type(task)]
            if type(command) not in rule.handlers:
                continue
            if task.hero is not None and getattr(command, "hero", None) != task.hero:
                continue
            if _same_choice(command, done.events):
                del self.settled[: i + 1]
                return True
        return False

    def _after(
        self,
        step: Step,
        n: int,
        before: GameState,
        events: list[e.Event],
        headlines: list[str],
        command: c.Command | None = None,
    ) -> list[Problem]:
        """Expectations along the automatic steps (`during`), then after them (`expect`); the
        decisions the engine settled by itself are remembered for the next steps."""
        if events:
            self.settled = self._settled(before, events, command)
        during = step.get("during")
        if during is not None:
            problems = self._during(during, before, events, n)
            if problems:
                return problems
        return self._expectations(step, n, headlines)

    def _settled(
        self, before: GameState, events: list[e.Event], command: c.Command | None
    ) -> list[Settled]:
        state = clone(before)
        found: list[Settled] = []
        since: list[e.Event] = []
        answered = command is None or isinstance(command, c.CORRECTIONS)
        for event in events:
            if isinstance(event, e.TaskDone) and state.tasks:
                task = state.tasks[0]
                if BY_TYPE[type(task)].auto is None:  # a decision
                    if answered:
                        found.append(Settled(task, [*since, event]))
                    answered = True  # the first decision done is the command's own
                since = []
            else:
                since.append(event)
            apply(state, event)
        return found

    def _during(
        self, during: object, before: GameState, events: list[e.Event], n: int
    ) -> list[Problem]:
        if not isinstance(during, list):
            raise TranscriptError("field 'during': a list of {'after': event, 'expect': {...}}")
        state = clone(before)
        pending = list(events)
        for i, entry in enumerate(during):
            where = f"during[{i}]"
            if (
                not isinstance(entry, dict)
                or set(entry) - {"after", "expect"}
                or ("after" not in entry or "expect" not in entry)
            ):
                raise TranscriptError(f'field {where!r}: {{"after": <event>, "expect": {{...}}}}')
            name = entry["after"]
            kind = EVENT_NAMES.get(key(name)) if isinstance(name, str) else None
            if kind is None:
                raise TranscriptError(
                    f"field '{where}.after': unknown event {name!r} "
                    f"(known: {', '.join(sorted(EVENT_NAMES))})"
                )
            while pending:
                event = pending.pop(0)
                apply(state, event)
                if isinstance(event, kind):
                    break
            else:
                return [Problem(n, f"{where}.after", name, "no such event (any more)")]
            try:
                found = check(self.opened.rules, self.opened.names, state, entry["expect"])
            except TranscriptError as exc:
                raise TranscriptError(f"{where}: {exc}") from None
            if found:
                return [Problem(n, f"{where}.{f}", want, got) for f, want, got in found]
        return []

    def _expectations(self, step: Step, n: int, headlines: list[str]) -> list[Problem]:
        if "expect" not in step:
            return []
        found = check(
            self.opened.rules, self.opened.names, self.game.state, step["expect"], headlines
        )
        return [Problem(n, f, want, got) for f, want, got in found]


def _same_choice(command: c.Command, events: list[e.Event]) -> bool:
    """Whether the engine's own settlement (`events`) is what `command` asks."""
    match command:
        case c.Protect(sources=[]) | c.SkipFight() | c.Proceed():
            return True
        case c.Relocate(hero=hero, to=to):
            return any(
                isinstance(x, e.HeroMoved) and x.hero == hero and _cell(x.to) == _cell(to)
                for x in events
            )
        case c.PlaceFightMarker(take_from=cell):
            return any(
                isinstance(x, e.FightMarkerPlaced) and _cell(x.taken_from) == _cell(cell)
                for x in events
            )
    return False


def _cell(cell: object) -> tuple[int, int] | None:
    if isinstance(cell, list | tuple) and len(cell) == 2:
        return (int(cell[0]), int(cell[1]))
    return None


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
