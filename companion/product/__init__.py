"""The installed product on the Pi: releases side by side and updates that roll back, backups
of the game log, the report a user can send (hardware/pi/README.md, docs/install-and-update.md).
The install itself is hardware/pi/install (standard library only, run before any environment)."""
