"""The table view in a browser: an aiohttp server (server.py) and its page (static/). The
server imports only companion.app, like the Kivy UI, and never touches the game."""

#: where the table view listens unless told (here, not in server.py: reading it does not import
#: aiohttp, which the touchscreen loads only once its first frame is drawn)
DEFAULT_PORT = 8421
