// The table view: follows the table service's views over Server-Sent Events and draws them.
// Every text comes from the server (translated there); nothing is inserted as HTML.
"use strict";

const LANGS = ["en", "de", "it", "fr"];
const SVG = "http://www.w3.org/2000/svg";
const STALE_MS = 5000; // no word from the server for this long: the view may be behind
const seatMatch = location.pathname.match(/^\/seat\/([A-Za-z0-9_-]+)$/);
const token = seatMatch ? seatMatch[1] : null;

const state = {
  lang: pickLanguage(),
  threat: localStorage.getItem("threat") === "on",
  source: null,
  lastHeard: 0,
  live: false,
  ended: false,
  view: null,
  words: {},
  boot: null,
  retry: null,
  zoom: null, // a room fitted to the board (tapped), or null: the whole fortress
};

function pickLanguage() {
  const stored = localStorage.getItem("lang");
  if (LANGS.includes(stored)) return stored;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const short = String(wanted).slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

const $ = (id) => document.getElementById(id);
const shownAt = {}; // view version -> the time (ms since the epoch) its frame was drawn
const arrivedAt = {}; // view version -> when its event arrived (benchmarks/web.py)
window.armataShownAt = shownAt;
window.armataArrivedAt = arrivedAt;

function arrived(version) {
  arrivedAt[version] = performance.timeOrigin + performance.now();
}

function drawn(version) {
  // when each view reached the screen (the frame after it was drawn): benchmarks/web.py
  requestAnimationFrame(() => {
    shownAt[version] = performance.timeOrigin + performance.now();
  });
}

function text(id, value) {
  $(id).textContent = value == null ? "" : String(value);
}

function el(tag, cls, content) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (content != null) node.textContent = String(content);
  return node;
}

function svg(tag, attrs, content) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (content != null) node.textContent = String(content);
  return node;
}

// ----- the connection ----------------------------------------------------------------------
function connect() {
  if (state.source) state.source.close();
  clearTimeout(state.retry);
  const url = token
    ? `/events/seat/${token}?lang=${state.lang}`
    : `/events?lang=${state.lang}`;
  const source = new EventSource(url);
  state.source = source;
  source.addEventListener("hello", (event) => {
    state.boot = event.data;
    heard();
  });
  source.addEventListener("view", (event) => {
    heard();
    const view = JSON.parse(event.data);
    arrived(view.version);
    show(view, null);
    drawn(view.version);
  });
  // the parts that changed since the view this page has (the server knows which it sent)
  source.addEventListener("patch", (event) => {
    heard();
    const patch = JSON.parse(event.data);
    arrived(patch.version);
    if (!state.view || state.view.version !== patch.base) {
      connect(); // not the view it was made for: start over with a whole one
      return;
    }
    const view = { ...state.view };
    const changed = new Set();
    for (const [key, value] of Object.entries(patch)) {
      if (key === "base") continue;
      if (key === "board") {
        view.board = { ...view.board, ...value };
        for (const layer of Object.keys(value)) changed.add(`board.${layer}`);
      } else {
        view[key] = value;
        changed.add(key);
      }
    }
    show(view, changed);
    document.body.dataset.patches = Number(document.body.dataset.patches || 0) + 1;
    drawn(view.version);
  });
  source.addEventListener("ping", heard);
  source.addEventListener("ended", (event) => {
    const why = JSON.parse(event.data);
    if (why) end(why);
  });
  source.onerror = () => {
    behind();
    if (source.readyState === EventSource.CLOSED && !state.ended) {
      // the server refused the stream (a seat that ended says why, too many phones too) or
      // went away
      checkWhy(url);
    }
  };
}

async function checkWhy(url) {
  // EventSource hides why a stream was refused: ask once; stop at a seat that ended, wait
  // longer when the table has too many phones
  const stop = new AbortController();
  let wait = 1000;
  try {
    const answer = await fetch(url, { signal: stop.signal });
    if (answer.status === 403 || answer.status === 400) {
      const data = await answer.json();
      end(data.error);
    } else if (answer.status === 503) {
      const data = await answer.json();
      text("behind", data.error);
      wait = 5000;
    }
  } catch (error) {
    /* the server is away: keep trying */
  }
  stop.abort();
  if (!state.ended) state.retry = setTimeout(connect, wait);
}

