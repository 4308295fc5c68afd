"""Serial framing: COBS-encoded payload + CRC-16/CCITT-FALSE, each frame ended by a 0x00 byte.

COBS (the `cobs` package) removes every 0x00 from the frame body, so 0x00 marks frame ends and a
receiver resynchronises after garbage at the next 0x00. The CRC (stdlib `binascii.crc_hqx`,
init 0xFFFF, big-endian) detects corruption. Bad frames are dropped and counted, never raised.
"""

from __future__ import annotations

from binascii import crc_hqx

from cobs import cobs

from firmware_bridge.errors import PayloadTooLarge
from firmware_bridge.protocol import MAX_PAYLOAD, DropCounter

DELIMITER = b"\x00"
MAX_FRAME = MAX_PAYLOAD + 2 + MAX_PAYLOAD // 254 + 2  # COBS overhead + CRC


def crc16(data: bytes) -> int:
    return crc_hqx(data, 0xFFFF)


def frame(payload: bytes) -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise PayloadTooLarge(f"payload of {len(payload)} bytes > {MAX_PAYLOAD}")
    return bytes(cobs.encode(payload + crc16(payload).to_bytes(2, "big"))) + DELIMITER


class FrameDecoder:
    """Feed it bytes as they arrive; it returns the payloads of complete, intact frames."""

    def __init__(self, drops: DropCounter | None = None) -> None:
        self.drops = drops or DropCounter()
        self._pending = bytearray()
        self._overflow = False  # discarding until the next delimiter

    def feed(self, data: bytes) -> list[bytes]:
        payloads: list[bytes] = []
        *complete, rest = data.split(DELIMITER)
        for piece in complete:
            body = bytes(self._pending) + piece
            self._pending.clear()
            if self._overflow:
                self._overflow = False
                continue
            if body:
                payload = self._unframe(body)
                if payload is not None:
                    payloads.append(payload)
        if not self._overflow:
            self._pending += rest
            if len(self._pending) > MAX_FRAME:
                self.drops.drop("overflow", f"{len(self._pending)} bytes without a delimiter")
                self._pending.clear()
                self._overflow = True
        return payloads

    def _unframe(self, body: bytes) -> bytes | None:
        if len(body) > MAX_FRAME:
            self.drops.drop("overflow", f"{len(body)} bytes")
            return None
        try:
            raw = bytes(cobs.decode(body))
        except cobs.DecodeError as exc:
            self.drops.drop("cobs", str(exc))
            return None
        if len(raw) < 3:
            self.drops.drop("short", f"{len(raw)} bytes")
            return None
        payload, crc = raw[:-2], int.from_bytes(raw[-2:], "big")
        if crc16(payload) != crc:
            self.drops.drop("crc", f"{crc:#06x} != {crc16(payload):#06x}")
            return None
        return payload
