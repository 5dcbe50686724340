"""Headless Chromium, for tests that look at a page the way a browser shows it.

The page is loaded from a file:// URL; Chromium prints the DOM it built or
writes a screenshot, then quits. A test that needs it takes the ``chromium``
fixture of conftest.py, which skips loudly (or fails under CI) without one.
``driven`` is Chromium driven by selenium, for pages used as a person uses
them, ``gone`` waits for the page an element was on to be replaced, and
``accessible`` has axe-core (4.12) check such a page against WCAG 2.1 A and AA.
"""

import os
import signal
import struct
import subprocess
import tempfile
import zlib
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from shutil import which

# Debian's package, Ubuntu's older one, Google's builds.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 60


@cache
def chromium():
    """The path of a Chromium (or Chrome) on PATH, or None."""
    return next(filter(None, map(which, NAMES)), None)


def _run(*args):
    """Run headless Chromium with ``args``; its stdout, or RuntimeError with its stderr."""
    binary = chromium()
    if binary is None:
        raise RuntimeError(f"no Chromium on PATH (looked for {', '.join(NAMES)})")
    with tempfile.TemporaryDirectory(prefix="chromium-", ignore_cleanup_errors=True) as home:
        # A throwaway HOME and profile: Chromium writes both, and a shared or
        # read-only HOME would make runs depend on each other or fail.
        # --no-sandbox: its sandbox can't start as root or in most containers,
        # and the pages opened here are the project's own.
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--hide-scrollbars", f"--user-data-dir={home}/profile", *args]
        # A session of its own, so a timeout kills the launcher script and every
        # process Chromium started, not only the first.
        process = subprocess.Popen(command, env={**os.environ, "HOME": home},
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        try:
            out, err = process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise RuntimeError(f"Chromium did not finish in {TIMEOUT} s: {' '.join(args)}") \
                from None
    if process.returncode != 0:
        raise RuntimeError(f"Chromium exited with {process.returncode}: {err[-2000:]}")
    return out


def dump_dom(page):
    """The DOM Chromium built from the HTML file ``page``, serialised as HTML."""
    return _run("--dump-dom", Path(page).resolve().as_uri())


def screenshot(page, png, size=(1280, 1800)):
    """Write a ``size`` (width, height) screenshot of the HTML file ``page`` to ``png``."""
    png = Path(png).resolve()
    png.unlink(missing_ok=True)
    _run(f"--screenshot={png}", f"--window-size={size[0]},{size[1]}",
         Path(page).resolve().as_uri())
    if not png.is_file():
        raise RuntimeError(f"Chromium wrote no screenshot to {png}")
    return png


def png_size(png):
    """The (width, height) of a PNG file, after checking that its image data is whole.

    Reads every chunk and checks its CRC, then inflates the image data and checks
    that it holds exactly one filtered row per line of pixels.
    """
    data = Path(png).read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG file")
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in a {kind!r} chunk")
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    row = 1 + (width * channels * depth + 7) // 8
    if len(zlib.decompress(chunks[b"IDAT"])) != height * row:
        raise ValueError("the image data does not fill the image")
    return width, height


# WCAG 2.0 and 2.1, A and AA.
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# A current axe-core, kept beside the tests with its licence (axe-selenium-python's own
# copy is axe-core 3.1.1, older than WCAG 2.1's rules).
AXE = Path(__file__).with_name("axe-core") / "axe.min.js"


@contextmanager
def driven(chromium_path, chromedriver, home):
    """A fresh headless Chromium driven by selenium, with its profile and HOME in the
    folder ``home``; always quit afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    # Both paths given: selenium then never runs Selenium Manager, which would download.
    options.binary_location = chromium_path
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--no-proxy-server", "--window-size=1920,1400",
                 f"--user-data-dir={Path(home) / 'chromium-profile'}"):
        options.add_argument(flag)
    # A throwaway HOME too: Chromium writes there (crash reports, certificates) whatever
    # the profile, and a shared HOME would make runs depend on each other.
    service = Service(executable_path=chromedriver, env={**os.environ, "HOME": str(home)})
    chrome = webdriver.Chrome(service=service, options=options)
    try:
        chrome.set_page_load_timeout(30)
        yield chrome
    finally:
        chrome.quit()


def gone(driver, element, timeout=30):
    """Wait until the page ``element`` was on has been replaced by the next one.

    selenium's ``staleness_of`` only knows the stale-element error; while the next
    page is loading, chromedriver may instead answer that the node "does not belong
    to the document", which says the same thing and is taken as such here.
    """
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def replaced(_):
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in (error.msg or ""):
                return True
            raise
        return False

    WebDriverWait(driver, timeout).until(replaced)


def accessible(driver):
    """axe-core finds no WCAG 2.1 A or AA violation on the page ``driver`` shows."""
    from axe_selenium_python import Axe

    driver.set_script_timeout(60)  # axe-core takes a few seconds on a loaded machine
    axe = Axe(driver, script_url=str(AXE))
    axe.inject()
    found = axe.run(options={"runOnly": {"type": "tag", "values": WCAG}})
    assert found["violations"] == [], axe.report(found["violations"])
