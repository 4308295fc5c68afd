# The firmware's version: sent in every hello (`version`), compared by the app with the firmware
# it ships (hardware/shipped_firmware.py). Raise it with every change to the files copied to a
# node (main.py, armata_node/): tests/test_firmware_version.py holds their digest per version.
VERSION = "0.3"
