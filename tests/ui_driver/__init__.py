"""The UI test harness: scripted touches on the running Kivy app (not part of the product)."""