function heard() {
  state.lastHeard = Date.now();
  if (!state.live) {
    state.live = true;
    document.body.classList.remove("behind", "connecting");
    document.body.dataset.live = "1";
    labels();
  }
}

function behind() {
  if (state.live || !document.body.classList.contains("behind")) {
    state.live = false;
    document.body.classList.remove("connecting");
    document.body.classList.add("behind");
    document.body.dataset.live = "0";
    labels();
  }
}

function end(why) {
  state.ended = true;
  drawTracker(null);
  if (state.source) state.source.close();
  document.body.classList.add("ended");
  $("seat").hidden = true;
  $("ended").hidden = false;
  text("ended", why);
}

setInterval(() => {
  if (state.live && Date.now() - state.lastHeard > STALE_MS) {
    behind();
    connect();
  }
}, 1000);

// ----- words and the language switch -------------------------------------------------------
function labels() {
  const w = state.words;
  document.documentElement.lang = state.lang;
  text("title", w.title || "Armata Strigoi");
  const connecting = document.body.classList.contains("connecting");
  text("live", state.live ? w.live || "Live" : connecting ? w.connecting || "Connecting…" : "");
  text("behind", w.behind || "Connection lost: this view may be behind. Reconnecting…");
  text("threat", state.threat ? w.threat_on : w.threat_off);
  text("whole", w.whole);
  text("tip", w.tip);
  $("threat").setAttribute("aria-pressed", state.threat ? "true" : "false");
  text("heroes-title", w.heroes);
  text("log-title", w.log);
  text("hand-title", w.my_hand);
  text("rewards-title", w.rewards);
  text("tokens-title", w.tokens);
  text("wounds-title", w.wounds);
  text("wake", w.wake);
  for (const button of document.querySelectorAll(".langs button")) {
    button.setAttribute("aria-pressed", button.dataset.lang === state.lang ? "true" : "false");
  }
}

for (const button of document.querySelectorAll(".langs button")) {
  button.addEventListener("click", () => {
    state.lang = button.dataset.lang;
    localStorage.setItem("lang", state.lang);
    connect(); // the server sends the view in the new language at once
  });
}

$("threat").addEventListener("click", () => {
  state.threat = !state.threat;
  localStorage.setItem("threat", state.threat ? "on" : "off");
  labels();
  if (state.view && state.view.board) drawBoard(state.view);
});

// ----- the views -----------------------------------------------------------------------------
// `changed`: the parts a patch brought (null: a whole view, everything is drawn)
function show(view, changed) {
  state.view = view;
  document.body.dataset.version = view.version;
  if (token) return showSeat(view.seat, view.words);
  const now = (...keys) => changed === null || changed.has("words") || keys.some((k) => changed.has(k));
  state.words = view.words || {};
  if (now()) labels();
  if (!view.game) {
    drawTracker(null);
    $("table").hidden = true;
    $("nogame").hidden = false;
    text("nogame", state.words.no_game);
    return;
  }
  $("nogame").hidden = true;
  $("table").hidden = false;
  document.body.dataset.round = view.round;
  document.body.dataset.game = view.game;
  text("status", view.status);
  text("waiting", view.waiting);
  text("altar", view.altar);
  text("inferno", view.inferno);
  if (now("cards")) drawCards(view.cards);
  if (changed === null || [...changed].some((k) => k.startsWith("board.")) || now("names", "labels")) {
    drawBoard(view);
  }
  if (now("heroes")) drawHeroes(view.heroes);
  if (now("tracker")) drawTracker(view.tracker);
  if (now("log")) {
    const log = $("log");
    log.replaceChildren(...view.log.map((step) => el("li", null, `${step.seq}. ${step.text}`)));
  }
}

