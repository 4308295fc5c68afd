# Runs under the MicroPython Unix port (hardware/test_micropython.py): one JSON case per input line,
# one JSON answer per output line, computed by the firmware's own wire module.
#   {"op": "encode", "type": T, "seq": S, "node": N, "fields": {...}} -> {"frame": hex, ...}
#   {"op": "frame", "hex": payload}              -> {"frame": hex}
#   {"op": "read", "hex": bytes}                 -> {"payloads": [hex], "dropped": n}
#   {"op": "decode", "hex": payload}             -> {"message": {...} | null}
import json
import sys

from armata_node import wire


def hexed(data):
    return "".join("%02x" % b for b in data)


def answer(case):
    op = case["op"]
    if op == "encode":
        payload = wire.encode(case["type"], case["seq"], case["node"], **case["fields"])
        return {"frame": hexed(wire.frame(payload)), "payload": hexed(payload)}
    if op == "frame":
        return {"frame": hexed(wire.frame(bytes.fromhex(case["hex"])))}
    if op == "read":
        reader = wire.FrameReader()
        payloads = reader.feed(bytes.fromhex(case["hex"]))
        return {"payloads": [hexed(p) for p in payloads], "dropped": reader.dropped}
    if op == "decode":
        return {"message": wire.decode(bytes.fromhex(case["hex"]))}
    raise ValueError("unknown op " + op)


while True:
    line = sys.stdin.readline()
    if not line:
        break
    try:
        result = answer(json.loads(line))
    except Exception as exc:  # the test shows it: the firmware must not raise on any case
        result = {"error": "%s: %s" % (type(exc).__name__, exc)}
    sys.stdout.write(json.dumps(result) + "\n")
