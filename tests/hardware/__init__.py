"""The node firmware under MicroPython, the Pi's pins and buttons, the broker's provisioning,
the build guide."""
