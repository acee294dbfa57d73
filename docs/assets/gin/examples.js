// Live examples: makes each pre-rendered .gin-example (see sitegen/examples.py) editable.
//
// The example's input lives in data-gin (the same JSON the build used). A reader changes a
// card (a 52-card picker: mouse, touch or keyboard), types cards, switches the rules preset,
// or adds hands to a score sheet; the engine answers in the worker and the answer is rendered
// with render.js. A bad change gets a localized inline error and the previous state stays.
// Undo and reset walk the history; the state goes into the URL fragment (#gin-N=...), so a
// link shows exactly what the reader sees.

import { SUIT_SYMBOLS, escape, loadCatalog, resultHtml } from "./render.js";

const SUITS = "SHDC";
const RANKS = "A23456789TJQK";
const PRESETS = ["standard", "pagat", "pokerwiner", "oklahoma"];
const RULE_NUMBERS = {
  knock: ["knock_limit"],
  score: ["knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie"],
  oklahoma: ["knock_limit", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie"],
  sheet: ["game_target", "game_bonus", "box_bonus", "shutout"],
  hollywood: ["game_target", "game_bonus", "box_bonus", "shutout"],
};
const CARD_FIELDS = ["hand", "knocker", "defender", "upcard"];

// The engine request for an example: the same as request() in sitegen/examples.py.
export function requestFor(example) {
  const extra = {};
  for (const key of ["rules", "upcard"]) if (example[key] != null) extra[key] = example[key];
  switch (example.kind) {
    case "melds": return { v: 1, op: "melds", cards: example.hand };
    case "knock": return { v: 1, op: "knock", cards: example.hand, ...extra };
    case "layoffs": return { v: 1, op: "layoffs", knocker_melds: example.knocker_melds, defender: example.defender };
    case "score":
    case "oklahoma": return { v: 1, op: "score", knocker: example.knocker, defender: example.defender, ...extra };
    default: return {
      v: 1, op: "sheet", entries: example.entries,
      format: example.kind === "hollywood" ? "hollywood" : "standard", ...extra,
    };
  }
}

function allCards(example) {
  const cards = [];
  for (const field of CARD_FIELDS) if (example[field]) cards.push(...example[field].split(" "));
  for (const meld of example.knocker_melds || []) cards.push(...meld.split(" "));
  return cards;
}

function html(text) {
  const template = document.createElement("template");
  template.innerHTML = text;
  return template.content;
}

export class LiveExample {
  constructor(node, index, engine) {
    this.node = node;
    this.index = index; // 1-based position on the page, for the URL fragment
    this.engine = engine;
    this.original = JSON.parse(node.dataset.gin);
    this.state = this.original;
    this.history = [];
    this.sequence = 0; // answers to older changes are dropped
    this.rules = null; // the presets, from the engine
  }

  async mount() {
    this.cat = await loadCatalog();
    this.status = this.node.querySelector(".gin-status");
    this.output = this.node.querySelector(".gin-output");
    this.buildControls();
    this.renderInputs();
    // Nothing to say until the engine is on its way (gin.js boots it when the reader acts).
    this.engine.started.then(() => this.say(this.cat.text("ui.loading")));
    this.engine.ready.then(() => this.onReady(), () => this.onFailure());
  }

  async onReady() {
    const rules = await this.engine.request({ v: 1, op: "rules" }).catch(() => null);
    this.rules = rules && rules.ok ? rules.result : null;
    this.renderRules();
    for (const control of this.node.querySelectorAll(".gin-controls [disabled], .gin-rules-select")) {
      control.disabled = false;
    }
    const shared = this.fromFragment();
    if (shared) await this.change(shared, { record: false });
    else this.say(this.cat.text("ui.ready"));
    this.node.dataset.ginReady = "";
  }

  onFailure() {
    this.closePicker();
    for (const control of this.node.querySelectorAll("button, select, input")) control.disabled = true;
    this.say(this.cat.text("ui.failed"));
    this.node.dataset.ginFailed = "";
  }

  say(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle("gin-error", isError);
  }

  // --- changing the example ----------------------------------------------------------------

  async change(next, { record = true } = {}) {
    const sequence = ++this.sequence;
    this.say(this.cat.text("ui.working"));
    let response;
    try {
      response = await this.engine.request(requestFor(next));
    } catch {
      this.onFailure();
      return false;
    }
    if (sequence !== this.sequence) return false;
    if (!response.ok) {
      this.say(this.cat.error(response.error), true);
      this.renderInputs({ keepText: true }); // back to the cards of the state we keep
      return false;
    }
    if (record) this.history.push(this.state);
    this.state = next;
    this.output.innerHTML = resultHtml(next, response.result, this.cat);
    this.node.dataset.ginAnswered = String(sequence);
    this.renderInputs();
    this.renderRules();
    this.toFragment();
    this.say(this.cat.text("ui.ready"));
    return true;
  }

  replaceCard(field, meld, position, card) {
    const next = { ...this.state };
    if (field === "knocker_melds") {
      next.knocker_melds = this.state.knocker_melds.map((m, i) => {
        if (i !== meld) return m;
        const cards = m.split(" ");
        cards[position] = card;
        return cards.join(" ");
      });
    } else {
      const cards = this.state[field].split(" ");
      cards[position] = card;
      next[field] = cards.join(" ");
    }
    return this.change(next);
  }

  undo() {
    if (!this.history.length) return;
    const previous = this.history.pop();
    this.change(previous, { record: false });
  }

  reset() {
    this.history = [];
    this.change(this.original, { record: false });
  }

  // --- the URL fragment --------------------------------------------------------------------

  // The fragment holds every changed example of the page: #gin-1=<json>&gin-3=<json>.
  fragmentKey() {
    return `gin-${this.index}=`;
  }

  fragmentParts() {
    return location.hash.slice(1).split("&").filter((part) => /^gin-\d+=/.test(part));
  }

  fromFragment() {
    const part = this.fragmentParts().find((p) => p.startsWith(this.fragmentKey()));
    if (!part) return null;
    try {
      const shared = JSON.parse(decodeURIComponent(part.slice(this.fragmentKey().length)));
      if (shared && typeof shared === "object" && !Array.isArray(shared)) {
        this.node.scrollIntoView({ block: "center" });
        return { ...this.original, ...shared, kind: this.original.kind };
      }
    } catch { /* a broken link: keep the worked example */ }
    return null;
  }

  toFragment() {
    const { kind, ...fields } = this.state;
    const same = JSON.stringify(this.state) === JSON.stringify(this.original);
    const parts = this.fragmentParts().filter((p) => !p.startsWith(this.fragmentKey()));
    if (!same) parts.push(this.fragmentKey() + encodeURIComponent(JSON.stringify(fields)));
    parts.sort((a, b) => parseInt(a.slice(4), 10) - parseInt(b.slice(4), 10));
    const url = new URL(location.href);
    url.hash = parts.join("&");
    history.replaceState(history.state, "", url);
  }

  // --- the cards -----------------------------------------------------------------------------

  cardButton(card, field, meld, position) {
    const rank = card[0] === "T" ? "10" : card[0];
    const label = this.cat.text("ui.edit_card", { card: this.cat.cardName(card) });
    return `<button type="button" class="gin-card gin-suit-${card[1]}" data-card="${card}" `
      + `data-field="${field}" data-meld="${meld}" data-position="${position}" `
      + `aria-label="${escape(label)}">${rank}${SUIT_SYMBOLS[card[1]]}</button>`;
  }

  // The cards of the current state; the typed fields too, unless the reader's text is kept
  // (after an error, so that it can be corrected).
  renderInputs({ keepText = false } = {}) {
    const inputs = this.node.querySelector(".gin-inputs");
    if (!inputs) return;
    const focused = inputs.contains(document.activeElement) ? document.activeElement.dataset : null;
    for (const dd of inputs.querySelectorAll("dd")) {
      const field = dd.dataset.ginField;
      if (field === "knocker_melds") {
        dd.innerHTML = this.state.knocker_melds.map((m, j) => `<span class="gin-meld"><span class="gin-cards">${
          m.split(" ").map((c, i) => this.cardButton(c, "knocker_melds", j, i)).join("")}</span></span>`).join(" ");
      } else if (field && this.state[field]) {
        const cards = this.state[field].split(" ");
        dd.innerHTML = `<span class="gin-cards">${cards.map((c, i) => this.cardButton(c, field, -1, i)).join("")}</span>`;
      }
    }
    if (focused) this.focusCard(focused.field, focused.meld, focused.position); // keep the reader's place
    if (keepText) return;
    for (const input of this.node.querySelectorAll(".gin-text")) {
      input.value = this.fieldText(input.dataset.field);
      delete input.dataset.sent;
    }
  }

  fieldText(field) {
    return field === "knocker_melds" ? this.state.knocker_melds.join(" / ") : this.state[field] || "";
  }

  openPicker(button) {
    this.closePicker();
    const taken = new Set(allCards(this.state));
    const current = button.dataset.card;
    const cells = [];
    for (const suit of SUITS) {
      for (const rank of RANKS) {
        const card = rank + suit;
        cells.push(`<button type="button" class="gin-card gin-suit-${suit}" data-pick="${card}" tabindex="-1" `
          + `aria-pressed="${taken.has(card)}" aria-label="${escape(this.cat.cardName(card))}">`
          + `${rank === "T" ? "10" : rank}${SUIT_SYMBOLS[suit]}</button>`);
      }
    }
    const picker = html(`<div class="gin-picker" role="group" aria-label="${escape(this.cat.text("ui.pick_card"))}">${cells.join("")}</div>`).firstChild;
    this.node.querySelector(".gin-inputs").after(picker);
    this.picker = { node: picker, button: { field: button.dataset.field, meld: Number(button.dataset.meld), position: Number(button.dataset.position) } };
    const start = picker.querySelector(`[data-pick="${current}"]`);
    start.tabIndex = 0;
    start.focus();
    picker.addEventListener("keydown", (event) => this.pickerKey(event));
    picker.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-pick]");
      if (cell) this.pick(cell.dataset.pick);
    });
  }

  pickerKey(event) {
    const cells = [...this.picker.node.querySelectorAll("[data-pick]")];
    const at = cells.indexOf(document.activeElement);
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 13, ArrowUp: -13, Home: -at, End: cells.length - 1 - at };
    if (event.key in moves) {
      event.preventDefault();
      const next = cells[(at + moves[event.key] + cells.length) % cells.length];
      cells[at].tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.closePicker(true);
    }
  }

  async pick(card) {
    const { field, meld, position } = this.picker.button;
    this.closePicker();
    await this.replaceCard(field, meld, position, card);
    this.focusCard(field, meld, position);
  }

  focusCard(field, meld, position) {
    const selector = `button[data-field="${field}"][data-meld="${meld}"][data-position="${position}"]`;
    const button = this.node.querySelector(selector);
    if (button) button.focus();
  }

  closePicker(refocus = false) {
    if (!this.picker) return;
    const { field, meld, position } = this.picker.button;
    this.picker.node.remove();
    this.picker = null;
    if (refocus) this.focusCard(field, meld, position);
  }

  // --- the controls --------------------------------------------------------------------------

  buildControls() {
    const t = (key, params) => escape(this.cat.text(key, params));
    const kind = this.state.kind;
    const parts = [];
    if (RULE_NUMBERS[kind]) {
      // The preset's name in the rules line becomes a select: "Rules: [Standard] — numbers".
      const options = PRESETS.map((name) => `<option value="${name}">${t(`rules.${name}`)}</option>`).join("");
      const select = `<label class="gin-rules-name">${t("ui.rules")}: `
        + `<select class="gin-rules-select" disabled>${options}</select></label>`;
      const name = this.node.querySelector(".gin-rules .gin-rules-name");
      if (name) name.replaceWith(html(select));
      else parts.push(select);
      this.node.querySelector(".gin-rules-select").value = this.state.rules || "standard";
    }
    if (kind === "sheet" || kind === "hollywood") {
      parts.push(`<label>${t("ui.winner")} <select class="gin-entry-winner" disabled>`
        + `<option value="0">${t("player.0")}</option><option value="1">${t("player.1")}</option></select></label>`
        + `<label>${t("ui.points")} <input class="gin-entry-points" type="number" min="0" step="1" value="25" inputmode="numeric" disabled></label>`
        + `<button type="button" class="gin-add" disabled>${t("ui.add_hand")}</button>`);
    }
    parts.push(`<button type="button" class="gin-undo" disabled>${t("ui.undo")}</button>`,
      `<button type="button" class="gin-reset" disabled>${t("ui.reset")}</button>`,
      `<button type="button" class="gin-share" disabled>${t("ui.share")}</button>`);
    const controls = html(`<div class="gin-controls">${parts.join("")}</div>`).firstChild;
    this.output.before(controls);

    const fields = [...CARD_FIELDS, "knocker_melds"].filter((f) => this.state[f]);
    if (fields.length) {
      const labels = { hand: "ui.hand", knocker: "ui.knocker_hand", defender: "ui.defender_hand", upcard: "ui.upcard", knocker_melds: "role.knocker" };
      const inputs = fields.map((f) => `<label>${t(labels[f])} <input class="gin-text" data-field="${f}" `
        + `autocomplete="off" spellcheck="false" value="${escape(this.fieldText(f))}"></label>`).join("");
      controls.after(html(`<details class="gin-type"><summary>${t("ui.type_cards")}</summary>${inputs}</details>`));
    }

    this.node.addEventListener("click", (event) => this.onClick(event));
    this.node.addEventListener("change", (event) => this.onChange(event));
    this.node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.classList.contains("gin-text")) {
        event.preventDefault();
        this.typed(event.target);
      }
    });
  }

  onClick(event) {
    const button = event.target.closest("button");
    if (!button || !this.node.contains(button)) return;
    if (button.dataset.field) this.openPicker(button);
    else if (button.classList.contains("gin-undo")) this.undo();
    else if (button.classList.contains("gin-reset")) this.reset();
    else if (button.classList.contains("gin-add")) this.addEntry();
    else if (button.classList.contains("gin-share")) this.share();
  }

  onChange(event) {
    const target = event.target;
    if (target.classList.contains("gin-rules-select")) this.change({ ...this.state, rules: target.value });
    else if (target.classList.contains("gin-text")) this.typed(target);
  }

  typed(input) {
    const field = input.dataset.field;
    const text = input.value.trim();
    // Enter, then the change event when the field loses focus: send each text once.
    if (text === this.fieldText(field) || text === input.dataset.sent) return;
    input.dataset.sent = text;
    const value = field === "knocker_melds" ? text.split("/").map((m) => m.trim()).filter(Boolean) : text;
    this.change({ ...this.state, [field]: value });
  }

  addEntry() {
    const winner = Number(this.node.querySelector(".gin-entry-winner").value);
    const raw = this.node.querySelector(".gin-entry-points").value;
    const points = /^\d+$/.test(raw) ? Number(raw) : raw;
    this.change({ ...this.state, entries: [...this.state.entries, { winner, points }] });
  }

  async share() {
    try {
      await navigator.clipboard.writeText(location.href);
      this.say(this.cat.text("ui.copied"));
    } catch {
      this.say(location.href);
    }
  }

  renderRules() {
    const select = this.node.querySelector(".gin-rules-select");
    if (!select) return;
    const name = this.state.rules || "standard";
    select.value = name;
    const label = this.node.querySelector(".gin-rules .gin-rules-name");
    const preset = this.rules && this.rules[name];
    if (!label || !preset) return;
    while (label.nextSibling) label.nextSibling.remove();
    label.after(html(` — ${rulesLine(this.state.kind, preset, this.cat)}`));
  }
}

// "Gin bonus: 25 · Undercut bonus: 25 … (Source: …)": which number this preset uses, and who says
// so; the part of rules_html() in sitegen/examples.py after the preset's name.
export function rulesLine(kind, preset, cat) {
  const t = (key, params) => cat.text(key, params);
  const value = (name) => {
    if (name === "knock_limit" && preset.oklahoma) return t("rule.upcard_limit");
    if (name === "big_gin_bonus" && preset.big_gin_bonus == null) return t("rule.no_big_gin");
    if (name === "tie") return t(`tie.${preset.tie}`);
    if (name === "shutout") return t(`shutout.${preset.shutout}`);
    return String(preset[name]);
  };
  const numbers = (RULE_NUMBERS[kind] || []).map((name) => `${t(`rule.${name}`)}: ${value(name)}`).join(" · ");
  const sources = preset.sources.length ? ` <span class="gin-source">(${escape(t("ui.source", { source: preset.sources.join("; ") }))})</span>` : "";
  return `<span class="gin-rule-numbers">${escape(numbers)}</span>${sources}`;
}
