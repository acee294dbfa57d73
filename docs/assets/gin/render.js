// Renders engine answers as HTML in the page's language: the browser twin of
// sitegen/examples.py, which pre-renders the same markup at build time. Keep the two in step;
// a browser test checks that a live answer renders exactly like the pre-rendered one.

const CATALOGS = new Map(); // language -> Promise<catalog>
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "A23456789TJQK";

export function pageLanguage() {
  const lang = (document.documentElement.lang || "en").slice(0, 2).toLowerCase();
  return ["en", "ro", "hu", "it"].includes(lang) ? lang : "en";
}

// The catalog of a language (key -> text), from assets/gin/locales/<lang>.json.
export function loadCatalog(lang = pageLanguage()) {
  if (!CATALOGS.has(lang)) {
    const url = new URL(`./locales/${lang}.json`, import.meta.url);
    const loading = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`could not load ${url}: HTTP ${r.status}`);
      return r.json();
    }).then((messages) => new Catalog(messages));
    loading.catch(() => CATALOGS.delete(lang)); // try again next time
    CATALOGS.set(lang, loading);
  }
  return CATALOGS.get(lang);
}

export class Catalog {
  constructor(messages) {
    this.messages = messages;
  }

  // The message for key with its {placeholders} filled (as plain text).
  text(key, params = {}) {
    const template = this.messages[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }

  cardName(card) {
    return this.text("card.name", {
      rank: this.text(`card.rank.${RANKS.indexOf(card[0]) + 1}`),
      suit: this.text(`card.suit.${card[1]}`),
    });
  }

  // A coded engine error ({code, params}) as a sentence.
  error(error) {
    const params = {};
    for (const [name, value] of Object.entries(error.params || {})) {
      if (Array.isArray(value)) params[name] = value.join(this.text("list.or"));
      else if (name === "rules" && `rules.${value}` in this.messages) params[name] = this.text(`rules.${value}`);
      else params[name] = value ?? "";
    }
    const key = `error.${error.code}`;
    return key in this.messages ? this.text(key, params) : this.text("error.internal_error");
  }
}

export function escape(text, quote = true) {
  const s = String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return quote ? s.replace(/"/g, "&quot;").replace(/'/g, "&#x27;") : s;
}

// Fill a template already escaped for HTML with parameters already HTML.
function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? params[name] : whole));
}

export function cardHtml(card, cat) {
  const rank = card[0] === "T" ? "10" : card[0];
  return `<span class="gin-card gin-suit-${card[1]}" data-card="${card}">`
    + `<span aria-hidden="true">${rank}${SUIT_SYMBOLS[card[1]]}</span>`
    + `<span class="gin-sr">${escape(cat.cardName(card))}</span></span>`;
}

function none(cat) {
  return `<span class="gin-none">${escape(cat.text("word.none"))}</span>`;
}

export function cardsHtml(cards, cat) {
  if (!cards) return none(cat);
  return `<span class="gin-cards">${cards.split(" ").map((c) => cardHtml(c, cat)).join("")}</span>`;
}

export function meldsHtml(melds, cat) {
  if (!melds.length) return none(cat);
  return melds.map((m) => `<span class="gin-meld">${cardsHtml(m, cat)}</span>`).join(" ");
}

function paramHtml(name, value, cat) {
  if (name === "melds") return meldsHtml(value, cat);
  if (["card", "meld", "result", "deadwood", "upcard"].includes(name) && typeof value === "string") {
    return cardsHtml(value, cat);
  }
  if (name === "winner" && typeof value === "string") return escape(cat.text(`role.${value}`));
  if ((name === "player" || name === "loser") && Number.isInteger(value)) {
    return escape(cat.text(`player.${value}`));
  }
  if (name === "outcome") return escape(cat.text(`outcome.${value}`));
  if (name === "rule") return escape(cat.text(`shutout.${value}`));
  if (Array.isArray(value)) return escape(value.join(cat.text("list.and")));
  if (typeof value === "boolean") return value ? "True" : "False"; // as Python's str()
  return escape(value === null ? "None" : value);
}

export function stepKey(step) {
  if (step.code === "knock" && step.oklahoma) return "step.knock_oklahoma";
  if (step.code === "undercut" && step.tie) return "step.undercut_tie";
  if (step.code === "hand_won" && "columns" in step) return "step.hand_won_columns";
  return `step.${step.code}`;
}