function drawCards(cards) {
  const box = $("cards");
  box.replaceChildren(
    ...cards.map((card) => {
      const node = el("article", `card card-${card.kind}`);
      node.append(el("h2", null, card.title));
      for (const line of card.lines) node.append(el("p", "line", line));
      if (card.why.length) {
        const why = el("details", "why");
        why.append(el("summary", null, state.words.why));
        for (const line of card.why) {
          // the rule behind a line opens by a tap on it: no rule id in the sentence
          if (!line.rule) {
            why.append(el("p", null, line.text));
            continue;
          }
          const rule = el("details", "why-rule");
          rule.append(el("summary", null, line.text), el("p", "rule", line.rule));
          why.append(rule);
        }
        node.append(why);
      }
      return node;
    }),
  );
}

function drawHeroes(heroes) {
  const list = $("heroes");
  list.replaceChildren(
    ...heroes.map((hero) => {
      const item = el("li", `hero${hero.active ? " active" : ""}`);
      item.dataset.hero = hero.id;
      const head = el("div", "hero-head");
      head.append(el("span", `chip fig-${hero.id}`, hero.mark), el("strong", null, hero.name));
      if (hero.active) head.append(el("span", "tag", state.words.active));
      item.append(head);
      // the wounds as players say them: "Roel has 2 wounds. Until healed, Roel cannot use
      // Stealth." (the server's sentences), never the tokens' names in a list
      item.append(el("p", "fact wounds", hero.wounds_said));
      // the reward cards and tokens, a sentence each ("Roel has no reward token."), never a
      // form's "Reward tokens: none"
      item.append(el("p", "fact", hero.rewards_said));
      return item;
    }),
  );
}

// the turn tracker in the sticky header, always in sight: the heroes in this round's order,
// then the Strigoi; the one acting outlined, a tick for a card chosen (never which), the
// wounds and rewards below each mark; every box the same size, so nothing moves on a change
function drawTracker(tracker) {
  const list = $("tracker");
  list.hidden = !tracker;
  document.body.classList.toggle("tracking", Boolean(tracker));
  if (!tracker) return;
  list.setAttribute("aria-label", tracker.title);
  list.dataset.marked = tracker.marked || "";
  list.replaceChildren(
    ...tracker.rows.map((row) => {
      const item = el("li", `tracked stage-${row.stage || "none"}`);
      item.classList.toggle("marked", row.marked);
      item.classList.toggle("waited", row.waited);
      item.dataset.id = row.id;
      item.title = [row.name, row.note, row.counts].filter(Boolean).join(" · ");
      const mark = el("span", `tracked-mark fig-${row.id}`, row.mark);
      if (row.stage === "chosen") mark.append(el("span", "tick", "\u2713"));
      item.append(mark);
      if (row.wounds !== null) {
        item.append(el("span", "tracked-counts", `${row.wounds}\u2665 ${row.rewards}\u2605`));
      }
      return item;
    }),
  );
}

function hexagon(x, y, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k + 30);
    points.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
  }
  return points.join(" ");
}

const drawnFrom = new WeakMap(); // a board layer -> the data it was drawn from

