"""The app's side of the node protocol, over any link (serial or MQTT).

- Decodes and checks every payload: malformed ones, unknown node ids, a node speaking from
  another node's source, and duplicates (same node and `seq`) are dropped and counted.
- Commands that must arrive (LED, identify) are sent with a fresh `seq` and resent with the same
  `seq` until the node acknowledges them; the node recognises the repeat and only acks again.
- Remembers the LED state each node should show and sends it again whenever the node (re)appears:
  after a reconnect, a broker restart or a node reboot the board shows what the game says.
- Pings every node it has heard from; one that leaves `offline_after_missed` pings in a row
  unanswered (and says nothing else) is marked offline with that reason — a dead node whose last
  will never came is seen dead. Keeps per node: last seen, round trip, error counters, why it is
  offline (`health()`).
- A node refusing a command (`nack`, reason `<field>: <why>`) is logged and counted under the
  field (`refused colour`); a node that caught a fault in its loop says so in a `status`
  (`faults`, `fault`): logged, kept in its health.
Node events (tags, buttons, hellos, status) go to `on_event`, from the link's threads.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec

from firmware_bridge import protocol as p
from firmware_bridge.errors import InvalidMessage, UnknownNode
from firmware_bridge.ids import check_id
from firmware_bridge.links import Link

log = logging.getLogger(__name__)

OnEvent = Callable[[p.Message], None]
LedKey = tuple[str, int | None]  # ("ring", None) or ("segment", direction)
DEDUP_WINDOW = 4096  # recent seqs remembered per node (a replay after a flood is still caught)
MAX_GAP = 10_000  # a bigger jump is a new series (a reset), not messages lost on the way
MAX_REMEMBERED_MISSING = 256  # per node: the lost seqs that may still turn up late
OUTCOMES = 256  # settled reliable commands remembered for `outcome()`


def now_us() -> int:
    return time.monotonic_ns() // 1000


@dataclass
class NodeHealth:
    node: str
    kind: str = "?"
    firmware: str = ""
    version: str = ""  # the firmware version of its last hello; "" when it sent none (older)
    source: str | None = None
    online: bool = False
    last_seen: float | None = None  # time.monotonic() of the last valid message
    rtt_ms: float | None = None  # last ping round trip
    rtt_mean_ms: float | None = None
    acked: int = 0
    superseded: int = 0  # LED commands replaced by a newer one before they were acknowledged
    errors: Counter[str] = field(default_factory=Counter)
    missed_pings: int = 0  # pings in a row with no word from the node since
    offline_reason: str = ""  # why it is offline ("" while online or never seen)
    last_refusal: str = ""  # the reason of the newest command it refused (nack)
    faults: int = 0  # exceptions its loop caught since its boot, as it last reported
    last_fault: str = ""


@dataclass
class _Pending:
    node: str
    message: p.Message
    payload: bytes
    deadline: float
    tries: int = 1


class Bridge:
    def __init__(
        self,
        link: Link,
        known_nodes: Iterable[str],
        on_event: OnEvent | None = None,
        *,
        retry_after_s: float = 0.25,
        max_retry_gap_s: float = 1.0,
        max_tries: int = 40,
        ping_every_s: float = 2.0,
        offline_after_missed: int = 3,
    ) -> None:
        self.link = link
        self.known = {check_id("node id", node) for node in known_nodes}
        self.on_event: OnEvent = on_event or (lambda message: None)
        self.retry_after_s = retry_after_s
        self.max_retry_gap_s = max_retry_gap_s
        self.max_tries = max_tries
        self.ping_every_s = ping_every_s
        self.offline_after_missed = offline_after_missed
        self.drops = p.DropCounter()
        self.failed: list[p.Message] = []  # commands given up on after max_tries
        #: (node, seq) of LED commands a newer one replaced before they were acknowledged
        self.superseded: deque[tuple[str, int]] = deque(maxlen=4096)
        self._lock = threading.RLock()
        # a random start, as the nodes do after a reset: a node remembers the seqs it applied
        # and only acks a repeat, so a restarted app counting from 1 again would see its first
        # commands (dark rings after a kill -9, say) acknowledged and never shown
        self._seq = secrets.randbelow(2**32)
        self._health = {node: NodeHealth(node) for node in self.known}
        self._node_at: dict[str, str] = {}  # source -> node
        self._source_of: dict[str, str] = {}  # node -> source
        self._seen: dict[str, tuple[set[int], deque[int]]] = {}
        self._last_seq: dict[str, int] = {}  # the highest seq heard from each node
        self._series_before: dict[str, int] = {}  # its last seq before its latest hello
        # the seqs counted as lost, newest last: one that arrives after all was overtaken on
        # the way (two of the node's threads, a redelivery), and is no loss
        self._missing: dict[str, deque[int]] = {}
        self._pending: dict[tuple[str, int], _Pending] = {}
        self._leds: dict[str, dict[LedKey, p.Led]] = {}
        self._acked = threading.Condition(self._lock)
        #: (node, seq) -> "" acknowledged, else the node's reason for refusing it
        self._outcomes: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._stopping = threading.Event()
        self._timer = threading.Thread(target=self._tick, name="bridge timer", daemon=True)

    # ----- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self.link.start(self._deliver, self._source_changed)
        self._timer.start()

    def stop(self) -> None:
        self._stopping.set()
        self.link.stop()
        if self._timer.is_alive():
            self._timer.join(timeout=2)

    # ----- commands ----------------------------------------------------------------------------
    def _next_seq(self) -> int:
        with self._lock:
            self._seq = (self._seq + 1) % 2**32
            return self._seq

    def set_led(
        self,
        node: str,
        *,
        target: str = "ring",
        direction: int | None = None,
        colour: str = "#000000",
        pattern: str = "steady",
        brightness: int = 128,
    ) -> int:
        """Show this on the node's ring (or one segment) and remember it. Returns the seq.
        InvalidMessage for a value the node would refuse: nothing is sent or remembered."""
        try:
            led = p.Led(
                seq=self._next_seq(),
                node=node,
                target=target,  # type: ignore[arg-type]
                direction=direction,
                colour=colour,
                pattern=pattern,  # type: ignore[arg-type]
                brightness=brightness,
            )
        except ValueError as exc:
            raise InvalidMessage(f"Led to {node!r}: {exc}") from None
        p.checked_payload(led)  # before it is remembered: a bad value is never resent
        with self._lock:
            shown = self._leds.setdefault(node, {})
            if target == "ring":
                shown.clear()  # a ring command repaints the segments too
            shown[(target, direction)] = led
        self._send_led(led)
        return led.seq

    def _send_led(self, led: p.Led) -> None:
        """Send reliably; an older LED command still unacknowledged for the same LEDs is dropped
        from the resends, so a late resend can never paint over newer state."""
        with self._acked:
            for key, pending in list(self._pending.items()):
                old = pending.message
                if (
                    key[0] == led.node
                    and isinstance(old, p.Led)
                    and (
                        led.target == "ring"
                        or (old.target, old.direction) == (led.target, led.direction)
                    )
                ):
                    del self._pending[key]
                    self.superseded.append(key)
                    self._health[led.node].superseded += 1
            self._acked.notify_all()
        self._send_reliable(led)

    def identify(self, node: str) -> int:
        message = p.Identify(seq=self._next_seq(), node=node)
        self._send_reliable(message)
        return message.seq

    def open_repl(self, node: str, seconds: int) -> int:
        """Ask a USB node to let mpremote in for `seconds` (before flashing). Returns the seq."""
        message = p.OpenRepl(seq=self._next_seq(), node=node, s=seconds)
        self._send_reliable(message)
        return message.seq

    def outcome(self, node: str, seq: int) -> str | None:
        """A reliable command's answer: "" acknowledged, the reason when refused, None while
        it waits (or was given up on: see `failed`)."""
        with self._lock:
            return self._outcomes.get((node, seq))

    def ping(self, node: str) -> bool:
        return self._send(p.Ping(seq=self._next_seq(), node=node, t=now_us()))

    def _send_reliable(self, message: p.Message) -> None:
        if message.node not in self.known:
            raise UnknownNode(f"node {message.node!r} is not part of this table")
        payload = p.checked_payload(message)
        now = time.monotonic()
        with self._lock:
            self._pending[(message.node, message.seq)] = _Pending(
                message.node, message, payload, now + self.retry_after_s
            )
        self._send_payload(message.node, payload)

    def _send(self, message: p.Message) -> bool:
        return self._send_payload(message.node, p.encode_message(message))

    def _send_payload(self, node: str, payload: bytes) -> bool:
        with self._lock:
            source = self._source_of.get(node)
        if source is None and self.link.fixed_sources:
            source = node
        return source is not None and self.link.send(source, payload)

    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    def wait_acked(self, timeout_s: float, online_only: bool = False) -> bool:
        """Block until every reliable command is acknowledged (or given up on); `online_only`:
        only those to nodes online now (an unplugged node cannot answer before its retries end)."""
        deadline = time.monotonic() + timeout_s

        def waiting() -> bool:
            return any(not online_only or self.is_online(x.node) for x in self._pending.values())

        with self._acked:
            while waiting():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._acked.wait(left)
            return True

    # ----- inbound -----------------------------------------------------------------------------
    def _deliver(self, source: str, payload: bytes) -> None:
        message = p.decode_message(payload, self.drops)
        if message is None:
            return
        node = message.node
        if node not in self.known:
            self.drops.drop("unknown_node", f"{node!r} from {source}")
            return
        if not self._from_its_own_source(source, message):
            return
        if self._duplicate(message):
            self.drops.drop("duplicate", f"{node} seq {message.seq}")
            return
        health = self._health[node]
        health.last_seen = time.monotonic()
        health.missed_pings = 0  # any word from the node shows it is alive
        self._count_gap(node, message, health)
        if not health.online and not isinstance(message, p.Hello | p.Status):
            self._came_online(node, health)  # it talks again: it may have missed commands
        match message:
            case p.Ack(ack=seq):
                self._settle(node, seq, None)
            case p.Nack(ack=seq, reason=reason):
                self._refused(node, seq, reason, health)
            case p.Pong(t=sent):
                rtt = (now_us() - sent) / 1000
                health.rtt_ms = rtt
                mean = health.rtt_mean_ms
                health.rtt_mean_ms = rtt if mean is None else mean * 0.9 + rtt * 0.1
            case p.Hello(kind=kind, firmware=firmware, version=version):
                health.kind, health.firmware = kind, firmware
                health.version = version if isinstance(version, str) else ""
                self._came_online(node, health)  # even when online: a hello means a (re)start
                self.on_event(message)
            case p.Status(state=state):
                self._note_faults(message, health)
                if state == "online":
                    if not health.online:
                        self._came_online(node, health)
                else:
                    self._went_offline(health, "it said so, or the broker gave its last will")
                self.on_event(message)
            case p.Error(code=code):
                health.errors[f"node:{code}"] += 1
                self.on_event(message)
            case p.TagPresent() | p.TagRemoved() | p.Button():
                self.on_event(message)
            case _:
                self.drops.drop("unexpected", f"{type(message).__name__} from {node}")

    def _from_its_own_source(self, source: str, message: p.Message) -> bool:
        node = message.node
        with self._lock:
            if self.link.fixed_sources:
                if source != node:
                    self.drops.drop("impersonation", f"{node!r} on {source}'s topic")
                    return False
                self._source_of[node] = source
                self._health[node].source = source
                return True
            bound = self._node_at.get(source)
            if isinstance(message, p.Hello):
                if bound is not None and bound != node:
                    self._source_of.pop(bound, None)  # another node was plugged into this port
                self._node_at[source] = node
                self._source_of[node] = source
                self._health[node].source = source
                self._seen.pop(node, None)  # a hello starts a new seq series (node rebooted)
                return True
            if bound != node:
                self.drops.drop("impersonation", f"{node!r} on {source} (bound: {bound})")
                return False
            return True

    def _duplicate(self, message: p.Message) -> bool:
        with self._lock:
            seen, order = self._seen.setdefault(message.node, (set(), deque()))
            if message.seq in seen:
                return True
            seen.add(message.seq)
            order.append(message.seq)
            if len(order) > DEDUP_WINDOW:
                seen.discard(order.popleft())
            return False

    def _count_gap(self, node: str, message: p.Message, health: NodeHealth) -> None:
        """Losses nobody else sees (a broker's full per-client queue, a noisy line): a node
        numbers everything it sends, so a jump in its seqs counts the messages lost on the way
        (`errors["lost_in_transit"]`). A hello starts a new series; the status that opens a
        connection follows the seq its last will took (sent only if it dies): one is forgiven."""
        if isinstance(message, p.Status) and message.state != "online":
            return  # a last will belongs to the connection before: it may come after the new hello
        with self._lock:
            last = self._last_seq.get(node)
            seq = message.seq
            if isinstance(message, p.Hello) or last is None:
                if isinstance(message, p.Hello) and last is not None:
                    self._series_before[node] = last
                self._last_seq[node] = seq
                return
            ahead = (seq - last) % 2**32
            missing_here = self._missing.setdefault(node, deque(maxlen=MAX_REMEMBERED_MISSING))
            if ahead > MAX_GAP and seq in missing_here:
                missing_here.remove(seq)
                health.errors["lost_in_transit"] -= 1  # overtaken on the way, not lost
                return
            if ahead == 0 or ahead > MAX_GAP:
                before = self._series_before.get(node)
                late = before is not None and (seq - before) % 2**32 <= MAX_GAP
                if ahead > MAX_GAP and ahead < 2**31 and not late:
                    self._last_seq[node] = seq  # a new series we did not see begin
                return  # a late or repeated message (of this series or the one before), a reset
            missing = ahead - 1
            holes = range(last + 1, seq)
            if isinstance(message, p.Status) and message.state == "online" and missing:
                missing -= 1
                holes = range(last + 1, seq - 1)  # the seq just before is its last will's
            if missing:
                health.errors["lost_in_transit"] += missing
                missing_here.extend(h % 2**32 for h in holes[-MAX_REMEMBERED_MISSING:])
            self._last_seq[node] = seq

    def _settle(self, node: str, seq: int, refusal: str | None) -> None:
        with self._acked:
            pending = self._pending.pop((node, seq), None)
            if pending is None:
                return  # an ack for a repeat we had already settled
            self._outcomes[(node, seq)] = refusal or ""
            while len(self._outcomes) > OUTCOMES:
                self._outcomes.popitem(last=False)
            health = self._health[node]
            if refusal is None:
                health.acked += 1
            self._acked.notify_all()

    def _refused(self, node: str, seq: int, reason: str, health: NodeHealth) -> None:
        """A nack: the command is settled (never resent: it would be refused again), logged and
        counted under the field the node names."""
        field = p.refused_field(reason) or "command"
        # logged and described before counted: whoever watches the count finds both
        log.warning("node %s refused command %d: %s", node, seq, reason)
        health.last_refusal = reason
        health.errors[f"refused {field}"] += 1
        self._settle(node, seq, reason)

    @staticmethod
    def _note_faults(status: p.Status, health: NodeHealth) -> None:
        if not isinstance(status.faults, int):
            return  # no faults field: none since its boot
        if status.faults != health.faults:
            log.warning(
                "node %s caught %d faults since its boot (the loop goes on); last: %s",
                health.node,
                status.faults,
                status.fault if isinstance(status.fault, str) else "?",
            )
        health.last_fault = status.fault if isinstance(status.fault, str) else ""
        health.faults = status.faults  # last: the count is what a watcher waits for

    def _went_offline(self, health: NodeHealth, reason: str) -> None:
        if health.online or not health.offline_reason:
            log.info("node %s offline: %s", health.node, reason)
        health.online = False
        health.offline_reason = reason

    def _came_online(self, node: str, health: NodeHealth) -> None:
        health.online = True
        health.offline_reason = ""
        with self._lock:
            shown = list(self._leds.get(node, {}).values())
        for led in shown:  # the node may have lost power or missed commands: show it again
            self._send_led(msgspec.structs.replace(led, seq=self._next_seq()))
        self.ping(node)

    def _source_changed(self, source: str, up: bool) -> None:
        with self._lock:
            node = source if self.link.fixed_sources else self._node_at.get(source)
        if node is None or node not in self._health:
            return
        if not up:
            self._went_offline(self._health[node], "its link went down")

    # ----- timer: retries and pings ------------------------------------------------------------
    def _tick(self) -> None:
        last_ping = time.monotonic()
        while not self._stopping.wait(min(0.02, self.retry_after_s / 4)):
            now = time.monotonic()
            self._retry_due(now)
            if now - last_ping >= self.ping_every_s:
                last_ping = now
                self._ping_round()

    def _ping_round(self) -> None:
        """Ping every node heard from (offline ones too: a pong brings one back). A node that
        has let `offline_after_missed` pings pass without a word is offline."""
        with self._lock:
            nodes = [(n, h) for n, h in self._health.items() if h.last_seen is not None]
        for node, health in nodes:
            if health.online and health.missed_pings >= self.offline_after_missed:
                self._went_offline(health, f"no answer to {health.missed_pings} pings")
            health.missed_pings += 1
            self.ping(node)

    def _retry_due(self, now: float) -> None:
        with self._lock:
            due = [x for x in self._pending.values() if x.deadline <= now]
        for pending in due:
            if pending.tries >= self.max_tries:
                with self._acked:
                    if self._pending.pop((pending.node, pending.message.seq), None) is not None:
                        self._health[pending.node].errors["unacked"] += 1
                        self.failed.append(pending.message)
                        self._acked.notify_all()
                continue
            gap = min(self.retry_after_s * 2**pending.tries, self.max_retry_gap_s)
            pending.tries += 1
            pending.deadline = now + gap
            self._health[pending.node].errors["resent"] += 1
            self._send_payload(pending.node, pending.payload)

    def ring(self, node: str) -> p.Led | None:
        """What the node's ring should show now (its last ring command), if anything."""
        with self._lock:
            return self._leds.get(node, {}).get(("ring", None))

    # ----- health ------------------------------------------------------------------------------
    def is_online(self, node: str) -> bool:
        health = self._health.get(node)
        return health is not None and health.online

    def health(self) -> list[NodeHealth]:
        with self._lock:
            return [
                NodeHealth(**{**h.__dict__, "errors": Counter(h.errors)})
                for _, h in sorted(self._health.items())
            ]
