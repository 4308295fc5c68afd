"""The table's devices: the voice, the Wi-Fi, the simulated hands."""
