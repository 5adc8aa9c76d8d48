// The hand replay stepper. The page holds its data in <script id="replay-data">: the players,
// and the steps (step 0 the deal, then one per event), each carrying the event and only the
// seat fields that changed: h<seat> concealed tiles, m<seat> melds, f<seat> flowers,
// d<seat> discards ("*" after a claimed tile, "!" after the tile won on). PAIPU_TILES maps a
// tile name to [glyph, Chinese name]. Keyboard: ← → step, Home / End.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  const states = [];
  let state = {};
  for (const step of steps) {
    state = Object.assign({}, state, step);
    states.push(state);
  }
  const last = states.length - 1;
  const slider = document.getElementById("step");
  const counter = document.getElementById("counter");
  const eventBox = document.getElementById("event");
  const notesBox = document.getElementById("notes");
  const result = document.getElementById("result");
  let current = 0;
  let textTiles = false;
  let showResult = false;

  function tileSpan(name, cls) {
    const span = document.createElement("span");
    const info = PAIPU_TILES[name] || [name, name];
    span.className = "t" + (cls ? " " + cls : "");
    span.title = name + " " + info[1];
    span.textContent = textTiles ? name : info[0];
    if (!textTiles && info[0] === info[1]) span.classList.add("cn");
    return span;
  }

  function tiles(text, drawnLast) {
    const box = document.createElement("span");
    box.className = "tiles";
    const found = (text || "").match(/\d+[a-z][*!]?/g) || [];
    found.forEach(function (token, i) {
      const mark = token.slice(-1);
      const name = mark === "*" || mark === "!" ? token.slice(0, -1) : token;
      let cls = mark === "*" ? "claimed" : mark === "!" ? "won" : "";
      if (drawnLast && i === found.length - 1) cls += " drawn";
      box.appendChild(tileSpan(name, cls.trim()));
    });
    return box;
  }

  function fill(id, node) {
    const el = document.getElementById(id);
    if (!el) return;
    el.replaceChildren(node);
  }

  function render(i) {
    current = Math.max(0, Math.min(last, i));
    const s = states[current];
    const event = s.e;
    const actor = event[0];
    for (let seat = 0; seat < data.players.length; seat++) {
      const verb = actor === seat ? event[1] : "";
      const drew = verb === "draws" || verb.indexOf("wins") === 0;
      fill("h" + seat, tiles(s["h" + seat], drew));
      const melds = document.createElement("span");
      melds.className = "tiles";
      for (const meld of s["m" + seat] || []) {
        const box = document.createElement("span");
        box.className = "meld";
        box.title = meld[0].replace("_", " ") + (meld[2] === null ? "" : " from " + data.players[meld[2]]);
        box.appendChild(tiles(meld[1], false));
        melds.appendChild(box);
      }
      fill("m" + seat, melds);
      fill("f" + seat, tiles(s["f" + seat], false));
      fill("d" + seat, tiles(s["d" + seat], false));
      const panel = document.getElementById("seat" + seat);
      if (panel) panel.classList.toggle("active", actor === seat);
    }
    eventBox.replaceChildren();
    if (actor !== null && actor !== undefined) {
      const who = document.createElement("b");
      who.textContent = data.players[actor] + " ";
      eventBox.appendChild(who);
    }
    eventBox.appendChild(document.createTextNode(event[1] + " "));
    eventBox.appendChild(tiles(event[2], false));
    notesBox.textContent = (data.notes[String(current)] || []).join(" · ");
    slider.value = String(current);
    counter.textContent = current + " / " + last;
    const ended = showResult || current === last;
    if (result) result.hidden = !ended;
    document.body.classList.toggle("ended", ended);
    document.body.dataset.step = String(current);
    if (location.hash !== "#step=" + current && (current > 0 || location.hash)) {
      history.replaceState(null, "", "#step=" + current);
    }
  }

  slider.max = String(last);
  slider.addEventListener("input", function () { render(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { render(0); });
  document.getElementById("prev").addEventListener("click", function () { render(current - 1); });
  document.getElementById("next").addEventListener("click", function () { render(current + 1); });
  document.getElementById("end").addEventListener("click", function () { render(last); });
  document.getElementById("text-tiles").addEventListener("change", function (e) {
    textTiles = e.target.checked;
    document.body.classList.toggle("text-tiles", textTiles);
    render(current);
  });
  const reveal = document.getElementById("reveal");
  if (reveal) reveal.addEventListener("change", function (e) { showResult = e.target.checked; render(current); });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { render(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { render(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { render(0); e.preventDefault(); }
    else if (e.key === "End") { render(last); e.preventDefault(); }
  });
  const match = /step=(\d+)/.exec(location.hash);
  window.paipuReplay = { steps: states.length, step: function () { return current; }, go: render };
  render(match ? Number(match[1]) : 0);
})();
