# The node's protocol logic, independent of the board it runs on (tested under CPython and under
# the MicroPython Unix port).
from armata_node import check, wire
from armata_node.version import VERSION

try:
    from time import ticks_diff
except ImportError:  # CPython (tests): plain integers, no wrap-around

    def ticks_diff(a, b):
        return a - b


FIRMWARE = "armata-node " + VERSION
HELLO_EVERY_MS = 1000
#: Without a word from the Pi for this long (it pings every 2 s), the node says hello again: the
#: app may have restarted and not know this node yet.
SILENCE_MS = 6000
MISSES_BEFORE_REMOVED = 2  # reads without the tag before it counts as lifted (reads flicker)
SEEN = 32  # recent command seqs remembered: a repeat is acknowledged again, not applied twice
RENDER_EVERY_MS = 20  # LED animation frames: 50 per second is smooth, and leaves time for I/O
READING = "reading"  # what a reader's step() returns while it is still busy (its only text)
FAULT_REPORT_EVERY_MS = 1000  # a fault that repeats every turn is reported once a second
FAULT_CHARS = 100  # of the last fault's text in a status (its field holds at most 120)


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
        self.faults = 0  # exceptions caught in any part of the loop since boot
        self.last_fault = ""  # "<part>: <exception>", the newest
        self.fault_reported = True  # the newest fault went out in a status
        self.last_fault_report = None
        self.started = None  # now_ms of the first poll (uptime in the status)
        self.log = None  # log(text): where faults are written as well (not on the USB port)
        #: open_repl(seconds): let Ctrl-C stop the loop for that long (main.py sets it on USB;
        #: None: the node cannot, and refuses the command)
        self.open_repl = None

    def next_seq(self):
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        return self.seq

    def _emit(self, _type, **fields):
        self.send(wire.encode(_type, self.next_seq(), self.node, **fields))

    def hello(self, now_ms=0):
        self.last_hello = now_ms
        self._emit(
            "hello",
            kind=self.kind,
            firmware=FIRMWARE,
            readers=max(1, len(self.readers)),
            version=VERSION,
        )

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
        kind = message["type"]
        refusal = check.problem(message)
        if refusal is not None:  # before anything is applied or acknowledged: never half done
            self._emit("nack", ack=seq, reason=refusal)
            return
        repeat = seq in self.seen
        if not repeat:
            self.seen.append(seq)
            if len(self.seen) > SEEN:
                self.seen = self.seen[1:]
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
            self._emit("pong", t=message["t"])
        elif kind == "open_repl" and self.open_repl is not None:
            self._emit("ack", ack=seq)  # before: once the REPL is in, nothing more is sent
            self.open_repl(message["s"])
        else:
            self._emit("nack", ack=seq, reason="not handled: " + kind)

    def _report_tags(self):
        for i, uid in enumerate(self.tags):
            if uid is not None:
                self._emit("tag_present", reader=i, uid=uid)

    def press(self, button, pressed=True):
        self._emit("button", button=button, pressed=pressed)

    def fault(self, part, exc):
        """An exception from `part` of the loop: counted, kept, reported in the next status.
        The node goes on (a bad reader or LED strip must not silence the others)."""
        try:
            text = "%s: %s" % (type(exc).__name__, exc)
        except Exception:  # an exception whose text fails (or no memory left to write it)
            text = "?"
        self.trouble(part, text)

    def trouble(self, part, text):
        """Something wrong in `part` that is no exception (the link's login shared, say):
        counted and reported like a fault. Never raises: it runs inside the loop's guards."""
        self.faults += 1
        self.fault_reported = False
        try:
            self.last_fault = ("%s: %s" % (part, text))[:FAULT_CHARS]
        except Exception:
            self.last_fault = "?"
            return
        if self.log is not None:
            try:
                self.log("fault " + self.last_fault)
            except Exception:
                pass

    def status(self, now_ms, state="online"):
        uptime = 0 if self.started is None else max(0, ticks_diff(now_ms, self.started)) // 1000
        fields = {"state": state, "uptime_s": uptime}
        if self.faults:
            fields["faults"] = self.faults
            fields["fault"] = self.last_fault
        self._emit("status", **fields)

    def _report_fault(self, now_ms):
        if self.fault_reported or (
            self.last_fault_report is not None
            and ticks_diff(now_ms, self.last_fault_report) < FAULT_REPORT_EVERY_MS
        ):
            return
        self.last_fault_report = now_ms
        self.fault_reported = True
        self.status(now_ms)

    def poll(self, now_ms):
        """Call often: repeats the hello until the Pi answers, advances each reader by one short
        step (never waits on a chip), animates the LEDs, reports faults. Each part on its own:
        an exception in one is a fault (counted, reported), and the others still run."""
        if self.started is None:
            self.started = now_ms
        try:
            self._announce(now_ms)
        except Exception as exc:
            self.fault("hello", exc)
        for i, reader in enumerate(self.readers):
            try:
                result = reader.step(now_ms)
                if not isinstance(result, str):  # READING: ask again next turn
                    self._seen_tag(i, result.hex() if result else None)
            except Exception as exc:
                self.fault("reader %d" % i, exc)
        if self.ring is not None and (
            self.last_render is None or ticks_diff(now_ms, self.last_render) >= RENDER_EVERY_MS
        ):
            self.last_render = now_ms
            try:
                self.ring.render(now_ms)
            except Exception as exc:
                self.fault("ring", exc)
        try:
            self._report_fault(now_ms)
        except Exception as exc:  # the report itself failed (the link is down): try again later
            self.faults += 1
            self.fault_reported = False
            self.last_fault = ("report: %s: %s" % (type(exc).__name__, exc))[:FAULT_CHARS]

    def _announce(self, now_ms):
        heard = self.last_heard
        if self.greeted and heard is not None and ticks_diff(now_ms, heard) >= SILENCE_MS:
            self.greeted = False  # the Pi went quiet: announce again until it answers
            self.last_hello = None
        if not self.greeted and (
            self.last_hello is None or ticks_diff(now_ms, self.last_hello) >= HELLO_EVERY_MS
        ):
            self.hello(now_ms)

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
