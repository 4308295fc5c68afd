"""`python -m companion scenario run PATH... [--json]`: the contract of SCENARIOS.md.

Text: `PASS <name>` / `FAIL <name>: <key>: expected <x>, got <y>` / `ERROR <file>: <why>` per
scenario, then `N passed, M failed` (errors count as failed). `--json`: one object per line.
Exit status 0 only when at least one scenario ran and none failed or errored.

Project extension: a scenario with `"expect_error": "<text>"` passes when loading or running it
is refused with a message containing <text> (how the board-format validation errors are tested).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from companion.catalog import load_catalog
from companion.errors import CompanionError, ScenarioError
from companion.jsonfiles import json_files
from companion.scenario.actions import run_action
from companion.scenario.match import MISSING, Mismatch, mismatches
from companion.scenario.model import parse_header, parse_scenario


@dataclass
class Outcome:
    file: str
    name: str | None
    ok: bool
    result: dict[str, Any] | None = None
    mismatches: list[Mismatch] = field(default_factory=list)
    error: str | None = None  # the file is not a valid scenario


def run_file(path: Path, damage: dict[str, int]) -> Outcome:
    name: str | None = None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return Outcome(str(path), None, False, error=f"cannot read: {exc.strerror or exc}")
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, too deep, huge numbers
        return Outcome(str(path), None, False, error=f"not JSON: {exc}")
    expect_error: str | None = None
    try:
        name, expect_error = parse_header(data)
        scenario = parse_scenario(data)
        result = run_action(scenario, damage)
    except CompanionError as exc:
        if expect_error is not None:
            ok = expect_error in str(exc)
            found = [] if ok else [Mismatch("error", expect_error, str(exc))]
            return Outcome(str(path), name, ok, {"error": str(exc)}, found)
        return Outcome(str(path), name, False, error=str(exc))
    if expect_error is not None:
        return Outcome(str(path), name, False, result, [Mismatch("error", expect_error, MISSING)])
    found = mismatches(scenario.expect, result)
    return Outcome(str(path), name, not found, result, found)


def _json(value: Any) -> str:
    return "(missing)" if value is MISSING else json.dumps(value, ensure_ascii=False)


def text_line(outcome: Outcome) -> str:
    if outcome.error is not None:
        return f"ERROR {outcome.file}: {outcome.error}"
    if outcome.ok:
        return f"PASS {outcome.name}"
    details = "; ".join(
        f"{m.key}: expected {_json(m.expected)}, got {_json(m.got)}" for m in outcome.mismatches
    )
    return f"FAIL {outcome.name}: {details}"


def json_line(outcome: Outcome) -> str:
    record: dict[str, Any] = {
        "file": outcome.file,
        "name": outcome.name,
        "ok": outcome.ok,
        "result": outcome.result,
        "mismatches": [
            {"key": m.key, "expected": m.expected, "got": None if m.got is MISSING else m.got}
            for m in outcome.mismatches
        ],
    }
    if outcome.error is not None:
        record["error"] = outcome.error
    return json.dumps(record, ensure_ascii=False)


def run(paths: list[str], as_json: bool, out: TextIO) -> int:
    try:
        damage = load_catalog().damage()
    except CompanionError as exc:
        raise ScenarioError("", f"component catalog: {exc}") from exc
    passed = failed = 0
    for path in json_files(paths):
        outcome = run_file(path, damage)
        passed += outcome.ok
        failed += not outcome.ok
        print(json_line(outcome) if as_json else text_line(outcome), file=out, flush=True)
    if passed + failed == 0:
        raise ScenarioError("", f"no scenario found in {', '.join(paths)} (no *.json file)")
    if not as_json:
        print(f"{passed} passed, {failed} failed", file=out)
    return 0 if passed + failed > 0 and failed == 0 else 1
