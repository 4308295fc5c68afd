"""The table view in a browser: an aiohttp server (server.py) and its page (static/). The
server imports only companion.app, like the Kivy UI, and never touches the game."""
