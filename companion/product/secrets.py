"""Secrets out of what a report carries: values under a key that names a secret (password,
token, key, secret, credentials, psk) are replaced in JSON and in `KEY=value` lines, and
every secret value found that way (and in the files the caller names) is then removed from
every text of the report, the journal's lines included: a seat link's token or the hotspot's
password said in a log line goes too."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

REMOVED = "<removed>"
SECRET_KEY = re.compile(r"pass(word|wd)?|token|secret|key|credential|psk|auth", re.IGNORECASE)
#: `KEY=value`, `KEY: value`, `key value` (a broker's configuration) with a secret's key
_ASSIGNMENT = re.compile(
    r"(?im)^(?P<key>\s*[#]?\s*[\w.-]*(?:pass(?:word|wd)?|token|secret|key|psk)[\w.-]*)"
    r"(?P<sep>\s*[=:]\s*|\s+)(?P<value>\S.*)$"
)
#: the least length of a value removed wherever it appears (shorter ones would take words)
LEAST = 6


class Scrubber:
    def __init__(self) -> None:
        self.values: set[str] = set()

    def learn(self, values: Iterable[str]) -> None:
        self.values |= {v for v in values if isinstance(v, str) and len(v) >= LEAST}

    def json_value(self, value: Any) -> Any:
        """`value` with every secret-keyed value replaced (and learnt)."""
        if isinstance(value, dict):
            found: dict[str, Any] = {}
            for key, item in value.items():
                if SECRET_KEY.search(str(key)):
                    self.learn(_secrets(item, keyed=True))
                    found[key] = REMOVED
                else:
                    found[key] = self.json_value(item)
            return found
        if isinstance(value, list):
            return [self.json_value(v) for v in value]
        return value

    def lines(self, text: str) -> str:
        """`KEY=value` lines of a secret's key with their value replaced (and learnt)."""

        def replace(match: re.Match[str]) -> str:
            value = match["value"].strip().strip("'\"")
            if value.startswith("/"):  # a path to a file (password_file, keyfile): no secret
                return match[0]
            self.learn([value])
            return f"{match['key']}{match['sep']}{REMOVED}"

        return _ASSIGNMENT.sub(replace, text)

    def text(self, text: str) -> str:
        """Every learnt secret value removed from `text`, longest first."""
        for value in sorted(self.values, key=len, reverse=True):
            text = text.replace(value, REMOVED)
        return text

    def secret_file(self, text: str) -> None:
        """A file that is secrets through and through (the broker's credentials.json, its
        password file): never carried; every value in it learnt."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            self.learn(part for line in text.splitlines() for part in line.split(":")[1:])
        else:
            self.learn(_leaves(data))


#: a dict key this long under a secret is one itself (the phones' seat tokens are keys)
TOKEN_LENGTH = 16


def _secrets(value: Any, keyed: bool) -> list[str]:
    """The secrets in `value`: strings under a secret's key, and token-like keys."""
    if isinstance(value, str):
        return [value] if keyed else []
    if isinstance(value, dict):
        found = [str(k) for k in value if len(str(k)) >= TOKEN_LENGTH]
        for key, item in value.items():
            found += _secrets(item, bool(SECRET_KEY.search(str(key))))
        return found
    if isinstance(value, list):
        return [s for item in value for s in _secrets(item, keyed)]
    return []


def _leaves(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _leaves(item)]
    if isinstance(value, list):
        return [s for item in value for s in _leaves(item)]
    return []
