# A fake `neopixel` module for the MicroPython Unix port (tests): each write() that changes the
# pixels saves them to `pixels.json` in the working directory, for the test to read. While the
# file `pixels-broken` exists, write() raises RuntimeError (a fault the ring code does not expect).
# Stricter than the real one (which wraps values past 255 and refuses floats): a pixel must be
# three integers 0-255, anything else raises, so a level the ring should never compute shows.
import json
import os


class NeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count
        self.shown = None

    def __setitem__(self, index, value):
        value = tuple(value)
        for c in value:
            if not isinstance(c, int) or not 0 <= c <= 255:
                raise ValueError("pixel value out of range")
        if len(value) != 3:
            raise ValueError("pixel needs three values")
        self.pixels[index] = value

    def __getitem__(self, index):
        return self.pixels[index]

    def write(self):
        try:
            os.stat("pixels-broken")
            broken = True
        except OSError:
            broken = False
        if broken:
            raise RuntimeError("the LED strip broke")
        if self.pixels == self.shown:
            return
        self.shown = list(self.pixels)
        with open("pixels.json.new", "w") as stream:
            stream.write(json.dumps([list(p) for p in self.pixels]))
        os.rename("pixels.json.new", "pixels.json")
