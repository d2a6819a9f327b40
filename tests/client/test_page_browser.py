"""The one-page replay in a real browser: `peerboard replay FILE --html OUT` written for a
whole game of Aton with its analysis, opened from disk in headless Chromium; the keys
→ and End and a click on a move step through it, the board and the move list follow, and
the page asks nothing of the network (the performance log holds every request)."""
import subprocess
import sys

import pytest

from support.browser import chromium, console_errors, requests
from support.stored_games import build, store

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]  # (chromedriver, and `analyse` for the page)


def wait_for(driver, predicate, what: str, limit: float = 20.0):
    """`predicate()`'s first true value, as selenium's wait polls the page for it (at most `limit` s)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.wait import WebDriverWait

    try:
        return WebDriverWait(driver, limit, poll_frequency=0.05).until(lambda _: predicate())
    except TimeoutException:
        raise AssertionError(f"the page never showed {what}") from None


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("page")
    # (a game whose analysis at this budget marks moves: the page shows their signs)
    log = store(folder, build("aton", seed=6), name="aton.pblog")
    out = folder / "aton.html"
    for argv in (["analyse", "--budget", "20", str(log)], ["replay", str(log), "--html", str(out)]):
        done = subprocess.run([sys.executable, "-m", "peerboard.client.cli", *argv], capture_output=True, text=True,
                              timeout=240)
        assert done.returncode == 0, done.stderr
    assert "with its analysis" in done.stdout
    return out


def test_the_page_steps_through_the_game_with_the_keys_and_the_move_list(page, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with chromium(tmp_path / "profile") as driver:
        driver.get(page.as_uri())
        where = lambda: driver.find_element(By.ID, "where").text  # noqa: E731
        board = lambda: driver.find_element(By.ID, "board").get_attribute("innerHTML")  # noqa: E731
        current = lambda: driver.find_elements(By.CSS_SELECTOR, "#moves li.now")  # noqa: E731
        first = wait_for(driver, where, "the position counter")
        assert first.startswith("0 / ")
        last = int(first.split(" / ")[1])
        start_board = board()
        assert start_board.startswith("<svg") and "Temple 1" in start_board
        assert not current()  # nothing played yet

        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for(driver, lambda: where() == f"1 / {last}", "position 1 after →")
        assert current()[0].get_attribute("data-at") == "1"

        body.send_keys(Keys.END)
        wait_for(driver, lambda: where() == f"{last} / {last}", "the last position after End")
        assert board() != start_board
        assert "Game over" in board()
        assert current()[0].get_attribute("data-at") == str(last)
        assert "Game over" in driver.find_element(By.CLASS_NAME, "result").text

        driver.find_elements(By.CSS_SELECTOR, "#moves li")[9].click()
        wait_for(driver, lambda: where() == f"10 / {last}", "position 10 after a click on move 10")
        body.send_keys(Keys.HOME)
        wait_for(driver, lambda: where() == f"0 / {last}", "the first position after Home")
        assert board() == start_board

        # the analysis: a graph, and the marked moves carry their sign
        assert driver.find_element(By.ID, "graph").is_displayed()
        marks = driver.find_elements(By.CSS_SELECTOR, "#moves .mark")
        assert marks and all(m.text.strip() in ("?", "??", "?!") for m in marks)  # (?!: a close call)

        assert console_errors(driver) == []  # the policy refused nothing of the page's own
        # every request but the page itself (and the browser's own new-tab page, chrome://)
        asked = [url for url in requests(driver) if url.split("#")[0] != page.as_uri()
                 and not url.startswith(("chrome:", "chrome-untrusted:", "about:", "data:"))]
        assert asked == []


def test_a_seat_view_turns_the_other_hand_face_down(page, tmp_path):
    from selenium.webdriver.common.by import By

    with chromium(tmp_path / "profile") as driver:
        driver.get(page.as_uri() + "#9")  # both hands drawn, cartouches not yet assigned
        wait_for(driver, lambda: driver.find_element(By.ID, "where").text.startswith("9 / "), "position 9")
        back = 'fill="#6b4f2a"'
        everything = driver.find_element(By.ID, "board").get_attribute("innerHTML")
        driver.find_element(By.CSS_SELECTOR, '[data-view="1"]').click()  # as seat 0
        wait_for(driver, lambda: driver.find_element(By.ID, "board").get_attribute("innerHTML") != everything, "seat 0's view")
        as_seat0 = driver.find_element(By.ID, "board").get_attribute("innerHTML")
        assert everything.count(back) == 0 and as_seat0.count(back) > 0
