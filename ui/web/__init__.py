"""The table view in a browser: an aiohttp server (server.py) and its page (static/). The
server imports only companion.app, like the Kivy UI, and never touches the game. Its default
port is `companion.app.web.feed.DEFAULT_PORT` (reading it does not import aiohttp, which the
touchscreen loads only once its first frame is drawn)."""
