// Live examples: makes each pre-drawn .gin-example (ginview.examples) editable.
//
// Everything the reader sees is drawn in Python (the build drew the page; the worker draws an
// edited example with the same code). This file only handles what must run in the page: the
// reader's events, the card picker, the history (undo, back to the original), the keyboard
// (one tab stop per hand, arrow keys inside it) and the URL fragment.
//
// The worker answers {state, view, link, summary} for a state or an edit: `view` replaces
// .gin-view, `state` goes into data-gin, `link` into the URL fragment (#gin-2=<link>), and
// `summary` into the status line, which screen readers read out once. A refused edit leaves
// everything as it was and says why, in the page's language.

import { announce } from "./announce.js";

const FOCUS_ATTRS = ["field", "meld", "index", "entry", "part", "pick"];

// A fragment as written in the address bar: percent-escapes decoded where they are whole (a
// hand-edited or cut link may hold a stray "%"; the engine then says what is wrong with it).
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function fragmentParts() {
  return location.hash.slice(1).split("&").filter((part) => /^gin-\d+=/.test(part));
}

// A selector that finds the same control in a redrawn view (its class and data attributes).
function focusKey(element) {
  if (!element || !element.classList) return null;
  const cls = [...element.classList].find((c) => c.startsWith("gin-") && c !== "gin-card" && !c.startsWith("gin-suit-"));
  let key = element.tagName.toLowerCase() + (cls ? `.${cls}` : "");
  for (const name of FOCUS_ATTRS) {
    if (element.dataset[name] !== undefined) key += `[data-${name}="${CSS.escape(element.dataset[name])}"]`;
  }
  return key;
}

export class LiveExample {
  constructor(node, index, engine, page) {
    this.node = node;
    this.index = index; // 1-based position on the page, for the URL fragment
    this.engine = engine;
    this.texts = page.texts;
    this.pickerTemplate = page.picker;
    this.lang = page.lang;
    this.view = node.querySelector(".gin-view");
    this.status = node.querySelector(".gin-status");
    this.original = { state: JSON.parse(node.dataset.gin), view: this.view.innerHTML, link: node.dataset.ginLink };
    this.current = this.original;
    this.history = [];
    this.sequence = 0; // answers to older changes are dropped
    this.roving = {}; // field -> the card that holds the hand's tab stop
  }

  mount() {
    this.node.dataset.ginLive = ""; // the controls show (gin.css)
    this.node.addEventListener("click", (event) => this.onClick(event));
    this.node.addEventListener("change", (event) => this.onChange(event));
    this.node.addEventListener("keydown", (event) => this.onKey(event));
    this.node.addEventListener("focusin", (event) => this.onFocus(event));
    this.setTabStops();
    // Nothing to say until the engine is on its way (gin.js boots it when the reader acts).
    this.engine.started.then(() => {
      if (!("ginReady" in this.node.dataset)) this.say(this.texts.loading);
    });
    this.engine.ready.then(() => this.onReady(), () => this.onFailure());
  }

  async onReady() {
    const part = fragmentParts().find((p) => p.startsWith(`gin-${this.index}=`));
    if (part) {
      this.node.scrollIntoView({ block: "center" });
      const link = decoded(part.slice(part.indexOf("=") + 1));
      const ok = await this.apply({ op: "render", kind: this.original.state.kind, link }, { record: false });
      if (!ok) this.say(`${this.texts.bad_link} ${this.status.textContent}`, true);
    } else {
      this.say(this.node.dataset.ginReadyText);
    }
    this.node.dataset.ginReady = "";
  }

  onFailure() {
    this.closePicker();
    for (const control of this.node.querySelectorAll("button, select, input")) control.disabled = true;
    this.say(this.texts.failed);
    this.node.dataset.ginFailed = "";
  }

  say(text, isError = false, busy = false) {
    announce(this.status, (status) => {
      status.textContent = text;
      status.classList.toggle("gin-error", isError);
    }, { busy });
  }

  // --- changes -------------------------------------------------------------------------------

