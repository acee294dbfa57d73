// The browser side of the play page (a game against the computer, drawn by ginview.play).
//
// gin.js imports this module for the .gin-play node and calls mountPlay(node, engine, page).
// Every rule, every word and every drawing is the worker's (ginview.play, through the "play"
// op): this file only sends the reader's moves, puts the answer in place, keeps the game in
// localStorage and the game's link in the URL fragment.
// - A button with data-move sends that move (mouse, touch, or Enter/Space from the keyboard).
// - The settings form starts a new game; its coach checkbox switches the coach at once. It
//   shows the settings of the game on the table (dealt from a link, or stored).
// - The computer's moves, and a refused move's reason, are said once in the status line (a live
//   region, busy while the worker thinks).
// - On load, and when the fragment changes: a game link in the fragment
//   (#seed=…&rules=…&level=…) deals that game, unless it is the stored game's own link (a
//   reload: the stored game goes on). A stored game or a link
//   that the worker does not accept is dropped, with the reason said, and a new game starts.

import { announce } from "./announce.js";

const STORE = "gin-play";
const GAME_LINK = /^seed=/;

function readStored() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    return data && typeof data === "object" && !Array.isArray(data) ? data : null;
  } catch {
    return null;
  }
}

// The game's link is kept beside it, as the worker wrote it (the page never builds one).
function readStoredLink() {
  try {
    return localStorage.getItem(`${STORE}-link`) || "";
  } catch {
    return "";
  }
}

function store(session, link = "") {
  try {
    if (session) {
      localStorage.setItem(STORE, JSON.stringify(session));
      localStorage.setItem(`${STORE}-link`, link);
    } else {
      localStorage.removeItem(STORE);
      localStorage.removeItem(`${STORE}-link`);
    }
  } catch {
    // storage full or disabled: the game is just not kept
  }
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

class PlayTable {
  constructor(node, engine, page) {
    this.node = node;
    this.engine = engine;
    this.texts = page.texts;
    this.lang = page.lang;
    this.view = node.querySelector(".gin-play-view");
    this.status = node.querySelector(".gin-status");
    this.form = node.querySelector(".gin-play-settings");
    this.link = node.querySelector(".gin-play-link");
    this.session = null;
    this.working = false;
    this.hashLater = false; // the fragment changed while the worker was busy
    this.answers = 0; // data-gin-answers: how many answers were put in place (for tests)
  }

  mount() {
    this.node.querySelector(".gin-play-note")?.remove();
    this.form.querySelector("fieldset").disabled = false;
    this.node.dataset.ginLive = "";
    this.view.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (button && !button.disabled) this.send(JSON.parse(button.dataset.move), { focus: true });
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const { rules, format, level, coach } = this.form.elements;
      this.send({ new: { seed: randomSeed(), rules: rules.value, format: format.value,
                         level: level.value, coach: coach.checked } }, { fresh: true, focus: true });
    });
    this.form.elements.coach.addEventListener("change", () => {
      if (this.session) this.send({ coach: this.form.elements.coach.checked });
    });
    // A link typed or pasted into the address bar deals its game; one that comes while the
    // worker is busy waits for its answer. A table left by instant navigation stops listening.
    const onHash = () => {
      if (!this.node.isConnected) window.removeEventListener("hashchange", onHash);
      else if (this.working) this.hashLater = true;
      else this.start();
    };
    window.addEventListener("hashchange", onHash);
    this.start();
  }

  start() {
    const hash = location.hash.slice(1);
    const stored = readStored();
    const current = this.session ? this.currentLink : readStoredLink();
    if (GAME_LINK.test(hash) && hash !== current) {
      this.send({ new: { link: hash } }, { fresh: true, fallback: true });
    } else if (this.session) return;
    else if (stored) this.send({ show: true }, { session: stored, fallback: true });
    else this.send({ new: { seed: randomSeed() } }, { fresh: true });
  }

  // fallback: if the worker refuses the move (a spoiled stored game, a damaged link), say why
  // and deal a new game instead. notice: a sentence said before the answer's own.
  async send(move, { session = this.session, fresh = false, fallback = false, focus = false,
                     notice = "" } = {}) {
    if (this.working) return;
    this.working = true;
    this.node.setAttribute("aria-busy", "true");
    announce(this.status, (status) => (status.textContent = this.texts.working), { busy: true });
    let response;
    try {
      response = await this.engine.request({ op: "play", lang: this.lang,
                                             session: fresh ? null : session, move });
    } catch {
      this.done(this.texts.failed);
      return;
    }
    // a table that instant navigation replaced meanwhile (a new fragment redraws the page)
    if (!this.node.isConnected) return;
    if (!response.ok) {
      if (fallback) {
        store(null);
        this.working = false;
        this.send({ new: { seed: randomSeed() } }, { fresh: true, notice: response.error.message });
        return;
      }
      this.done(response.error.message);
      return;
    }
    const result = response.result;
    this.session = result.session;
    this.currentLink = result.link;
    store(result.session, result.link);
    this.view.innerHTML = result.html;
    this.link.href = `#${result.link}`;
    this.link.hidden = false;
    // the form shows the game's settings (a link or a stored game may have others)
    const { rules, format, level, coach } = this.form.elements;
    [rules.value, format.value] = [result.session.game.rules.name, result.session.game.format];
    [level.value, coach.checked] = [result.session.level, result.session.coach];
    if (!this.hashLater && location.hash !== `#${result.link}`) {
      history.replaceState(history.state, "", `#${result.link}`);
      window.dispatchEvent(new Event("gin:fragment"));
    }
    if (focus) this.focusNext();
    this.node.dataset.ginAnswers = String(++this.answers);
    this.done([notice, ...result.announce].filter(Boolean).join(" "));
  }

  done(text) {
    this.working = false;
    this.node.removeAttribute("aria-busy");
    announce(this.status, (status) => (status.textContent = text));
    if (this.hashLater) {
      this.hashLater = false;
      this.start();
    }
  }

  // After a move the view is drawn anew: focus goes to the reader's next choice (a card of the
  // hand to discard or lay off, else the first move button), so the keyboard never starts over.
  focusNext() {
    const next = this.view.querySelector(".gin-hand button:not(:disabled)")
      || this.view.querySelector(".gin-play-moves button:not(:disabled)")
      || this.view.querySelector(".gin-hint-button");
    if (next) next.focus();
  }
}

export function mountPlay(node, engine, page) {
  new PlayTable(node, engine, page).mount();
}
