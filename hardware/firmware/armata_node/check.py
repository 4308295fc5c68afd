# Every field of every command the Pi sends, checked before anything is applied or acknowledged
# (docs/protocol.md): the same limits as the bridge's schema (firmware_bridge/protocol.py), written
# out by hand because MicroPython has no msgspec. `problem(message)` is None for a command the
# node can carry out in full, else the reason of its nack: "<field>: <why>".
ENVELOPE = ("type", "v", "seq", "node")
TARGETS = ("ring", "segment")
PATTERNS = ("steady", "pulse", "chase", "off")
HEX = "0123456789abcdef"
T_MAX = 2**63 - 1  # the Pi's clock in µs: far beyond any uptime, small enough for any int
REPL_S_MAX = 600  # the longest a node lets Ctrl-C in for flashing (open_repl)
SHOWN_CHARS = 24  # of a refused value, in the reason (a nack's reason is at most 120 characters)


def _int(value, low, high):
    # bool is an int subclass in both interpreters: True is no brightness
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def shown(value):
    """A refused value as the reason quotes it: short, one line."""
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, (list, tuple)):
        text = "a list of %d" % len(value)
    elif isinstance(value, dict):
        text = "an object"
    elif value is None:
        text = "null"
    elif value is True or value is False:
        text = "true" if value else "false"
    else:
        text = repr(value)
    if len(text) > SHOWN_CHARS:
        text = text[: SHOWN_CHARS - 3] + "..."
    return text


def _colour(value):
    if not isinstance(value, str) or len(value) != 7 or value[0] != "#":
        return False
    return all(char in HEX for char in value[1:])


def _unknown(message, known):
    for name in message:
        if name not in ENVELOPE and name not in known:
            return name[:32] + ": unknown field"
    return None


def _led(message):
    unknown = _unknown(message, ("target", "direction", "colour", "pattern", "brightness"))
    if unknown:
        return unknown
    target = message.get("target", "ring")
    if not isinstance(target, str) or target not in TARGETS:
        return "target: ring or segment, not " + shown(target)
    colour = message.get("colour", "#000000")
    if not _colour(colour):
        return "colour: #rrggbb in lower-case hex, not " + shown(colour)
    pattern = message.get("pattern", "steady")
    if not isinstance(pattern, str) or pattern not in PATTERNS:
        return "pattern: steady, pulse, chase or off, not " + shown(pattern)
    brightness = message.get("brightness", 128)
    if not _int(brightness, 0, 255):
        return "brightness: a whole number 0-255, not " + shown(brightness)
    direction = message.get("direction")
    if target == "segment":
        if direction is None:
            return "direction: missing (a segment needs one, 0-5)"
        if not _int(direction, 0, 5):
            return "direction: a whole number 0-5, not " + shown(direction)
    elif direction is not None:
        return "direction: only for a segment, not for the ring"
    return None


def _ping(message):
    unknown = _unknown(message, ("t",))
    if unknown:
        return unknown
    if "t" not in message:
        return "t: missing"
    if not _int(message["t"], 0, T_MAX):
        return "t: a whole number of microseconds >= 0, not " + shown(message["t"])
    return None


def _identify(message):
    return _unknown(message, ())


def _open_repl(message):
    unknown = _unknown(message, ("s",))
    if unknown:
        return unknown
    if "s" not in message:
        return "s: missing"
    if not _int(message["s"], 1, REPL_S_MAX):
        return "s: a whole number of seconds 1-%d, not %s" % (REPL_S_MAX, shown(message["s"]))
    return None


CHECKS = {"led": _led, "ping": _ping, "identify": _identify, "open_repl": _open_repl}


def problem(message):
    """None when the node can carry out this command in full, else why not ("<field>: <why>").
    A type the node does not take is the caller's answer ("not handled")."""
    check = CHECKS.get(message["type"])
    return None if check is None else check(message)