// The server placed every disc and room name (companion/app/web/board.py: the touchscreen's
// rules, in the SVG's units) so that none covers another; the page draws them where it was told,
// each name's line exactly as wide as the server measured it (textLength).
function drawBoard(view) {
  const board = view.board, names = view.names, labels = view.labels || [];
  const root = $("board");
  let [minX, minY, width, height] = board.view;
  let [maxX, maxY] = [minX + width, minY + height];
  for (const label of labels) {
    // a name may lie beyond the spaces: the view grows to show it whole
    const [x, y, w, h] = label.box;
    [minX, maxX, minY, maxY] = [Math.min(minX, x - 0.3), Math.max(maxX, x + w + 0.3), Math.min(minY, y - 0.3), Math.max(maxY, y + h + 0.3)];
  }
  const zoomed = board.rooms.find((room) => room.id === state.zoom);
  if (zoomed) {
    // the room, its books and the ladders beside it; its name as a heading above the board
    // (the touchscreen's strip), not where the whole fortress's view put it: the centre's name
    // stands between two other rooms, over their spaces once zoomed in
    const reach = zoomed.y - zoomed.top + 0.6;
    [minX, maxX, minY, maxY] = [zoomed.x - reach - 0.5, zoomed.x + reach + 0.5, zoomed.y - reach - 0.5, zoomed.y + reach + 0.5];
  }
  const own = zoomed && labels.find((label) => label.room === zoomed.id);
  const title = $("room-title");
  title.textContent = own ? own.lines.map((line) => line[0]).join(" ") : "";
  title.hidden = !own;
  const box = `${minX} ${minY} ${maxX - minX} ${maxY - minY}`;
  if (root.getAttribute("viewBox") !== box) root.setAttribute("viewBox", box);
  root.classList.toggle("zoomed", Boolean(zoomed));
  $("whole").hidden = !zoomed;
  // the layers that rarely change (spaces, books, names, ladders) are rebuilt only when their
  // data changed: a phone redraws a few figures per command, not 600 spaces
  if (!root.firstChild) {
    root.replaceChildren(
      ...["spaces", "threat", "rooms", "ladders", "markers", "figures", "labels"].map((name) => svg("g", { class: name })),
    );
  }
  const [spaces, threat, rooms, ladders, markers, figures, labelLayer] = root.children;
  // a layer is drawn again only when its data changed: the same objects (a patch left them
  // alone) are not even compared; new ones are compared by what the layer shows
  const changed = (layer, sources, data) => {
    const before = drawnFrom.get(layer);
    if (before && before.sources.length === sources.length && before.sources.every((x, i) => x === sources[i])) {
      return false;
    }
    const key = JSON.stringify(data());
    drawnFrom.set(layer, { sources, key });
    if (before && before.key === key) return false;
    layer.replaceChildren();
    return true;
  };
  if (changed(spaces, [board.spaces], () => board.spaces.map((s) => [s.x, s.y, s.k]))) {
    for (const s of board.spaces) {
      spaces.append(svg("polygon", { points: hexagon(s.x, s.y, 0.95), class: `space k-${s.k}` }));
      if (s.k === "red") spaces.append(svg("path", { d: `M${s.x} ${s.y - 0.3}l-0.3 0.5h0.6z`, class: "mark" }));
      if (s.k === "grey") spaces.append(svg("circle", { cx: s.x, cy: s.y, r: 0.15, class: "mark" }));
      if (s.k === "stairs") {
        for (const d of [-0.15, 0, 0.15]) {
          spaces.append(svg("line", { x1: s.x - 0.3, x2: s.x + 0.3, y1: s.y + d, y2: s.y + d, class: "step" }));
        }
      }
    }
  }
  const threatened = state.threat ? board.spaces.filter((s) => s.t) : [];
  if (changed(threat, [board.spaces, state.threat], () => threatened.map((s) => [s.c, s.t]))) {
    for (const s of threatened) {
      threat.append(
        svg("polygon", { points: hexagon(s.x, s.y, s.t === "deadly" ? 0.6 : 0.95), class: `threat t-${s.t}`, "data-cell": s.c.join(",") }),
      );
    }
  }
  if (changed(rooms, [board.rooms], () => board.rooms)) {
    for (const room of board.rooms) {
      const group = svg("g", { class: `room${room.collapsed ? " collapsed" : ""}`, "data-room": room.id, "data-rotation": room.rotation });
      // a wide invisible disc: tapping anywhere on the room zooms to it
      group.append(svg("circle", { cx: room.x, cy: room.y, r: room.y - room.top, class: "hit" }));
      group.addEventListener("click", () => zoomTo(room.id));
      if (room.collapsed) {
        group.append(svg("circle", { cx: room.x, cy: room.y, r: 2.2, class: "gone" }));
        group.append(svg("path", { d: `M${room.x - 1} ${room.y - 1}L${room.x + 1} ${room.y + 1}M${room.x + 1} ${room.y - 1}L${room.x - 1} ${room.y + 1}`, class: "gone-x" }));
      }
      for (const book of room.books) {
        const b = svg("g", { class: "book", "data-letter": book.l });
        b.append(svg("circle", { cx: book.x, cy: book.y, r: 0.42 }));
        b.append(svg("text", { x: book.x, y: book.y + 0.02 }, book.l));
        group.append(b);
      }
      rooms.append(group);
    }
  }
  if (changed(ladders, [board.ladders], () => board.ladders)) {
    for (const ladder of board.ladders) {
      ladders.append(svg("rect", { x: ladder.x - 0.25, y: ladder.y - 0.45, width: 0.5, height: 0.9, class: "ladder", "data-ladder": ladder.id }));
    }
  }
  if (changed(markers, [board.markers], () => board.markers)) {
    drawMarkers(markers, board.markers);
  }
  if (changed(figures, [board.figures, names, board.sizes], () => [board.figures, board.figures.map((f) => names[f.id]), board.sizes])) {
    drawFigures(figures, board.figures, names, board.sizes);
  }
  if (changed(labelLayer, [labels, board.sizes], () => [labels, board.sizes])) {
    drawLabels(labelLayer, labels, board.sizes);
  }
  // zoomed in: the names of the rooms around only where they are whole
  const [x0, y0, x1, y1] = [minX, minY, maxX, maxY];
  for (const g of labelLayer.children) {
    const [x, y, w, h] = g.dataset.box.split(",").map(Number);
    const away = g.dataset.room === state.zoom; // in the heading
    g.classList.toggle("off", Boolean(zoomed) && (away || x < x0 || y < y0 || x + w > x1 || y + h > y1));
  }
}