  edit(edit) {
    return this.apply({ op: "edit", state: this.current.state, edit });
  }

  // Ask the worker; show its answer, or say why not and keep what is shown.
  async apply(request, { record = true } = {}) {
    const sequence = ++this.sequence;
    this.say(this.texts.working, false, true);
    let response;
    try {
      response = await this.engine.request({ ...request, lang: this.lang });
    } catch {
      this.onFailure();
      return false;
    }
    if (sequence !== this.sequence) return false;
    if (!response.ok) {
      this.say(response.error.message, true);
      return false;
    }
    if (record) this.history.push(this.current);
    this.show(response.result);
    this.node.dataset.ginAnswered = String(sequence);
    return true;
  }

  show(entry, summary = entry.summary) {
    const focused = this.view.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    const typing = this.view.querySelector("details.gin-type");
    const typingOpen = typing && typing.open;
    this.view.innerHTML = entry.view;
    this.current = entry;
    this.node.dataset.gin = JSON.stringify(entry.state);
    const typed = this.view.querySelector("details.gin-type");
    if (typed && typingOpen) typed.open = true;
    this.setTabStops();
    if (focused) this.focus(focused);
    this.node.querySelector(".gin-undo").disabled = this.history.length === 0;
    this.node.querySelector(".gin-changed").hidden = entry.link === this.original.link;
    this.toFragment();
    this.say(summary || this.node.dataset.ginReadyText);
  }

  focus(key) {
    const element = this.view.querySelector(key);
    if (element) element.focus();
  }

  undo() {
    if (!this.history.length) return;
    ++this.sequence; // an answer still on its way is no longer wanted
    this.show(this.history.pop());
  }

  reset() {
    ++this.sequence;
    this.history = [];
    this.show(this.original, this.node.dataset.ginReadyText);
  }

  // --- the URL fragment: every changed example of the page, #gin-1=<link>&gin-3=<link> --------

  toFragment() {
    const key = `gin-${this.index}=`;
    const parts = fragmentParts().filter((p) => !p.startsWith(key));
    if (this.current.link !== this.original.link) parts.push(key + this.current.link);
    parts.sort((a, b) => parseInt(a.slice(4), 10) - parseInt(b.slice(4), 10));
    const url = new URL(location.href);
    url.hash = parts.join("&");
    history.replaceState(history.state, "", url);
    window.dispatchEvent(new Event("gin:fragment"));
  }

  async share() {
    try {
      await navigator.clipboard.writeText(location.href);
      this.say(this.texts.copied);
    } catch {
      this.say(location.href);
    }
  }

  // --- events ----------------------------------------------------------------------------------

  onClick(event) {
    const button = event.target.closest("button");
    if (!button || !this.node.contains(button) || button.disabled) return;
    if (button.dataset.pick) this.pick(button.dataset.pick);
    else if (button.dataset.field) this.openPicker(button);
    else if (button.classList.contains("gin-undo")) this.undo();
    else if (button.classList.contains("gin-reset")) this.reset();
    else if (button.classList.contains("gin-share")) this.share();
    else if (button.classList.contains("gin-remove")) this.edit({ remove: Number(button.dataset.entry) });
    else if (button.classList.contains("gin-add-hand")) this.addHand();
  }

  onChange(event) {
    const target = event.target;
    if (target.classList.contains("gin-rules-select")) this.edit({ rules: target.value });
    else if (target.classList.contains("gin-text")) this.typed(target);
    else if (target.dataset.entry !== undefined && target.dataset.part) {
      const value = Number(target.value); // a winner (0 or 1) or points
      if (target.value.trim() === "" || !Number.isInteger(value)) return;
      this.edit({ entry: Number(target.dataset.entry), [target.dataset.part]: value });
    }
  }

  onKey(event) {
    if (this.picker && this.picker.node.contains(event.target)) return this.pickerKey(event);
    const target = event.target;
    if (event.key === "Enter" && target.classList.contains("gin-text")) {
      event.preventDefault();
      this.typed(target);
    } else if (event.key === "Enter" && target.classList.contains("gin-add-points")) {
      event.preventDefault();
      this.addHand();
    } else if (target.dataset.field && target.closest("[role=group]")) {
      this.moveInHand(event, target);
    }
  }

