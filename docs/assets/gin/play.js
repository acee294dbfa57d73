// The browser side of the play page: a card table where the reader plays the computer.
//
// gin.js imports this module for the .gin-play node and calls mountPlay(node, engine, page).
// Every rule, every word and every drawing is the worker's (ginview.play, through the "play"
// op). This file sends the reader's moves, shows the computer's moves one at a time (each
// answer's "steps": the table after each move), keeps the games in localStorage, and keeps the
// game's link in the URL fragment.
//
// - A control with data-move sends that move; one with data-new-game deals a new game with the
//   settings of the game on the table; the settings form deals one with its own settings.
// - Moves: the table moves each card from where it was to where it is now (data-key: the same
//   card; data-from: where a card that was not shown came from), unless the reader prefers
//   reduced motion or chose the speed "instant". The table is inert while a move is shown.
// - Screen readers hear each move as it is shown (a log), and the reason of a refused move.
// - The hand: arrow keys move between the cards; Shift with an arrow key, or dragging, moves a
//   card (a card of a meld moves its meld) along the hand: the order is sent to the worker.
// - Games are kept per game (gin-play-game-<id>), with a revision: a tab that finds the game
//   moved on in another tab shows it as it stands and says so, never overwrites it. The
//   fragment is the game's link (#seed=…&rules=…&level=…): a reload, back or forward, or a link
//   of a game kept in this browser resumes that game where it was; a link of another game deals
//   it from its first move, and keeps the game in progress, with a way back to it. The replay
//   link deals the game on the table again from its first move, here too. A link the worker
//   refuses leaves the game in progress as it is, with the reason said. A stored game the worker
//   cannot read is kept aside (gin-play-damaged), said, and a new game dealt.
// - While the reader thinks, the coach works out its ranking of the decision at hand
//   ("ponder"), so that a hint and the judging of the move take no time.
// - Performance marks: "gin-play-move" (a move sent), "gin-play-answer" (its answer),
//   "gin-play-shown" (it starts to show on the table), for bench/play_page.py.
// - Statistics (games played and won, average accuracy, best winning streak) are kept by the
//   browser (gin-play-stats); the words are the page's, the numbers filled in here.

const PREFIX = "gin-play";
const GAME_KEY = (id) => `${PREFIX}-game-${id}`;
const INDEX_KEY = `${PREFIX}-index`;
const CURRENT_KEY = `${PREFIX}-current`;
const STATS_KEY = `${PREFIX}-stats`;
const SPEED_KEY = `${PREFIX}-speed`;
const DAMAGED_KEY = `${PREFIX}-damaged`;
const LEGACY_KEY = PREFIX; // a game stored by the page before the table
const PENDING_KEY = `${PREFIX}-pending`; // sessionStorage: a link being dealt, and the game it left
// (instant navigation may draw the page again while a link is dealt: the new table finds it)
const KEEP_GAMES = 8;
const GAME_LINK = /^seed=/;
const STEP_MS = { slow: 1500, normal: 900, fast: 450, instant: 0 };
const LOG_LINES = 12;
const PONDER_ROUNDS = 24;

// --- storage -------------------------------------------------------------------------------

function readJSON(key) {
  try {
    const data = JSON.parse(localStorage.getItem(key) || "null");
    return data && typeof data === "object" ? data : null;
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or disabled: the game is just not kept
  }
}

function loadGame(id) {
  const record = id ? readJSON(GAME_KEY(id)) : null;
  return record && record.session && typeof record.link === "string" ? record : null;
}

// The game kept (unless it is only shown again: then only marked as the one on the table, so
// that two tabs showing each other's moves do not write back and forth).
function saveGame(record, changed = true) {
  if (changed) write(GAME_KEY(record.id), record);
  write(CURRENT_KEY, record.id);
  const index = (Array.isArray(readJSON(INDEX_KEY)) ? readJSON(INDEX_KEY) : [])
    .filter((id) => typeof id === "string" && id !== record.id);
  index.unshift(record.id);
  for (const old of index.splice(KEEP_GAMES)) write(GAME_KEY(old), null);
  write(INDEX_KEY, index);
}

function readText(key) {
  try {
    return localStorage.getItem(key) || "";
  } catch {
    return "";
  }
}

const currentId = () => readText(CURRENT_KEY);

function readPending() {
  try {
    return JSON.parse(sessionStorage.getItem(PENDING_KEY) || "null");
  } catch {
    return null;
  }
}

