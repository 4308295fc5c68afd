# A fake `neopixel` module for the MicroPython Unix port (tests): each write() that changes the
# pixels saves them to `pixels.json` in the working directory, for the test to read.
import json


class NeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count
        self.shown = None

    def __setitem__(self, index, value):
        self.pixels[index] = tuple(value)

    def __getitem__(self, index):
        return self.pixels[index]

    def write(self):
        if self.pixels == self.shown:
            return
        self.shown = list(self.pixels)
        with open("pixels.json.new", "w") as stream:
            stream.write(json.dumps([list(p) for p in self.pixels]))
        import os

        os.rename("pixels.json.new", "pixels.json")
