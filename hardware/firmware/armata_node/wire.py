# Wire format, the firmware's side: COBS + CRC-16/CCITT-FALSE framing and compact JSON messages.
# Same bytes as firmware_bridge (proved by firmware_bridge/vectors.json in tests/test_firmware.py,
# and under the real MicroPython interpreter by tests/test_micropython.py).
# MicroPython: no `cobs` package there, so COBS is written out here (a dozen lines). Only what
# MicroPython has is used: no bytearray.pop or item deletion, no json.dumps for strings (CPython
# escapes non-ASCII text, MicroPython does not; msgspec on the Pi writes it as UTF-8).
import json

VERSION = 1
MAX_PAYLOAD = 512
MAX_FRAME = MAX_PAYLOAD + 2 + MAX_PAYLOAD // 254 + 2

# Field order of each message type, as the bridge's schema declares them.
FIELDS = {
    "hello": ("kind", "firmware", "readers", "version"),
    "identify": (),
    "status": ("state", "uptime_s", "faults", "fault"),
    "tag_present": ("reader", "uid"),
    "tag_removed": ("reader", "uid"),
    "button": ("button", "pressed"),
    "led": ("target", "direction", "colour", "pattern", "brightness"),
    "ping": ("t",),
    "open_repl": ("s",),
    "pong": ("t",),
    "ack": ("ack",),
    "nack": ("ack", "reason"),
    "error": ("code", "detail"),
}

_SHORT_ESCAPES = {
    0x22: '\\"',
    0x5C: "\\\\",
    0x08: "\\b",
    0x0C: "\\f",
    0x0A: "\\n",
    0x0D: "\\r",
    0x09: "\\t",
}


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray([0])
    code_at, code, after_full_block = 0, 1, False
    for byte in data:
        after_full_block = False
        if byte:
            out.append(byte)
            code += 1
        if not byte or code == 0xFF:
            after_full_block = code == 0xFF and byte != 0
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
    if after_full_block:
        return bytes(out[:-1])  # data ended right after a full 254-byte block: no empty block
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            raise ValueError("cobs")
        out += data[i + 1 : i + code]
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(payload):
    crc = crc16(payload)
    return cobs_encode(payload + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def unframe(body):
    """The payload of a frame body (without its 0x00), or None when it is damaged."""
    try:
        raw = cobs_decode(body)
    except ValueError:
        return None
    if len(raw) < 3:
        return None
    payload = raw[:-2]
    if crc16(payload) != (raw[-2] << 8 | raw[-1]):
        return None
    return payload


class FrameReader:
    """Feed received bytes; collects intact payloads, drops damaged frames and counts them."""

    def __init__(self):
        self.pending = bytearray()
        self.dropped = 0

    def feed(self, data):
        payloads = []
        for byte in data:
            if byte:
                if len(self.pending) < MAX_FRAME:
                    self.pending.append(byte)
                continue
            body = bytes(self.pending)
            self.pending = bytearray()
            if not body:
                continue
            payload = unframe(body)
            if payload is None:
                self.dropped += 1
            else:
                payloads.append(payload)
        return payloads


def json_string(text):
    """A JSON string exactly as msgspec writes it: quote, backslash and the short control escapes,
    other control characters as \\u00XX, everything else (DEL and non-ASCII too) as it is."""
    parts = ['"']
    start = 0
    for i, char in enumerate(text):
        code = ord(char)
        if code >= 0x20 and code != 0x22 and code != 0x5C:
            continue
        parts.append(text[start:i])
        parts.append(_SHORT_ESCAPES.get(code) or "\\u%04x" % code)
        start = i + 1
    parts.append(text[start:])
    parts.append('"')
    return "".join(parts)


def json_value(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return "%d" % value
    if isinstance(value, str):
        return json_string(value)
    raise ValueError("no JSON for this field")


def encode(_type, _seq, _node, **fields):
    """Compact JSON with the schema's key order: `{"type":..,"v":1,"seq":..,"node":..,...}`.
    (Underscored names: a message field may be called `kind` or `node`.)"""
    parts = ['"type":' + json_string(_type), '"v":%d' % VERSION, '"seq":%d' % _seq]
    parts.append('"node":' + json_string(_node))
    for name in FIELDS[_type]:
        if name in fields:
            parts.append(json_string(name) + ":" + json_value(fields[name]))
    data = ("{" + ",".join(parts) + "}").encode()
    if len(data) > MAX_PAYLOAD:
        raise ValueError("payload too large")
    return data


def decode(payload):
    """The message as a dict, or None when it is not one this firmware can use. Never raises:
    bad UTF-8, bad JSON, wrong types (a `type` that is an object, a `seq` that is text) are all
    just not a message."""
    if len(payload) > MAX_PAYLOAD:
        return None
    try:
        message = json.loads(payload)
    except Exception:  # ValueError, and MicroPython's UnicodeError for invalid UTF-8
        return None
    if not isinstance(message, dict) or message.get("v") != VERSION:
        return None
    kind, seq, node = message.get("type"), message.get("seq"), message.get("node")
    if not isinstance(kind, str) or kind not in FIELDS:
        return None
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= 0xFFFFFFFF:
        return None
    if not isinstance(node, str):
        return None
    return message
