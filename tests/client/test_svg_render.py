"""Each game's picture rendered by a real browser (headless Chromium): not blank, in more
than a couple of colours, and different between two positions of one game."""
import base64

import pytest

import peerboard.svg
from support.browser import chromium
from test_svg import played

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]  # (chromedriver renders)

#: the SVG as an image on a canvas: its size, how many pixels are not the page's white, how
#: many colours it has, and a checksum of every pixel
RENDER = """
var done = arguments[arguments.length - 1], image = new Image();
image.onload = function () {
  var canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  var context = canvas.getContext("2d");
  context.fillStyle = "#fff"; context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0);
  var d = context.getImageData(0, 0, canvas.width, canvas.height).data, inked = 0, sum = 0, colours = {};
  for (var i = 0; i < d.length; i += 4) {
    if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) inked++;
    colours[(d[i] >> 4) + "," + (d[i + 1] >> 4) + "," + (d[i + 2] >> 4)] = 1;
    sum = (sum * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) % 1000000007;
  }
  done([canvas.width, canvas.height, inked, Object.keys(colours).length, sum]);
};
image.onerror = function () { done(null); };
image.src = "data:image/svg+xml;base64," + arguments[0];
"""


@pytest.mark.parametrize("name,players", [("athos", 3), ("aton", 2), ("asterix", 4)])
def test_each_games_picture_renders_and_changes_with_the_position(name, players, tmp_path):
    with chromium(tmp_path / "profile") as driver:
        driver.get("about:blank")
        seen = []
        for actions in (40, 140):
            game, state, last, before = played(name, players, actions)
            svg = peerboard.svg.board(game, state, size=600, last=last, before=before)
            result = driver.execute_async_script(RENDER, base64.b64encode(svg.encode()).decode())
            assert result is not None, f"the browser could not draw {name}'s picture"
            width, height, inked, colours, checksum = result
            assert width == 600 and height > 300
            assert inked > width * height // 2  # a board, not a blank page
            assert colours >= 8  # the game's colours, not one flat tone
            seen.append(checksum)
        assert seen[0] != seen[1]
