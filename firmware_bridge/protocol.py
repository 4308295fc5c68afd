"""The node protocol: one versioned JSON message schema for serial and MQTT (docs/protocol.md).

Every message has `v` (protocol version), `seq` (sender's sequence number) and `type`. Shapes are
checked by msgspec; `decode_message` never raises: a malformed, oversized or unknown-version
payload is dropped, logged and counted in `DropCounter`.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from typing import Annotated, Literal

import msgspec

from firmware_bridge.errors import InvalidMessage, PayloadTooLarge
from firmware_bridge.ids import ID_RULE

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 512  # bytes of JSON: a message never needs more; anything larger is refused

log = logging.getLogger(__name__)

NodeId = Annotated[str, msgspec.Meta(pattern=f"^{ID_RULE}$")]  # the one id rule
Uid = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{8,20}$")]  # NFC uid: 4, 7 or 10 bytes, hex
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**32 - 1)]
Colour = Annotated[str, msgspec.Meta(pattern=r"^#[0-9a-f]{6}$")]
Text = Annotated[str, msgspec.Meta(max_length=120)]


class Message(msgspec.Struct, tag_field="type", kw_only=True, forbid_unknown_fields=True):
    v: int = PROTOCOL_VERSION
    seq: Seq
    node: NodeId


#: a firmware version: "0.3", "1.12.2"
Version = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{1,4}(\.[0-9]{1,4}){1,2}$")]


class Hello(Message, tag="hello", kw_only=True):
    """A node announces itself (on connect, and when asked to identify). `firmware` is free
    text for people; `version` (protocol 1, firmware 0.3 and later) is the firmware's version
    the app compares with the one it ships. Left out by older firmware: unknown, so different."""

    kind: Literal["room", "card_reader"]
    firmware: Text
    readers: Annotated[int, msgspec.Meta(ge=1, le=8)] = 1
    version: Version | msgspec.UnsetType = msgspec.UNSET


class Identify(Message, tag="identify", kw_only=True):
    """Pi -> node: send your hello again."""


class Status(Message, tag="status", kw_only=True):
    """A node's state. `faults` and `fault` (protocol 1, later firmware) are sent only after the
    node caught an exception in its loop: how many since boot, and the last one. Left out
    otherwise, so a status without faults has the same bytes as before."""

    state: Literal["online", "offline"]
    uptime_s: Annotated[int, msgspec.Meta(ge=0)] = 0
    faults: Annotated[int, msgspec.Meta(ge=0)] | msgspec.UnsetType = msgspec.UNSET
    fault: Text | msgspec.UnsetType = msgspec.UNSET


class TagPresent(Message, tag="tag_present", kw_only=True):
    reader: Annotated[int, msgspec.Meta(ge=0, le=7)] = 0
    uid: Uid


class TagRemoved(Message, tag="tag_removed", kw_only=True):
    reader: Annotated[int, msgspec.Meta(ge=0, le=7)] = 0
    uid: Uid


class Button(Message, tag="button", kw_only=True):
    button: Annotated[str, msgspec.Meta(pattern=r"^[a-z_]{1,16}$")]
    pressed: bool


class Led(Message, tag="led", kw_only=True):
    """Pi -> node: what the ring shows. A segment faces one of the room's six directions."""

    target: Literal["ring", "segment"] = "ring"
    direction: Annotated[int, msgspec.Meta(ge=0, le=5)] | None = None
    colour: Colour = "#000000"
    pattern: Literal["steady", "pulse", "chase", "off"] = "steady"
    brightness: Annotated[int, msgspec.Meta(ge=0, le=255)] = 128

    def __post_init__(self) -> None:
        # a segment without a direction would show nothing; a ring has none (the node refuses
        # both with the same words, hardware/firmware/armata_node/check.py)
        if self.target == "segment" and self.direction is None:
            raise InvalidMessage("direction: missing (a segment needs one, 0-5)")
        if self.target == "ring" and self.direction is not None:
            raise InvalidMessage("direction: only for a segment, not for the ring")


#: a sender's clock in µs: 292,000 years of uptime, and a whole number on every interpreter
Clock = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


class Ping(Message, tag="ping", kw_only=True):
    t: Clock  # sender's clock, microseconds


#: the longest a node lets Ctrl-C in (hardware/firmware/armata_node/check.py REPL_S_MAX)
REPL_S_MAX = 600