export function stepHtml(step, cat) {
  const params = {};
  for (const [name, value] of Object.entries(step)) {
    if (name !== "code") params[name] = paramHtml(name, value, cat);
  }
  const text = cat.text(stepKey(step));
  const out = fill(escape(text, false), params);
  // A Hollywood column's step: say which column (as step_html() in sitegen/examples.py).
  if ("column" in step && !text.includes("{column}")) {
    return `${escape(cat.text("ui.column", { column: step.column }))}: ${out}`;
  }
  return out;
}

export function stepsHtml(steps, cat) {
  return `<ol class="gin-steps">${steps.map((s) => `<li>${stepHtml(s, cat)}</li>`).join("")}</ol>`;
}

function row(label, valueHtml) {
  return `<dt>${escape(label)}</dt><dd>${valueHtml}</dd>`;
}

function points(n) {
  return ` <strong class="gin-points">${n}</strong>`;
}

function verdictHtml(kind, result, cat) {
  if (kind === "melds") return result.big_gin ? escape(cat.text("ui.big_gin")) : "";
  if (result.verdict === "big_gin") return escape(cat.text("ui.big_gin"));
  const key = { gin: "ui.gin_possible", knock: "ui.can_knock", no: "ui.cannot_knock" }[result.verdict];
  return fill(escape(cat.text(key), false), {
    card: cardHtml(result.discard, cat), points: String(result.points), limit: String(result.limit),
  });
}

function tableHtml(sheet, cat, caption = "") {
  const t = (key, params) => escape(cat.text(key, params));
  const head = `<tr><th>#</th><th>${t("ui.winner")}</th><th>${t("ui.points")}</th>`
    + `<th>${t("player.0")}</th><th>${t("player.1")}</th></tr>`;
  const rows = sheet.rows.map((r) => `<tr><td>${r.hand}</td><td>${t(`player.${r.winner}`)}</td>`
    + `<td>${r.points}</td><td>${r.totals[0]}</td><td>${r.totals[1]}</td></tr>`).join("");
  const cap = caption ? `<caption>${escape(caption)}</caption>` : "";
  return `<table class="gin-sheet">${cap}<thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

function sheetHtml(result, cat) {
  const steps = result.steps.filter((s) => s.code !== "hand_won");
  if (!("columns" in result)) return tableHtml(result, cat) + stepsHtml(steps, cat);
  const tables = result.columns.map((column) => {
    const state = cat.text(column.finished ? "ui.closed" : "ui.open");
    return tableHtml(column, cat, `${cat.text("ui.column", { column: column.column })} (${state})`);
  });
  return `<div class="gin-columns">${tables.join("")}</div>${stepsHtml(steps, cat)}`;
}

// The answer part of an example (the contents of .gin-output).
export function resultHtml(example, result, cat) {
  const kind = example.kind;
  const t = (key) => cat.text(key);
  if (kind === "melds" || kind === "knock") {
    const rows = [
      row(t("ui.melds"), meldsHtml(result.melds, cat)),
      row(t("ui.deadwood"), cardsHtml(result.deadwood, cat) + points(result.points)),
    ];
    if (result.discard) rows.push(row(t("ui.discard"), cardHtml(result.discard, cat)));
    const verdict = verdictHtml(kind, result, cat);
    return `<dl class="gin-summary">${rows.join("")}</dl>`
      + (verdict ? `<p class="gin-headline">${verdict}</p>` : "");
  }
  if (kind === "layoffs") {
    const lay = result.lay_offs.map((l) => ({ code: "lay_off", card: l.card, meld: l.meld, result: l.result }));
    const rows = [
      row(t("ui.lay_offs"), lay.length ? stepsHtml(lay, cat) : none(cat)),
      row(t("ui.melds"), meldsHtml(result.melds, cat)),
      row(t("ui.deadwood"), cardsHtml(result.deadwood, cat) + points(result.points)),
    ];
    return `<dl class="gin-summary">${rows.join("")}</dl>`;
  }
  if (kind === "score" || kind === "oklahoma") {
    const steps = result.steps;
    return `<p class="gin-headline">${stepHtml(steps[steps.length - 1], cat)}</p>`
      + stepsHtml(steps.slice(0, -1), cat);
  }
  return sheetHtml(result, cat);
}
