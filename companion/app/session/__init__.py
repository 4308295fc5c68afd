"""The stored game: a session on its log, opening the log, the setup plan, the first
frame, backups."""