function newId() {
  const [a, b] = crypto.getRandomValues(new Uint32Array(2));
  return (a.toString(36) + b.toString(36)).slice(0, 10);
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

// The fragment: a game link, or nothing.
function readHash() {
  const hash = decodeURIComponent(location.hash.slice(1));
  return GAME_LINK.test(hash) ? hash : "";
}

// The game most recently played with this link in this browser.
function findByLink(link) {
  const index = readJSON(INDEX_KEY);
  for (const id of Array.isArray(index) ? index : []) {
    const stored = loadGame(id);
    if (stored && stored.link === link) return stored;
  }
  return null;
}

function writePending(pending) {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  } catch {
    // without it, no offer to go back to the game in progress: it is kept all the same
  }
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Performance marks of a move (bench/play_page.py): asked, answered, shown.
const mark = (name) => performance.mark && performance.mark(name);
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

// --- the table ---------------------------------------------------------------------------------

class PlayTable {
  constructor(node, engine, page) {
    this.node = node;
    this.engine = engine;
    this.lang = page.lang;
    this.texts = { ...page.texts, ...JSON.parse(node.dataset.ginTexts || "{}") };
    this.view = node.querySelector(".gin-play-view");
    this.log = node.querySelector(".gin-status");
    this.notice = node.querySelector(".gin-notice");
    this.form = node.querySelector(".gin-play-settings");
    this.link = node.querySelector(".gin-play-link");
    this.copy = node.querySelector(".gin-copy");
    this.coach = node.querySelector("input[name=coach]");
    this.stats = node.querySelector(".gin-play-stats");
    this.record = null; // {id, link, rev, session}
    this.busy = false;
    this.queue = []; // moves asked for while busy: [{kind, run}]
    this.pondering = null; // the coach's ranking being worked out: Promise
    this.answers = 0; // data-gin-answers: answers put in place (for tests)
    this.dragged = 0; // performance.now() until which a click ends a drag, not a move
  }

  mount() {
    this.node.querySelector(".gin-play-note")?.remove();
    for (const control of this.node.querySelectorAll(".gin-play-bar :disabled, .gin-play-bar fieldset")) {
      control.disabled = false;
    }
    this.node.dataset.ginLive = "";
    const link = readHash();
    // A stored game or another link replaces the drawn deal: it is not shown meanwhile.
    if ((link && link !== this.node.dataset.ginStart) || (!link && loadGame(currentId()))) {
      this.view.classList.add("gin-waiting");
    }
    this.speed = this.form.elements.speed;
    this.speed.value = readText(SPEED_KEY) || "normal";
    this.speed.addEventListener("change", () => write(SPEED_KEY, this.speed.value));
    this.node.addEventListener("click", (event) => this.onClick(event));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const { rules, format, level } = this.form.elements;
      this.later("new", () => this.deal({
        seed: randomSeed(), rules: rules.value, format: format.value, level: level.value,
        coach: this.coach.checked,
      }, { push: true }));
    });
    this.coach.addEventListener("change", () => {
      const on = this.coach.checked;
      this.later("coach", () => this.play({ coach: on }));
    });
    this.copy.addEventListener("click", () => this.copyLink());
    this.link.addEventListener("click", (event) => this.replay(event));
    this.stats.querySelector(".gin-stats-reset").addEventListener("click", () => {
      write(STATS_KEY, null);
      this.showStats();
    });
    setupHand(this);
    const onHash = () => {
      if (!this.node.isConnected) window.removeEventListener("hashchange", onHash);
      else this.later("hash", () => this.start());
    };
    window.addEventListener("hashchange", onHash);
    const onStorage = (event) => {
      if (!this.node.isConnected) window.removeEventListener("storage", onStorage);
      else if (this.record && event.key === GAME_KEY(this.record.id)) this.later("tab", () => this.otherTab());
    };
    window.addEventListener("storage", onStorage);
    this.showStats();
    this.later("start", () => this.start());
  }

  // Run now, or once what is running is done (the computer's moves included). A second
  // switch of the coach replaces the first; nothing asked for is dropped.
  later(kind, run) {
    if (kind === "coach") this.queue = this.queue.filter((item) => item.kind !== "coach");
    this.queue.push({ kind, run });
    if (!this.busy) this.next();
  }

  async next() {
    while (this.queue.length && this.node.isConnected) {
      const { run } = this.queue.shift();
      this.busy = true;
      this.node.setAttribute("aria-busy", "true");
      try {
        await run();
      } catch (err) {
        this.say(this.texts.failed);
        console.warn(`gin: ${err && err.message}`);
      }
      this.busy = false;
      this.node.removeAttribute("aria-busy");
    }
  }

  onClick(event) {
    const control = event.target.closest("[data-move], [data-new-game]");
    if (!control || control.disabled || !this.node.contains(control)) return;
    if (this.view.inert || performance.now() < this.dragged) return; // the click ending a drag
    if (control.hasAttribute("data-new-game")) {
      const session = this.record && this.record.session;
      const settings = session
        ? { rules: session.game.rules.name, format: session.game.format, level: session.level,
            coach: session.coach }
        : {};
      this.later("new", () => this.deal({ ...settings, seed: randomSeed() }, { push: true }));
      return;
    }
    if (this.busy) return; // the table is being drawn: a move on it waits for the new one
    const move = JSON.parse(control.dataset.move);
    this.later("move", () => this.play(move, { focus: true }));
  }

  // --- games: which one is on the table --------------------------------------------------

  async start() {
    const link = readHash();
    if (link) {
      if (this.record && this.record.link === link) return; // it is on the table
      const stored = findByLink(link);
      if (stored) {
        await this.resume(stored);
        return;
      }
      const pending = readPending();
      const from = pending && pending.link === link ? pending.from
        : this.record ? this.record.id : currentId();
      writePending({ link, from });
      await this.deal({ link }, { fromLink: true, from });
      return;
    }
    if (this.record) return;
    const stored = loadGame(currentId()) || this.legacy();
    if (stored) await this.resume(stored);
    else await this.deal({ link: this.node.dataset.ginStart, first: true });
  }

  // The replay link: the game on the table dealt again from its first move; it is kept.
  replay(event) {
    event.preventDefault();
    const record = this.record;
    if (record) this.later("new", () => this.deal({ link: record.link }, { fromLink: true, from: record.id }));
  }

  // A game stored by the page before the table: adopted as a game of its own.
  legacy() {
    const session = readJSON(LEGACY_KEY);
    if (!session) return null;
    write(LEGACY_KEY, null);
    write(`${LEGACY_KEY}-link`, null);
    return { id: newId(), link: "", rev: 0, session };
  }

  async resume(stored, { push = false } = {}) {
    const response = await this.request({ show: true }, stored.session);
    if (!response) return;
    if (!response.ok) {
      // Kept aside, said, and a new game: a stored game is never dropped without a word.
      write(DAMAGED_KEY, JSON.stringify(stored));
      write(GAME_KEY(stored.id), null);
      this.show(`${response.error.message} ${this.texts.kept_copy}`);
      const link = readHash();
      await this.deal(link ? { link } : { seed: randomSeed() }, {});
      return;
    }
    this.record = { ...stored, rev: stored.rev || 0 };
    await this.put(response.result, { push, changed: !loadGame(stored.id) }); // (a legacy game)
  }

  // A new game: from a link (deals it from its first move) or from settings. The game in
  // progress is kept; a link the worker refuses leaves it on the table.
  async deal(settings, { fromLink = false, push = false, from = "" } = {}) {
    const previous = this.record;
    const response = await this.request({ new: settings }, null);
    if (!response) return;
    if (!response.ok) {
      if (!fromLink) {
        this.show(response.error.message);
        return;
      }
      this.show(`${response.error.message} ${this.texts.game_goes_on}`);
      const stored = previous || loadGame(from) || loadGame(currentId());
      if (stored && !previous) await this.resume(stored);
      else if (!stored) await this.deal({ seed: randomSeed() }, {});
      else history.replaceState(history.state, "", `#${stored.link}`);
      return;
    }
    this.record = { id: newId(), link: response.result.link, rev: 0, session: null };
    await this.put(response.result, { push, fresh: true });
    const kept = fromLink && loadGame(from);
    if (kept && kept.id !== this.record.id && !kept.over) this.offerResume(kept);
  }

  offerResume(previous) {
    this.notice.replaceChildren(`${this.texts.resume} `);
    const back = document.createElement("button");
    back.type = "button";
    back.className = "gin-move gin-resume";
    back.textContent = this.texts.resume_link;
    back.addEventListener("click", () => this.later("resume", async () => {
      const stored = loadGame(previous.id);
      if (stored) await this.resume(stored, { push: true });
    }));
    this.notice.append(back);
    this.notice.hidden = false;
  }

  // Another tab moved this game on: show it as it stands, and say so.
  async otherTab() {
    const stored = this.record && loadGame(this.record.id);
    if (!stored || stored.rev <= this.record.rev) return;
    this.record = null;
    await this.resume(stored);
    this.show(this.texts.other_tab);
  }

  // --- moves -------------------------------------------------------------------------------

  async play(move, { focus = false } = {}) {
    if (!this.record) return;
    if (this.pondering) await this.pondering;
    const stored = loadGame(this.record.id);
    if (stored && stored.rev > this.record.rev) {
      await this.otherTab(); // the move was made on a game that has moved on elsewhere
      return;
    }
    mark("gin-play-move");
    const response = await this.request(move, this.record.session);
    if (!response) return;
    mark("gin-play-answer");
    if (!response.ok) {
      this.show(response.error.message);
      return;
    }
    await this.put(response.result, { focus, animate: true });
  }

  // The coach's ranking of the decision at hand, worked out while the reader thinks.
  // A few worlds a request (ginview.play.coach.PONDER), again and again while the reader
  // thinks, until the ranking is settled (or PONDER_ROUNDS): a move waits for one request at
  // most. The refined ranking is kept in memory; the stored game is written at the next move.
  ponder(round = 0) {
    const record = this.record;
    if (!record || !record.session.coach || record.over || round >= PONDER_ROUNDS) {
      this.node.dataset.ginPondered = String(this.answers);
      return;
    }
    const session = record.session;
    this.pondering = this.engine
      .request({ op: "play", lang: this.lang, session, move: { ponder: true } })
      .then((response) => {
        const same = this.record === record && record.session === session;
        if (!response.ok || !same) return false;
        record.session = response.result.session;
        return !response.result.settled && response.result.session.advice !== null;
      }, () => false)
      .then((more) => {
        this.pondering = null;
        if (more && !this.busy && !this.queue.length) this.ponder(round + 1);
        else if (!more) this.node.dataset.ginPondered = String(this.answers); // (for tests)
      });
  }

  async request(move, session) {
    this.node.setAttribute("aria-busy", "true");
    try {
      const response = await this.engine.request({ op: "play", lang: this.lang, session, move });
      return this.node.isConnected ? response : null;
    } catch {
      this.show(this.texts.failed);
      return null;
    }
  }

  // An answer put in place: the computer's moves one at a time, then the whole view; the
  // game stored (unless another tab moved it on meanwhile), the fragment, the settings.
  async put(result, { push = false, focus = false, animate = false, fresh = false, changed = true } = {}) {
    const record = this.record;
    if (!this.node.isConnected) return; // a table instant navigation replaced writes nothing
    const stored = !fresh && loadGame(record.id);
    if (stored && stored.rev > record.rev) {
      await this.otherTab();
      return;
    }
    record.session = result.session;
    record.link = result.link;
    record.over = result.over;
    if (changed) record.rev += 1;
    saveGame(record, changed);
    const url = `#${record.link}`;
    if (location.hash !== url) {
      if (push) history.pushState(history.state, "", url);
      else history.replaceState(history.state, "", url);
      window.dispatchEvent(new Event("gin:fragment"));
    }
    if (!fresh) this.notice.hidden = true;
    const steps = animate && this.speedMs() ? result.steps : [];
    if (animate) mark("gin-play-shown"); // the move starts to show (bench/play_page.py)
    let said = 0;
    if (steps.length) {
      this.view.inert = true;
      for (const step of steps) {
        this.flip(() => this.showStep(step.html));
        this.say(step.say);
        said += 1;
        await wait(this.speedMs());
        if (!this.node.isConnected) return;
      }
    }
    this.view.inert = false;
    const active = document.activeElement;
    const held = this.view.contains(active) && active.dataset.key; // a card keeps the focus
    this.flip(() => {
      this.view.innerHTML = result.html;
      this.view.classList.remove("gin-waiting");
    });
    const again = held && this.view.querySelector(`.gin-hand [data-key="${held}"]`);
    if (again && !focus) {
      rovingFocus(this.view, again);
      again.focus();
    }
    for (const text of result.announce.slice(said)) this.say(text);
    this.showSettings(result);
    if (result.ended) this.countGame(record.id, result.ended);
    if (focus) this.focusNext();
    this.node.dataset.ginAnswers = String(++this.answers);
    if (result.waiting) this.later("computer", () => this.play({ computer: true }));
    else this.ponder();
  }

  speedMs() {
    return STEP_MS[this.speed.value] ?? STEP_MS.normal;
  }

  showStep(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const part of template.content.children) {
      const old = this.view.querySelector(`.${part.classList[0]}`);
      if (old) old.replaceWith(part.cloneNode(true));
    }
  }

  // Each card moves from where it was to where it is now (the same data-key), or from the
  // pile or hand it came from (data-from); nothing moves for a reader who prefers less motion.
  flip(update) {
    const before = new Map();
    const anchors = new Map();
    for (const el of this.view.querySelectorAll("[data-key]")) before.set(el.dataset.key, el.getBoundingClientRect());
    for (const el of this.view.querySelectorAll("[data-anchor]")) anchors.set(el.dataset.anchor, el.getBoundingClientRect());
    update();
    if (reducedMotion.matches || !this.speedMs() || !before.size) return;
    const duration = Math.min(380, this.speedMs() * 0.45);
    for (const el of this.view.querySelectorAll("[data-key]")) {
      const from = before.get(el.dataset.key) || anchors.get(el.dataset.from);
      if (!from) continue;
      const to = el.getBoundingClientRect();
      const [dx, dy] = [from.left - to.left, from.top - to.top];
      if (Math.abs(dx) + Math.abs(dy) < 2) continue;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
                 { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
    }
  }

  showSettings(result) {
    const { session } = result;
    const { rules, format, level } = this.form.elements;
    if ([...rules.options].some((o) => o.value === session.game.rules.name)) rules.value = session.game.rules.name;
    format.value = session.game.format;
    level.value = session.level;
    this.coach.checked = session.coach;
    this.link.href = `#${result.link}`;
    this.link.hidden = false;
    this.copy.hidden = false;
  }

  // After a move, focus goes to the reader's next choice, so the keyboard never starts over.
  focusNext() {
    const next = this.view.querySelector(".gin-hand button:not(:disabled)")
      || this.view.querySelector(".gin-pile.gin-can")
      || this.view.querySelector(".gin-play-moves button:not(:disabled)")
      || this.view.querySelector(".gin-hint-button");
    if (next) {
      rovingFocus(this.view, next);
      next.focus();
    }
  }

  say(text) {
    if (!text) return;
    const line = document.createElement("p");
    line.textContent = text;
    this.log.append(line);
    while (this.log.childElementCount > LOG_LINES) this.log.firstElementChild.remove();
  }

  show(text) {
    this.notice.textContent = text;
    this.notice.hidden = !text;
    this.say(text);
  }

  async copyLink() {
    const url = new URL(this.link.getAttribute("href"), location.href).href;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const field = document.createElement("textarea");
      field.value = url;
      field.className = "gin-sr";
      document.body.append(field);
      field.select();
      document.execCommand("copy");
      field.remove();
    }
    this.show(this.texts.copied);
  }

  // --- statistics ----------------------------------------------------------------------------

  countGame(id, ended) {
    const stats = readJSON(STATS_KEY) || {};
    const counted = Array.isArray(stats.counted) ? stats.counted : [];
    if (counted.includes(id)) return;
    const next = {
      played: (stats.played || 0) + 1,
      won: (stats.won || 0) + (ended.won ? 1 : 0),
      accuracySum: (stats.accuracySum || 0) + (ended.accuracy ?? 0),
      accuracyGames: (stats.accuracyGames || 0) + (ended.accuracy === null ? 0 : 1),
      streak: ended.won ? (stats.streak || 0) + 1 : 0,
      counted: [id, ...counted].slice(0, 50),
    };
    next.best = Math.max(stats.best || 0, next.streak);
    write(STATS_KEY, next);
    this.showStats();
  }

  showStats() {
    const stats = readJSON(STATS_KEY) || {};
    const number = new Intl.NumberFormat(this.lang);
    const percent = new Intl.NumberFormat(this.lang, { style: "percent" });
    const values = {
      played: number.format(stats.played || 0),
      won: number.format(stats.won || 0),
      accuracy: stats.accuracyGames ? percent.format(stats.accuracySum / stats.accuracyGames / 100) : "–",
      streak: number.format(stats.best || 0),
    };
    for (const [name, value] of Object.entries(values)) {
      this.stats.querySelector(`[data-stat="${name}"]`).textContent = value;
    }
    this.stats.hidden = !stats.played;
  }
}

