# A small PN532 driver over I2C: just what a node needs (configure, read one ISO14443A uid).
# Frame: 00 00 FF LEN LCS D4 CMD DATA.. DCS 00; the chip answers ACK (00 00 FF 00 FF 00), then
# a response frame with D5 and CMD+1. On I2C every read starts with a status byte (bit 0: ready).
#
# The node loop must never wait on a reader (a command from the Pi would wait behind it), so a
# tag read is a small state machine: `step(now_ms)` sends the command, then on later calls looks
# at the status byte once and reads the ACK or the answer only when the chip says it is ready.
# `configure()` (at boot, before the loop) may wait; it also tells the chip to give up at once
# when no card is in the field, so that every read ends with an answer.
import time

ADDRESS = 0x24
ACK = b"\x00\x00\xff\x00\xff\x00"
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
READ_TIMEOUT_MS = 100  # a read with no answer by then counts as "no tag" and starts again
ERROR_PAUSE_MS = 500  # after an I2C error (reader missing or unplugged) before trying again

READING = "reading"  # step(): the chip is still busy; ask again on the next turn
_IDLE, _WAIT_ACK, _WAIT_ANSWER = 0, 1, 2


def _sleep_ms(ms):
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)  # MicroPython
    else:
        time.sleep(ms / 1000)


def command_frame(command, params=b""):
    body = bytes([0xD4, command]) + bytes(params)
    length = len(body)
    checksum = (-sum(body)) & 0xFF
    return b"\x00\x00\xff" + bytes([length, (-length) & 0xFF]) + body + bytes([checksum, 0x00])


class PN532Error(Exception):
    pass


def parse_answer(command, frame):
    """The data of a response frame to `command`; PN532Error for anything malformed."""
    if len(frame) < 7 or frame[:3] != b"\x00\x00\xff":
        raise PN532Error("bad frame")
    length = frame[3]
    if (length + frame[4]) & 0xFF:
        raise PN532Error("bad length checksum")
    if len(frame) < 6 + length:
        raise PN532Error("short frame")
    body = frame[5 : 5 + length]
    if len(body) < 2 or body[0] != 0xD5 or body[1] != command + 1:
        raise PN532Error("unexpected response")
    if (sum(body) + frame[5 + length]) & 0xFF:
        raise PN532Error("bad data checksum")
    return body[2:]


def uid_of(data):
    """The uid in an InListPassiveTarget answer, or None (no target, or a malformed answer)."""
    if not data or data[0] != 1 or len(data) < 6:
        return None
    uid_length = data[5]
    if uid_length == 0 or len(data) < 6 + uid_length:
        return None
    return bytes(data[6 : 6 + uid_length])


class PN532:
    def __init__(self, i2c, address=ADDRESS, timeout_ms=50, sleep_ms=_sleep_ms):
        self.i2c = i2c
        self.address = address
        self.timeout_ms = timeout_ms
        self.sleep_ms = sleep_ms
        self.state = _IDLE
        self.started = 0
        self.resume_at = None  # after an error: no reads before this time

    # ----- blocking, for the boot ------------------------------------------------------------
    def _wait_ready(self):
        waited = 0
        while waited <= self.timeout_ms:
            if self._ready():
                return True
            self.sleep_ms(2)
            waited += 2
        return False

    def _ready(self):
        return bool(self.i2c.readfrom(self.address, 1)[0] & 0x01)

    def _read(self, count):
        return self.i2c.readfrom(self.address, count + 1)[1:]  # drop the status byte

    def command(self, command, params=b"", response_length=32):
        self.i2c.writeto(self.address, command_frame(command, params))
        if not self._wait_ready() or self._read(len(ACK)) != ACK:
            raise PN532Error("no ack")
        if not self._wait_ready():
            return None  # nothing in the field before the timeout
        return parse_answer(command, self._read(response_length + 8))

    def configure(self):
        self.command(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, timeout, use IRQ
        # MaxRetries: ATR 0xFF, PSL 1, passive activation 1 -> "no target" answered at once
        self.command(RF_CONFIGURATION, b"\x05\xff\x01\x01")

    def read_uid(self):
        """The uid of one card in the field, or None (blocking; the node loop uses step)."""
        try:
            return uid_of(self.command(IN_LIST_PASSIVE_TARGET, b"\x01\x00"))
        except (PN532Error, OSError):
            return None

    # ----- non-blocking, for the node loop -----------------------------------------------------
    def step(self, now_ms):
        """Advance the current tag read by at most one short I2C transfer. Returns READING while
        the chip works, then the uid (bytes) or None when no tag is there."""
        try:
            return self._step(now_ms)
        except (PN532Error, OSError, IndexError, ValueError):
            self.state = _IDLE
            self.resume_at = now_ms + ERROR_PAUSE_MS
            return None

    def _step(self, now_ms):
        if self.state == _IDLE:
            if self.resume_at is not None and now_ms - self.resume_at < 0:
                return READING
            self.resume_at = None
            self.i2c.writeto(self.address, command_frame(IN_LIST_PASSIVE_TARGET, b"\x01\x00"))
            self.state, self.started = _WAIT_ACK, now_ms
            return READING
        if now_ms - self.started > READ_TIMEOUT_MS:
            self.state = _IDLE
            return None
        if not self._ready():
            return READING
        if self.state == _WAIT_ACK:
            if self._read(len(ACK)) != ACK:
                raise PN532Error("no ack")
            self.state = _WAIT_ANSWER
            return READING
        self.state = _IDLE
        return uid_of(parse_answer(IN_LIST_PASSIVE_TARGET, self._read(40)))
