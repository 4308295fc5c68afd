# The node's protocol logic, independent of the board it runs on (tested under CPython and under
# the MicroPython Unix port).
from armata_node import wire

try:
    from time import ticks_diff
except ImportError:  # CPython (tests): plain integers, no wrap-around

    def ticks_diff(a, b):
        return a - b


FIRMWARE = "armata-node 0.2"
HELLO_EVERY_MS = 1000
#: Without a word from the Pi for this long (it pings every 2 s), the node says hello again: the
#: app may have restarted and not know this node yet.
SILENCE_MS = 6000
MISSES_BEFORE_REMOVED = 2  # reads without the tag before it counts as lifted (reads flicker)
SEEN = 32  # recent command seqs remembered: a repeat is acknowledged again, not applied twice
RENDER_EVERY_MS = 20  # LED animation frames: 50 per second is smooth, and leaves time for I/O
READING = "reading"  # what a reader's step() returns while it is still busy (its only text)


class Node:
    def __init__(self, node_id, kind, send, ring=None, readers=(), seq_start=0):
        self.node = node_id
        self.kind = kind
        self.send = send  # send(payload_bytes): the transport frames or publishes it
        self.ring = ring
        self.readers = list(readers)  # objects with step(now_ms) -> READING | bytes | None
        self.seq = seq_start  # random at boot on the device (os.urandom), so reboots look new
        self.seen = []
        self.greeted = False
        self.last_hello = None
        self.last_heard = None
        self.last_render = None
        self.tags = [None] * len(self.readers)
        self.misses = [0] * len(self.readers)
        self.dropped = 0

    def next_seq(self):
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        return self.seq

    def _emit(self, _type, **fields):
        self.send(wire.encode(_type, self.next_seq(), self.node, **fields))

    def hello(self, now_ms=0):
        self.last_hello = now_ms
        self._emit("hello", kind=self.kind, firmware=FIRMWARE, readers=max(1, len(self.readers)))

    def on_payload(self, payload, now_ms=None):
        message = wire.decode(payload)
        if message is None or message.get("node") != self.node:
            self.dropped += 1
            return
        if now_ms is not None:
            self.last_heard = now_ms
        if not self.greeted:
            self.greeted = True
            self._report_tags()  # the Pi may have missed them (it started after us)
        seq = message["seq"]
        repeat = seq in self.seen
        if not repeat:
            self.seen.append(seq)
            if len(self.seen) > SEEN:
                self.seen = self.seen[1:]
        kind = message["type"]
        if kind == "led":
            if not repeat and self.ring is not None:
                self.ring.apply(message)
                self.last_render = None  # show it on the next poll
            self._emit("ack", ack=seq)
        elif kind == "identify":
            self._emit("ack", ack=seq)
            self.hello(self.last_hello or 0)
            self._report_tags()
        elif kind == "ping":
            t = message.get("t", 0)
            self._emit("pong", t=t if isinstance(t, int) and not isinstance(t, bool) else 0)
        else:
            self._emit("nack", ack=seq, reason="not handled: " + kind)

    def _report_tags(self):
        for i, uid in enumerate(self.tags):
            if uid is not None:
                self._emit("tag_present", reader=i, uid=uid)

    def press(self, button, pressed=True):
        self._emit("button", button=button, pressed=pressed)

    def poll(self, now_ms):
        """Call often: repeats the hello until the Pi answers, advances each reader by one short
        step (never waits on a chip), animates the LEDs."""
        heard = self.last_heard
        if self.greeted and heard is not None and ticks_diff(now_ms, heard) >= SILENCE_MS:
            self.greeted = False  # the Pi went quiet: announce again until it answers
            self.last_hello = None
        if not self.greeted and (
            self.last_hello is None or ticks_diff(now_ms, self.last_hello) >= HELLO_EVERY_MS
        ):
            self.hello(now_ms)
        for i, reader in enumerate(self.readers):
            result = reader.step(now_ms)
            if not isinstance(result, str):  # READING: ask again next turn
                self._seen_tag(i, result.hex() if result else None)
        if self.ring is not None and (
            self.last_render is None or ticks_diff(now_ms, self.last_render) >= RENDER_EVERY_MS
        ):
            self.last_render = now_ms
            self.ring.render(now_ms)

    def _seen_tag(self, i, text):
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
