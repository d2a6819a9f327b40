"""The page's own script and style, inlined into every page (no file, font or request
leaves it; the page's Content-Security-Policy allows these two by their hashes and
nothing else).

The script reads the game from the page's JSON (`#game`), joins a position's picture from
its parts (client/page/pool.py: `slots` rebuilds a position written as its changes from
the one before, from the latest position written whole) and steps through the positions: the buttons, a click on
a move or on the graph, and the keys ← → Home End.
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game").textContent);
  var parts = data.parts, positions = data.positions, last = positions.length - 1;
  var board = document.getElementById("board"), moves = document.getElementById("moves");
  var where = document.getElementById("where"), status = document.getElementById("status");
  var note = document.getElementById("note"), cursor = document.getElementById("cursor");
  var at = 0, view = data.view, items = [];

  var known = {};  // "view/position" -> its part numbers, as rebuilt

  function slots(k) {
    var key = view + "/" + k, found = known[key];
    if (found) return found;
    var code = positions[k].pictures[view], out;
    if (code.charAt(0) === "=") {  // the parts that changed since position k - 1
      out = slots(k - 1).slice();
      code.slice(1).split(",").forEach(function (change) {
        if (!change) return;
        var pair = change.split(":");
        out[+pair[0]] = +pair[1];
      });
    } else {
      out = [];
      code.split(",").forEach(function (run) {
        var ends = run.split("-"), lo = +ends[0], hi = ends.length > 1 ? +ends[1] : lo;
        for (var i = lo; i <= hi; i++) out.push(i);
      });
    }
    known[key] = out;
    return out;
  }

  function picture(k) {
    return slots(k).map(function (n) { return parts[n]; }).join("") + "</svg>";
  }

  function show(k) {
    at = Math.max(0, Math.min(last, k));
    var p = positions[at];
    board.innerHTML = picture(at);
    where.textContent = at + " / " + last;
    status.textContent = p.status;
    note.textContent = p.note || "";
    items.forEach(function (li) { li.classList.toggle("now", +li.dataset.at === at); });
    var now = moves.querySelector("li.now");
    if (now) now.scrollIntoView({block: "nearest"});
    if (cursor) {
      var g = data.graph, x = g.left + (g.right - g.left) * at / Math.max(1, last);
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    try { history.replaceState(null, "", "#" + at); } catch (e) { /* a viewer that keeps no history */ }
  }

  data.moves.forEach(function (m) {
    var li = document.createElement("li"), seat = document.createElement("span");
    li.dataset.at = m.at;
    seat.className = "seat s" + m.seat;
    seat.textContent = m.who;
    var num = document.createElement("span");
    num.className = "seq";
    num.textContent = m.at + ".";
    li.appendChild(num); li.appendChild(seat);
    li.appendChild(document.createTextNode(" " + m.text));
    if (m.mark) {
      var mark = document.createElement("span");
      mark.className = "mark " + m.mark;
      mark.textContent = " " + m.sign;
      li.appendChild(mark);
    }
    li.addEventListener("click", function () { show(m.at); });
    moves.appendChild(li);
    items.push(li);
  });

  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () {
      var go = b.dataset.go;
      show(go === "first" ? 0 : go === "last" ? last : go === "back" ? at - 1 : at + 1);
    });
  });
  document.querySelectorAll("[data-view]").forEach(function (b) {
    b.addEventListener("click", function () {
      view = +b.dataset.view;
      document.querySelectorAll("[data-view]").forEach(function (o) { o.classList.toggle("on", o === b); });
      show(at);
    });
  });
  var graph = document.getElementById("graph");
  if (graph) graph.addEventListener("click", function (e) {
    var box = graph.getBoundingClientRect(), g = data.graph;
    var x = (e.clientX - box.left) / box.width * g.width;
    show(Math.round((x - g.left) / (g.right - g.left) * last));
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  var start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? data.start : start);
})();
"""

STYLE = """
body { font: 15px/1.4 "DejaVu Sans", Verdana, Helvetica, Arial, sans-serif; margin: 0; background: #f4f1ea; color: #222; }
header { padding: 10px 18px; background: #fbf8f1; border-bottom: 1px solid #ddd3bf; }
h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 2px 0; }
main { display: flex; gap: 16px; padding: 12px 18px; align-items: flex-start; }
#left { flex: 1 1 auto; max-width: 900px; min-width: 0; }
#board svg { width: 100%; height: auto; display: block; border: 1px solid #ddd3bf; background: #fbf8f1; }
nav { display: flex; gap: 6px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
button { font: inherit; padding: 3px 10px; border: 1px solid #b9ad93; background: #fff; border-radius: 5px; cursor: pointer; }
button.on { background: #3d3d3d; color: #fff; }
#where { min-width: 90px; text-align: center; font-variant-numeric: tabular-nums; }
#status, #note { margin: 4px 0; }
#note { color: #8a4b00; }
aside { width: 330px; flex: 0 0 330px; }
aside h2, #analysis h2 { font-size: 15px; margin: 0 0 6px; }
#moves { list-style: none; margin: 0; padding: 0; max-height: 78vh; overflow-y: auto; border: 1px solid #ddd3bf; background: #fff; }
#moves li { padding: 2px 8px; cursor: pointer; border-bottom: 1px solid #f0ebe0; font-size: 13px; }
#moves li:hover { background: #f6efdc; }
#moves li.now { background: #ffe29a; }
.seq { color: #888; display: inline-block; min-width: 3.2em; }
.seat { font-weight: bold; }
.mark.mistake { color: #c77700; font-weight: bold; }
.mark.blunder { color: #c0281f; font-weight: bold; }
.mark.close { color: #777; }
#analysis { padding: 0 18px 12px; max-width: 1260px; }
#graph { width: 100%; height: auto; cursor: pointer; background: #fff; border: 1px solid #ddd3bf; }
footer { padding: 8px 18px 16px; color: #777; font-size: 12px; }
"""
