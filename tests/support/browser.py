"""Debian's headless Chromium driven by Selenium through Debian's chromium-driver: nothing is
downloaded at run time (Selenium's own driver manager is bypassed by naming the driver)."""

from __future__ import annotations

import shutil
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def have_chromium() -> bool:
    return shutil.which("chromium") is not None and shutil.which("chromedriver") is not None


def chromium(width: int = 1024, height: int = 768, language: str = "en") -> webdriver.Chrome:
    """A headless page `width` x `height` CSS pixels, its browser language `language`."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        f"--lang={language}",
        f"--window-size={max(width, 500)},{height + 200}",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # CSP reports, errors
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    size(driver, width, height)
    return driver


def refused_by_policy(driver: webdriver.Chrome) -> list[str]:
    """What the page's Content-Security-Policy refused (Chromium's console), since last asked."""
    return [
        str(entry.get("message", ""))
        for entry in driver.get_log("browser")
        if "Content Security Policy" in str(entry.get("message", ""))
    ]


def size(driver: webdriver.Chrome, width: int, height: int) -> None:
    """The page's viewport exactly (a headless window has a minimum width of its own)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def page_state(driver: webdriver.Chrome) -> dict[str, Any]:
    """What the page shows, read from its DOM in one call."""
    result: dict[str, Any] = driver.execute_script(
        """
        const figures = {};
        for (const g of document.querySelectorAll('#board g.figure')) {
          figures[g.dataset.figure] = g.dataset.cell;
        }
        const rooms = {};
        for (const g of document.querySelectorAll('#board g.room')) {
          rooms[g.dataset.room] = {
            rotation: Number(g.dataset.rotation),
            collapsed: g.classList.contains('collapsed'),
            books: [...g.querySelectorAll('.book')].map((b) => b.dataset.letter).join(''),
          };
        }
        const cards = [...document.querySelectorAll('#cards .card')].map((c) => ({
          title: c.querySelector('h2').textContent,
          lines: [...c.querySelectorAll('.line')].map((l) => l.textContent),
        }));
        return {
          version: Number(document.body.dataset.version || 0),
          live: document.body.dataset.live === '1',
          behind: document.body.classList.contains('behind'),
          round: Number(document.body.dataset.round || 0),
          status: document.getElementById('status').textContent,
          figures, rooms, cards,
          text: document.body.innerText,
          hands: document.querySelectorAll('.hand-card').length,
          handTitles: [...document.querySelectorAll('.hand-card h4')].map((x) => x.textContent),
          seatShown: !document.getElementById('seat').hidden,
          scrollWidth: document.documentElement.scrollWidth,
        };
        """
    )
    return result
