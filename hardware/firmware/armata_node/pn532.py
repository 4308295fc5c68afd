# A small PN532 driver over I2C: just what a node needs (configure, read one ISO14443A uid).
# Frame: 00 00 FF LEN LCS D4 CMD DATA.. DCS 00; the chip answers ACK (00 00 FF 00 FF 00), then
# a response frame with D5 and CMD+1. On I2C every read starts with a status byte (bit 0: ready).
import time

ADDRESS = 0x24
ACK = b"\x00\x00\xff\x00\xff\x00"
SAM_CONFIGURATION = 0x14
IN_LIST_PASSIVE_TARGET = 0x4A


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


class PN532:
    def __init__(self, i2c, address=ADDRESS, timeout_ms=50, sleep_ms=_sleep_ms):
        self.i2c = i2c
        self.address = address
        self.timeout_ms = timeout_ms
        self.sleep_ms = sleep_ms

    def _wait_ready(self):
        waited = 0
        while waited <= self.timeout_ms:
            if self.i2c.readfrom(self.address, 1)[0] & 0x01:
                return True
            self.sleep_ms(2)
            waited += 2
        return False

    def _read(self, count):
        return self.i2c.readfrom(self.address, count + 1)[1:]  # drop the status byte

    def command(self, command, params=b"", response_length=32):
        self.i2c.writeto(self.address, command_frame(command, params))
        if not self._wait_ready() or self._read(len(ACK)) != ACK:
            raise PN532Error("no ack")
        if not self._wait_ready():
            return None  # nothing in the field before the timeout
        frame = self._read(response_length + 8)
        if frame[:3] != b"\x00\x00\xff":
            raise PN532Error("bad frame")
        length = frame[3]
        if (length + frame[4]) & 0xFF:
            raise PN532Error("bad length checksum")
        body = frame[5 : 5 + length]
        if len(body) < 2 or body[0] != 0xD5 or body[1] != command + 1:
            raise PN532Error("unexpected response")
        if (sum(body) + frame[5 + length]) & 0xFF:
            raise PN532Error("bad data checksum")
        return body[2:]

    def configure(self):
        self.command(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, timeout, use IRQ

    def read_uid(self):
        """The uid of one card in the field, or None."""
        try:
            data = self.command(IN_LIST_PASSIVE_TARGET, b"\x01\x00")  # one target, 106 kbps A
        except (PN532Error, OSError):
            return None
        if not data or data[0] != 1:
            return None
        uid_length = data[5]
        return bytes(data[6 : 6 + uid_length])