  onFocus(event) {
    const card = event.target;
    if (card.dataset && card.dataset.field && card.closest("[role=group]")) {
      this.roving[card.dataset.field] = focusKey(card);
      this.setTabStops();
    }
  }

  typed(input) {
    const text = input.value.trim();
    // Enter, then the change event when the field loses focus: send each text once.
    if (text === input.dataset.sent || text === input.defaultValue) return;
    input.dataset.sent = text;
    this.edit({ field: input.dataset.field, text });
  }

  addHand() {
    const winner = Number(this.view.querySelector(".gin-add-winner").value);
    const raw = this.view.querySelector(".gin-add-points").value.trim();
    this.edit({ add: { winner, points: /^\d+$/.test(raw) ? Number(raw) : raw } });
  }

  // --- the keyboard inside a hand: one tab stop, arrows move -------------------------------------

  setTabStops() {
    for (const group of this.view.querySelectorAll("[role=group][data-field]")) {
      const cards = [...group.querySelectorAll("button[data-field]")];
      const kept = this.roving[group.dataset.field];
      const stop = (kept && group.querySelector(kept)) || cards[0];
      for (const card of cards) card.tabIndex = card === stop ? 0 : -1;
    }
  }

  moveInHand(event, card) {
    const cards = [...card.closest("[role=group]").querySelectorAll("button[data-field]")];
    const at = cards.indexOf(card);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: cards.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    cards[Math.max(0, Math.min(cards.length - 1, to))].focus();
  }

  // --- the card picker -------------------------------------------------------------------------

  openPicker(button) {
    this.closePicker();
    if (!this.pickerTemplate) return;
    const picker = this.pickerTemplate.content.firstElementChild.cloneNode(true);
    const note = picker.querySelector(".gin-picker-note");
    note.id = `gin-picker-note-${this.index}`;
    picker.querySelector(".gin-picker-caption").textContent = button.dataset.caption;
    const taken = new Set([...this.view.querySelectorAll(".gin-inputs [data-card]")].map((b) => b.dataset.card));
    for (const cell of picker.querySelectorAll("[data-pick]")) {
      if (taken.has(cell.dataset.pick)) {
        cell.classList.add("gin-taken");
        cell.setAttribute("aria-describedby", note.id);
      }
    }
    button.closest("dd").append(picker); // inside the <dd>: a <dl> holds only dt/dd groups
    this.picker = { node: picker, target: button.dataset, key: focusKey(button) };
    const start = picker.querySelector(`[data-pick="${button.dataset.card}"]`);
    start.tabIndex = 0;
    start.focus();
    this.outside = (event) => {
      if (!picker.contains(event.target)) this.closePicker(!button.isConnected ? false : event.target === button);
    };
    document.addEventListener("pointerdown", this.outside, true);
  }

  pickerKey(event) {
    const cells = [...this.picker.node.querySelectorAll("[data-pick]")];
    const at = cells.indexOf(document.activeElement);
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 13, ArrowUp: -13, Home: -(at % 13), End: 12 - (at % 13) };
    if (event.key in moves && at >= 0) {
      event.preventDefault();
      const next = cells[(at + moves[event.key] + cells.length) % cells.length];
      cells[at].tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    } else if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      this.closePicker(true);
    }
  }

  async pick(card) {
    const { field, meld, index } = this.picker.target;
    const key = this.picker.key;
    this.closePicker();
    const edit = { field, index: Number(index), card };
    if (meld !== undefined) edit.meld = Number(meld);
    await this.edit(edit);
    this.focus(key);
  }

  closePicker(refocus = false) {
    if (!this.picker) return;
    const key = this.picker.key;
    this.picker.node.remove();
    this.picker = null;
    document.removeEventListener("pointerdown", this.outside, true);
    if (refocus) this.focus(key);
  }
}
