# A fake `machine` module for running the node firmware under the MicroPython Unix port (tests).
# `I2C(id)` answers like a PN532 on that bus. What lies in its field is read from the file
# `field-<id>` in the working directory at every InListPassiveTarget: a uid in hex, or nothing.
# A bus whose file `missing-<id>` exists answers nothing (OSError), like an unplugged reader.
# A bus whose file `explode-<id>` exists raises RuntimeError: a fault the driver does not expect.
try:
    import os
except ImportError:  # pragma: no cover
    import uos as os


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Pin:
    def __init__(self, number, *args, **kwargs):
        self.number = number


def _response(code, data):
    body = bytes([0xD5, code]) + data
    return (
        b"\x00\x00\xff"
        + bytes([len(body), (-len(body)) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0])
    )


class I2C:
    def __init__(self, bus_id, scl=None, sda=None, freq=400000):
        self.bus_id = bus_id
        self.queue = []
        self.commands = 0

    def _field(self):
        try:
            with open("field-%d" % self.bus_id) as stream:
                text = stream.read().strip()
        except OSError:
            return None
        return bytes.fromhex(text) if text else None

    def _check(self):
        if _exists("missing-%d" % self.bus_id):
            raise OSError(19)  # ENODEV
        if _exists("explode-%d" % self.bus_id):
            raise RuntimeError("bus %d exploded" % self.bus_id)

    def writeto(self, address, data):
        self._check()
        self.commands += 1
        command = data[6]
        self.queue = [b"\x00\x00\xff\x00\xff\x00"]
        if command == 0x4A:
            uid = self._field()
            if uid is None:
                self.queue.append(_response(0x4B, b"\x00"))
            else:
                body = b"\x01\x01\x00\x04\x08" + bytes([len(uid)]) + uid
                self.queue.append(_response(0x4B, body))
        else:
            self.queue.append(_response(command + 1, b""))

    def readfrom(self, address, count):
        self._check()
        if count == 1:
            return b"\x01" if self.queue else b"\x00"  # ready while there is something to read
        data = self.queue.pop(0) if self.queue else b""
        return (b"\x01" + data + bytes(count))[:count]
