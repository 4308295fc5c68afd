"""The table service and its packages (words, story, table, session, devices)."""