function drawLabels(layer, labels, sizes) {
  for (const label of labels) {
    const g = svg("g", { class: "label", "data-room": label.room, "data-box": label.box.join(",") });
    if (label.leader) {
      // a name standing away from its room: a thin line from it to the room
      const [x1, y1, x2, y2] = label.leader;
      g.append(svg("line", { x1, y1, x2, y2, class: "leader" }));
    }
    for (const [line, x, y, width] of label.lines) {
      g.append(svg("text", { x, y, "font-size": sizes.name, textLength: width, lengthAdjust: "spacingAndGlyphs", class: "room-name" }, line));
    }
    g.addEventListener("click", () => zoomTo(label.room));
    layer.append(g);
  }
}

function drawMarkers(markers, list) {
  for (const m of list) {
    markers.append(svg("path", { d: `M${m.x - 0.3} ${m.y - 0.3}L${m.x + 0.3} ${m.y + 0.3}M${m.x + 0.3} ${m.y - 0.3}L${m.x - 0.3} ${m.y + 0.3}`, class: "fight", "data-cell": m.c.join(",") }));
  }
}

function drawFigures(figures, list, names, sizes) {
  for (const f of list) {
    const g = svg("g", { class: `figure ${f.kind} fig-${f.id}`, "data-figure": f.id, "data-cell": f.c.join(",") });
    g.append(svg("title", {}, names[f.id] || f.id));
    const [x, y] = [f.fx ?? f.x, f.fy ?? f.y];
    if (Math.hypot(x - f.x, y - f.y) > 0.05) {
      // pushed aside by a crowd: a line from the disc to its space
      g.append(svg("line", { x1: f.x, y1: f.y, x2: x, y2: y, class: "to-space" }));
      g.append(svg("circle", { cx: f.x, cy: f.y, r: 0.3, class: "on-space" }));
    }
    const shape = f.kind === "strigoi"
      ? svg("path", { d: `M${x} ${y - sizes.strigoi}L${x + sizes.strigoi} ${y}L${x} ${y + sizes.strigoi}L${x - sizes.strigoi} ${y}z`, class: "disc" })
      : svg("circle", { cx: x, cy: y, r: sizes.hero, class: "disc" });
    shape.setAttribute("stroke-width", sizes.outline);
    g.append(shape);
    g.append(svg("text", { x, y: y + 0.04, "font-size": sizes.mark }, f.mark));
    figures.append(g);
  }
}