class OpenRepl(Message, tag="open_repl", kw_only=True):
    """Pi -> node on USB: for `s` seconds Ctrl-C stops the node's loop and the REPL takes the
    port, so mpremote can copy new firmware (`python -m companion nodes flash`). The node acks
    first; on the wire a 0x03 byte is data again once the time is up."""

    s: Annotated[int, msgspec.Meta(ge=1, le=REPL_S_MAX)]


class Pong(Message, tag="pong", kw_only=True):
    t: Clock  # echoed from the ping


class Ack(Message, tag="ack", kw_only=True):
    ack: Seq  # the seq of the command acknowledged


class Nack(Message, tag="nack", kw_only=True):
    """A command refused, never applied. A node refusing a field says `<field>: <why>`."""

    ack: Seq
    reason: Text


def refused_field(reason: str) -> str:
    """The field a nack's reason names (`colour: ...` -> `colour`), or "" when it names none."""
    name, colon, _why = reason.partition(":")
    return name if colon and name.isidentifier() and name.islower() else ""


class Error(Message, tag="error", kw_only=True):
    code: Annotated[str, msgspec.Meta(pattern=r"^[a-z_]{1,32}$")]
    detail: Text = ""


AnyMessage = (
    Hello
    | Identify
    | Status
    | TagPresent
    | TagRemoved
    | Button
    | Led
    | Ping
    | OpenRepl
    | Pong
    | Ack
    | Nack
    | Error
)
#: Messages that change what a node shows: acknowledged and retried until acked.
NEEDS_ACK = (Led, Identify, OpenRepl)


class _Envelope(msgspec.Struct):
    v: int
    type: str


class DropCounter:
    """Counts and logs every payload or frame that was refused, by reason."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def drop(self, reason: str, detail: str = "") -> None:
        self.counts[reason] += 1
        log.warning("dropped input (%s): %s", reason, detail[:200])

    @property
    def total(self) -> int:
        return sum(self.counts.values())


_ENVELOPE = msgspec.json.Decoder(_Envelope)
_MESSAGE = msgspec.json.Decoder(AnyMessage)
_ENCODER = msgspec.json.Encoder()


def encode_message(message: Message) -> bytes:
    data = _ENCODER.encode(message)
    if len(data) > MAX_PAYLOAD:
        raise PayloadTooLarge(
            f"{type(message).__name__} encodes to {len(data)} bytes > {MAX_PAYLOAD}"
        )
    return data


_AT_FIELD = re.compile(r"^(?P<why>.*) - at `\$\.(?P<field>[a-z_]+)`$", re.DOTALL)
_NAMED_FIELD = re.compile(r"field `(?P<field>[^`]+)`")


def refusal(data: bytes) -> str | None:
    """Why a receiver refuses this payload, in a nack's words (`<field>: <why>`), or None when
    it decodes. For the simulated nodes, which answer a bad command as the firmware does."""
    try:
        _MESSAGE.decode(data)
    except msgspec.ValidationError as exc:
        text = str(exc)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        return f"payload: {exc}"[:120]
    else:
        return None
    at = _AT_FIELD.match(text)
    if at:
        return f"{at['field']}: {at['why']}"[:120]
    named = _NAMED_FIELD.search(text)
    if named:
        return f"{named['field'][:32]}: {text}"[:120]
    return text[:120] if refused_field(text) else f"payload: {text}"[:120]


def checked_payload(message: Message) -> bytes:
    """`message` encoded, after checking every field against the schema as a receiver would
    (a Struct built in code is not checked): what the node would refuse never leaves the Pi.
    InvalidMessage names the field."""
    data = encode_message(message)
    try:
        _MESSAGE.decode(data)
    except msgspec.ValidationError as exc:
        raise InvalidMessage(f"{type(message).__name__} to {message.node!r}: {exc}") from None
    return data


def decode_message(data: bytes, drops: DropCounter) -> AnyMessage | None:
    """The message in `data`, or None after counting why it was refused. Never raises."""
    if len(data) > MAX_PAYLOAD:
        drops.drop("too_large", f"{len(data)} bytes")
        return None
    try:
        envelope = _ENVELOPE.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        # msgspec reports invalid UTF-8 inside a string as UnicodeDecodeError, not DecodeError
        drops.drop("malformed", str(exc))
        return None
    if envelope.v != PROTOCOL_VERSION:
        drops.drop("unknown_version", f"v={envelope.v}")
        return None
    try:
        message: AnyMessage = _MESSAGE.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        drops.drop("invalid", str(exc))
        return None
    return message
