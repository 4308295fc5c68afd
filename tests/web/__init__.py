"""The phones' view: the feed, the server, Chromium."""
