"""The bridge's error root (the bridge stands alone: it does not import the companion)."""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error the bridge raises on purpose."""


class BrokerAccessError(BridgeError, ValueError):
    """The broker address or credentials file cannot be used as given."""


class ProvisionError(BridgeError, RuntimeError):
    """Broker provisioning cannot finish (a tool is missing, a user does not exist)."""


class PayloadTooLarge(BridgeError, ValueError):
    """A message or frame would exceed the protocol's size limit."""


class UnknownNode(BridgeError, ValueError):
    """A node id that is not part of this table."""


class InvalidMessage(BridgeError, ValueError):
    """A message built on the Pi with a value outside the protocol (docs/protocol.md)."""


class BadId(BridgeError, ValueError):
    """A table, node, room or login id that cannot become a topic, a file name or an ACL line."""


class FirmwareFileError(BridgeError, ValueError):
    """The shipped node firmware's files do not say their version (hardware/shipped_firmware.py)."""
