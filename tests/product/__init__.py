"""The product on the Pi: install, update, backups to a stick, the report, `./setup.sh run`."""
