# The node's protocol logic, independent of the board it runs on (tested under CPython).
from armata_node import wire

FIRMWARE = "armata-node 0.1"
HELLO_EVERY_MS = 1000
MISSES_BEFORE_REMOVED = 2  # polls without the tag before it counts as lifted (reads flicker)
SEEN = 32  # recent command seqs remembered: a repeat is acknowledged again, not applied twice


class Node:
    def __init__(self, node_id, kind, send, ring=None, readers=(), seq_start=0):
        self.node = node_id
        self.kind = kind
        self.send = send  # send(payload_bytes): the transport frames or publishes it
        self.ring = ring
        self.readers = list(readers)  # objects with read_uid() -> bytes or None
        self.seq = seq_start  # random at boot on the device (os.urandom), so reboots look new
        self.seen = []
        self.greeted = False
        self.last_hello = None
        self.tags = [None] * len(self.readers)
        self.misses = [0] * len(self.readers)
        self.dropped = 0

    def _emit(self, _type, **fields):
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        self.send(wire.encode(_type, self.seq, self.node, **fields))

    def hello(self, now_ms=0):
        self.last_hello = now_ms
        self._emit("hello", kind=self.kind, firmware=FIRMWARE, readers=max(1, len(self.readers)))

    def on_payload(self, payload):
        message = wire.decode(payload)
        if message is None or message.get("node") != self.node:
            self.dropped += 1
            return
        self.greeted = True
        seq = message["seq"]
        repeat = seq in self.seen
        if not repeat:
            self.seen.append(seq)
            if len(self.seen) > SEEN:
                self.seen.pop(0)
        kind = message["type"]
        if kind == "led":
            if not repeat and self.ring is not None:
                self.ring.apply(message)
            self._emit("ack", ack=seq)
        elif kind == "identify":
            self._emit("ack", ack=seq)
            self.hello(self.last_hello or 0)
        elif kind == "ping":
            self._emit("pong", t=message.get("t", 0))
        else:
            self._emit("nack", ack=seq, reason="not handled: " + kind)

    def press(self, button, pressed=True):
        self._emit("button", button=button, pressed=pressed)

    def poll(self, now_ms):
        """Call often: repeats the hello until the Pi answers, reads the tags, animates LEDs."""
        if not self.greeted and (
            self.last_hello is None or now_ms - self.last_hello >= HELLO_EVERY_MS
        ):
            self.hello(now_ms)
        for i, reader in enumerate(self.readers):
            uid = reader.read_uid()
            text = uid.hex() if uid else None
            if text is not None:
                self.misses[i] = 0
                if text != self.tags[i]:
                    if self.tags[i] is not None:
                        self._emit("tag_removed", reader=i, uid=self.tags[i])
                    self.tags[i] = text
                    self._emit("tag_present", reader=i, uid=text)
            elif self.tags[i] is not None:
                self.misses[i] += 1
                if self.misses[i] >= MISSES_BEFORE_REMOVED:
                    self._emit("tag_removed", reader=i, uid=self.tags[i])
                    self.tags[i] = None
        if self.ring is not None:
            self.ring.render(now_ms)
