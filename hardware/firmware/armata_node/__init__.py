# MicroPython node firmware for the Armata Strigoi table companion (see ../README.md).
