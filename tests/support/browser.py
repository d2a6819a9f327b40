"""A real browser for the tests: headless Chromium driven by selenium, from Debian's
`chromium` and `chromium-driver` (.ci/run installs them) and selenium (the `test` extra).

`chromium(tmp_path)` hands out a driver with a new empty profile, the performance log on
(every network request the page makes is in it), and every way Chromium has of reaching
out by itself turned off; it skips the test, saying which part is missing, where there is
no browser to drive.
"""
from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,1000")


@contextlib.contextmanager
def chromium(profile: Path):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (the `test` extra has it: pip install -e '.[test]')")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if browser is None or driver_path is None:
        pytest.skip("no headless Chromium here: Debian's `chromium` and `chromium-driver` are not installed "
                    "(.ci/run installs them with apt-get)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    profile.mkdir(parents=True, exist_ok=True)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def requests(driver) -> list[str]:
    """The URL of every request the browser sent since the log was last read."""
    import json

    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def console_errors(driver) -> list[str]:
    """What the page said was wrong (a refused script or style, a script error)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
