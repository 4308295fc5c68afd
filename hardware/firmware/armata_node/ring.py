# The WS2812 ring around a platform: a whole-ring setting plus per-direction segments on top.
# `pixels` is a neopixel.NeoPixel (or anything with item assignment and write()).

PULSE_PERIOD_MS = 1200
#: The brightness cap: a command's brightness 0-255 is scaled to 0-MAX_LEVEL of each colour
#: channel, so a whole ring at full white draws at most MAX_LEVEL/255 of the LEDs' full current
#: (the power budget of hardware/BUILD.md is worked out from this number).
MAX_LEVEL = 85
CHASE_STEP_MS = 80


def parse_colour(text):
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


class Ring:
    def __init__(self, pixels, count, first_direction_pixel=0):
        self.pixels = pixels
        self.count = count
        self.offset = first_direction_pixel  # pixel where direction 0 (east) starts
        self.base = None
        self.segments = {}

    def apply(self, led):
        if led.get("target", "ring") == "ring":
            self.base = led
            self.segments = {}
        elif led.get("direction") is not None:
            self.segments[led["direction"]] = led

    def segment_pixels(self, direction):
        per = self.count // 6
        start = self.offset + direction * per
        return [(start + k) % self.count for k in range(per)]

    def _level(self, led, now_ms, index, span):
        pattern = led.get("pattern", "steady")
        if pattern == "off":
            return 0
        brightness = led.get("brightness", 128)
        if pattern == "pulse":
            phase = now_ms % PULSE_PERIOD_MS
            half = PULSE_PERIOD_MS // 2
            ramp = phase if phase < half else PULSE_PERIOD_MS - phase
            return brightness * ramp // half
        if pattern == "chase":
            return brightness if index == (now_ms // CHASE_STEP_MS) % span else 0
        return brightness

    def _paint(self, led, pixels, now_ms):
        colour = parse_colour(led.get("colour", "#000000"))
        for index, pixel in enumerate(pixels):
            level = self._level(led, now_ms, index, len(pixels))
            self.pixels[pixel] = tuple(c * level * MAX_LEVEL // 65025 for c in colour)

    def render(self, now_ms):
        everything = list(range(self.count))
        if self.base is None:
            for pixel in everything:
                self.pixels[pixel] = (0, 0, 0)
        else:
            self._paint(self.base, everything, now_ms)
        for direction, led in self.segments.items():
            self._paint(led, self.segment_pixels(direction), now_ms)
        self.pixels.write()