// --- the hand: the keyboard and dragging ------------------------------------------------------

const handCards = (view) => [...view.querySelectorAll(".gin-hand .gin-face")];

// One tab stop for the hand: the card that had focus last, or the first one.
function rovingFocus(view, focused) {
  const cards = handCards(view);
  if (!cards.includes(focused)) return;
  for (const card of cards) card.tabIndex = card === focused ? 0 : -1;
}

// What moves along the hand: a card of the deadwood, or a whole meld.
function movable(card) {
  const group = card.closest(".gin-group");
  return group && group.classList.contains("gin-meld") ? group : card;
}

function sendOrder(table) {
  const order = handCards(table.view).map((card) => card.dataset.key.slice(1));
  table.later("move", () => table.play({ order }));
}

function setupHand(table) {
  const view = table.view;
  let focusedKey = null;
  // After each answer the hand is drawn again: its tab stop, and the focus, stay on the card.
  new MutationObserver(() => {
    const cards = handCards(view);
    if (!cards.length) return;
    const keep = cards.find((card) => card.dataset.key === focusedKey) || cards[0];
    for (const card of cards) card.tabIndex = card === keep ? 0 : -1;
  }).observe(view, { childList: true, subtree: true });

  view.addEventListener("focusin", (event) => {
    if (event.target.closest(".gin-hand .gin-face")) focusedKey = event.target.dataset.key;
  });

  view.addEventListener("keydown", (event) => {
    const card = event.target.closest(".gin-hand .gin-face");
    if (!card || table.busy || view.inert) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    const cards = handCards(view);
    if (step && event.shiftKey) {
      event.preventDefault();
      const item = movable(card);
      const sibling = step < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!sibling || !sibling.matches(".gin-group, .gin-face")) return;
      if (step < 0) sibling.before(item);
      else sibling.after(item);
      card.focus();
      table.say(table.texts.moved);
      sendOrder(table);
    } else if (step || event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const index = cards.indexOf(card);
      const to = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1
        : Math.max(0, Math.min(cards.length - 1, index + step));
      rovingFocus(view, cards[to]);
      cards[to].focus();
    }
  });

  // Dragging: a card (or its meld) follows the pointer and takes its place among its own
  // kind (a deadwood card among the deadwood, a meld among the groups); a press that does not
  // move is a click.
  let drag = null;
  view.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".gin-hand .gin-face");
    if (!card || table.busy || view.inert || event.button !== 0) return;
    drag = { card, item: movable(card), x: event.clientX, y: event.clientY, moving: false, id: event.pointerId };
  });
  view.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < 8) return;
      drag.moving = true;
      drag.item.classList.add("gin-dragging");
      drag.card.setPointerCapture?.(event.pointerId);
    }
    drag.item.style.transform = `translate(${dx}px, ${dy}px)`;
    const siblings = [...drag.item.parentElement.children]
      .filter((el) => el !== drag.item && el.matches(".gin-group, .gin-face"));
    for (const sibling of siblings) {
      const box = sibling.getBoundingClientRect();
      const inside = event.clientX > box.left && event.clientX < box.right
        && event.clientY > box.top - 20 && event.clientY < box.bottom + 20;
      if (!inside) continue;
      const before = drag.item.getBoundingClientRect();
      if (event.clientX < box.left + box.width / 2) sibling.before(drag.item);
      else sibling.after(drag.item);
      const after = drag.item.getBoundingClientRect();
      drag.x += after.left - before.left;
      drag.y += after.top - before.top;
      drag.item.style.transform = `translate(${event.clientX - drag.x}px, ${event.clientY - drag.y}px)`;
      break;
    }
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { item, moving } = drag;
    drag = null;
    if (!moving) return;
    item.classList.remove("gin-dragging");
    item.style.transform = "";
    table.dragged = performance.now() + 300; // the click that ends a drag is not a move
    sendOrder(table);
  };
  view.addEventListener("pointerup", end);
  view.addEventListener("pointercancel", end);
}

export function mountPlay(node, engine, page) {
  new PlayTable(node, engine, page).mount();
}