function zoomTo(room) {
  state.zoom = state.zoom === room ? null : room;
  if (state.view && state.view.board) drawBoard(state.view);
}

$("whole").addEventListener("click", () => zoomTo(null));

// ----- a seat: what its player must do now, the turn order, the hand and private decisions ---
function showSeat(seat, words) {
  state.words = words || state.words;
  labels();
  $("table").hidden = true;
  $("seat").hidden = false;
  document.body.dataset.hero = seat.hero;
  const w = state.words;
  const g = seat.guide_words || {};
  text("seat-title", seat.seat);
  text("prompt-head", seat.prompt || "");
  text("prompt-detail", seat.detail || "");
  $("seat-prompt").classList.toggle("yours", Boolean(seat.your_turn));
  document.body.dataset.yourTurn = seat.your_turn ? "1" : "0";
  if (seat.your_turn && state.yourTurn === false) buzz();
  state.yourTurn = Boolean(seat.your_turn);
  drawTracker(seat.tracker);
  text("order-title", g.order || "");
  $("order").replaceChildren(
    ...(seat.order || []).map((row) => {
      const item = el("li", row.active ? "active" : null);
      if (row.me) item.classList.add("me");
      item.append(el("span", "who", row.name));
      if (row.note) item.append(el("span", "note", row.note));
      return item;
    }),
  );
  const decision = seat.decision || [];
  $("seat-decision").hidden = decision.length === 0;
  text("decision-title", g.decide || "");
  $("decision-options").replaceChildren(
    ...decision.map((option) => {
      const button = el("button", "option", option.label);
      button.type = "button";
      button.dataset.key = option.key;
      button.addEventListener("click", () => send({ option: option.key }));
      return button;
    }),
  );
  const chosen = seat.chosen ? seat.chosen.id : null;
  $("hand").replaceChildren(
    ...seat.hand.map((card) => {
      const node = el("article", "hand-card");
      node.dataset.card = card.id;
      node.append(el("h4", null, card.title));
      node.append(el("p", "facts", card.facts.join(" · ")));
      if (card.id === chosen) {
        node.classList.add("picked");
        node.append(el("p", "picked-mark", g.chosen_mark || w.chosen.replace("{card}", card.title)));
      } else if (seat.choices.includes(card.id)) {
        const button = el("button", "choose", chosen ? g.change || w.choose : w.choose);
        button.type = "button";
        button.addEventListener("click", () => send({ card: card.id }));
        node.append(button);
      }
      return node;
    }),
  );
  for (const [id, items] of [["rewards", seat.rewards], ["tokens", seat.tokens], ["wounds", seat.wounds]]) {
    $(id).replaceChildren(...(items.length ? items : [w.none]).map((item) => el("li", null, item)));
  }
}

// "your turn": a buzz where the phone allows it, and a short tone once the page was touched
// (browsers let a page sound only after a tap on it)
let tones = null;
document.addEventListener("click", () => {
  if (!tones && window.AudioContext) tones = new AudioContext();
});
function buzz() {
  document.body.dataset.buzzed = String(Number(document.body.dataset.buzzed || 0) + 1);
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  if (tones && tones.state === "running") {
    const tone = tones.createOscillator();
    tone.frequency.value = 660;
    tone.connect(tones.destination);
    tone.start();
    tone.stop(tones.currentTime + 0.15);
  }
}

async function send(choice) {
  text("seat-answer", "");
  try {
    const answer = await fetch(`/api/seat/${token}/choose?lang=${state.lang}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(choice),
    });
    const data = await answer.json();
    if (!data.ok) text("seat-answer", data.error);
  } catch (error) {
    text("seat-answer", state.words.behind);
  }
}

// ----- the screen stays awake where the browser allows it (https or localhost only) ---------
async function keepAwake() {
  if ("wakeLock" in navigator && window.isSecureContext) {
    try {
      await navigator.wakeLock.request("screen");
      return;
    } catch (error) {
      /* refused (battery saver): said below */
    }
  }
  $("wake").hidden = false;
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") keepAwake();
});

labels();
connect();
keepAwake();
