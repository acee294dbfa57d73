// The browser side of the lessons (pages rendered by sitegen/tutorials.py from tutorials/*.yaml).
//
// gin.js imports this module for every .gin-lesson node and calls mountLesson(node, ginEngine).
// - A lesson page (.gin-lesson[data-lesson]): each step (.gin-lesson-step) gets its answer form
//   (card buttons, choices or a number; Enter checks). The answer is checked by the rules
//   engine in the worker; until the engine is ready, against the worked answer the build put in
//   the page (data-gin-check, which has the same shape as what the engine check returns).
//   Feedback comes at once in the page's language: right or wrong, and why. Hints on request.
// - Progress (which steps are answered) is kept in localStorage and can be reset.
// - The index page (.gin-lesson-index) shows each lesson's progress.

import { cardHtml, cardsHtml, escape, loadCatalog } from "./render.js";

const STORE = "gin-lessons";
const CARD_VALUES = { A: 1, T: 10, J: 10, Q: 10, K: 10 };

// --- progress in localStorage -----------------------------------------------------------------

export function readProgress() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function writeProgress(progress) {
  try {
    localStorage.setItem(STORE, JSON.stringify(progress));
  } catch {
    // storage full or disabled: progress just is not kept
  }
}

function stepsDone(progress, lesson, steps) {
  const done = new Set(progress[lesson] || []);
  return steps.filter((id) => done.has(id)).length;
}

function markDone(lesson, step) {
  const progress = readProgress();
  const done = new Set(progress[lesson] || []);
  done.add(step);
  progress[lesson] = [...done];
  writeProgress(progress);
}

function forget(lesson) {
  const progress = readProgress();
  if (lesson === undefined) writeProgress({});
  else {
    delete progress[lesson];
    writeProgress(progress);
  }
}

// --- text --------------------------------------------------------------------------------------

// A message as HTML: the template escaped, {card}/{cards} drawn as cards, the rest escaped.
function messageHtml(cat, key, params = {}) {
  return escape(cat.text(key), false).replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (name === "card" && value) return cardHtml(value, cat);
    if (name === "cards") return cardsHtml(value, cat);
    return escape(value);
  });
}

function cardValue(card) {
  return CARD_VALUES[card[0]] || Number(card[0]);
}

function sameCards(a, b) {
  const x = new Set(a.split(" ").filter(Boolean));
  const y = new Set(b.split(" ").filter(Boolean));
  return x.size === y.size && [...x].every((c) => y.has(c));
}

function resolve(result, path) {
  let value = result;
  for (const part of path.split(".")) {
    if (value === null || value === undefined) return undefined;
    value = value[/^\d+$/.test(part) ? Number(part) : part];
  }
  return value;
}

// --- the engine check: the same shape as data-gin-check (see replay_step in tutorials.py) -----

function parseMove(text, withPlayer) {
  const parts = text.split(" ");
  const action = { kind: parts.shift() };
  if (withPlayer) action.player = Number(parts.shift());
  if (parts.length) action.card = parts[0];
  return action;
}

function moveKey(action) {
  return action.card ? `${action.kind} ${action.card}` : action.kind;
}

async function ask(engine, request) {
  const response = await engine.request({ v: 1, ...request });
  if (!response.ok) throw new Error(response.error.message);
  return response.result;
}

// The same request as requests_for() in sitegen/tutorials.py.
function requestFor(step) {
  const extra = {};
  for (const key of ["rules", "upcard"]) if (step[key]) extra[key] = step[key];
  switch (step.ask) {
    case "discard":
    case "knock": return { op: "knock", cards: step.hand, ...extra };
    case "deadwood":
    case "melds": return { op: "melds", cards: step.hand };
    case "layoff": return { op: "layoffs", knocker_melds: step.knocker_melds, defender: step.defender };
    case "score": return { op: "score", knocker: step.knocker, defender: step.defender, ...extra };
    case "sheet": return { op: "sheet", entries: step.entries, format: step.format || "standard", ...extra };
    default: throw new Error(`no request for ${step.ask}`);
  }
}

export async function engineCheck(engine, step, answer) {
  if (step.ask === "move") {
    let state = await ask(engine, { op: "deal", ...step.deal, ...(step.rules ? { rules: step.rules } : {}) });
    for (const move of step.moves || []) {
      state = await ask(engine, { op: "play", state: state.state, action: parseMove(move, true) });
    }
    const legal = new Set(state.legal.map(moveKey));
    return { legal: step.choices.filter((c) => legal.has(moveKey(parseMove(c, false)))) };
  }
  const result = await ask(engine, requestFor(step));
  switch (step.ask) {
    case "discard": {
      const rest = step.hand.split(" ").filter((c) => c !== answer).join(" ");
      const after = await ask(engine, { op: "deadwood", cards: rest });
      return { best: result.points, after: { [answer]: after.points } };
    }
    case "deadwood": return { points: result.points };
    case "melds": return { deadwood: result.deadwood, points: result.points };
    case "knock": return { verdict: result.verdict, points: result.points, limit: result.limit, discard: result.discard };
    case "layoff": return { cards: result.lay_offs.map((l) => l.card).join(" "), points: result.points };
    case "score": return { points: result.points };
    case "sheet": return { value: resolve(result, step.find) };
    default: throw new Error(`no check for ${step.ask}`);
  }
}

// Right or wrong, and why: {right, key, params}.
export function judge(step, check, answer) {
  switch (step.ask) {
    case "discard": {
      const points = check.after[answer];
      return points === check.best
        ? { right: true }
        : { right: false, key: "tutorial.why.discard", params: { card: answer, points } };
    }
    case "deadwood": {
      const value = Number(answer);
      if (value === check.points) return { right: true };
      const key = value > check.points ? "tutorial.why.deadwood_high" : "tutorial.why.deadwood_low";
      return { right: false, key, params: { value } };
    }
    case "score":
    case "sheet": {
      const value = Number(answer);
      const right = value === (step.ask === "score" ? check.points : check.value);
      return right ? { right } : { right, key: "tutorial.why.number", params: { value } };
    }
    case "melds": {
      if (sameCards(answer, check.deadwood)) return { right: true };
      const value = answer.split(" ").filter(Boolean).reduce((sum, c) => sum + cardValue(c), 0);
      const key = value > check.points ? "tutorial.why.melds_more" : "tutorial.why.melds_unmelded";
      return { right: false, key, params: { value } };
    }
    case "knock":
      return answer === check.verdict ? { right: true } : {
        right: false, key: `tutorial.why.knock_${check.verdict}`,
        params: { card: check.discard, points: check.points, limit: check.limit },
      };
    case "layoff": {
      if (sameCards(answer, check.cards)) return { right: true };
      const right = new Set(check.cards.split(" ").filter(Boolean));
      const extra = answer.split(" ").filter((c) => c && !right.has(c));
      return extra.length
        ? { right: false, key: "tutorial.why.layoff_extra", params: { cards: extra.join(" ") } }
        : { right: false, key: "tutorial.why.layoff_missing" };
    }
    case "move":
      return check.legal.includes(answer) ? { right: true } : { right: false, key: "tutorial.why.move" };
    default:
      return { right: false, key: "tutorial.why.move" };
  }
}

// --- a lesson page ---------------------------------------------------------------------------

class LessonStep {
  constructor(lesson, node) {
    this.lesson = lesson;
    this.node = node;
    this.id = node.dataset.step;
    this.step = JSON.parse(node.dataset.ginStep);
    this.check = JSON.parse(node.dataset.ginCheck);
    this.form = node.querySelector(".gin-lesson-form");
    this.feedback = node.querySelector(".gin-lesson-feedback");
    this.solution = node.querySelector(".gin-lesson-solution");
    this.sequence = 0;
  }

  mount() {
    this.form.hidden = false;
    for (const given of this.node.querySelectorAll(".gin-lesson-pickable")) given.hidden = true;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    // Enter checks the answer from a card, a choice or the number field.
    this.form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.matches("input[type=radio], input[type=checkbox]")) {
        event.preventDefault();
        this.submit();
      }
    });
    const hint = this.node.querySelector(".gin-lesson-hint-button");
    if (hint) hint.addEventListener("click", () => this.showHint());
  }

  firstControl() {
    return this.form.querySelector("input:checked") || this.form.querySelector("input");
  }

  answer() {
    const kind = this.step.ask;
    if (kind === "melds" || kind === "layoff") {
      return [...this.form.querySelectorAll("input:checked")].map((i) => i.value).join(" ");
    }
    if (kind === "deadwood" || kind === "score" || kind === "sheet") {
      const text = this.form.querySelector("input").value.trim();
      return /^\d+$/.test(text) ? text : null;
    }
    const picked = this.form.querySelector("input:checked");
    return picked ? picked.value : null;
  }

  say(html, state) {
    this.feedback.innerHTML = html;
    this.node.dataset.feedback = state;
  }

  showHint() {
    const next = this.node.querySelector(".gin-lesson-hint[hidden]");
    const cat = this.lesson.cat;
    if (next) {
      next.hidden = false;
      this.node.dataset.hints = String(this.node.querySelectorAll(".gin-lesson-hint:not([hidden])").length);
    } else {
      this.say(`<p>${messageHtml(cat, "tutorial.no_more_hints")}</p>`, "hint");
    }
  }

  async submit() {
    const cat = this.lesson.cat;
    const answer = this.answer();
    if (answer === null) {
      this.say(`<p>${messageHtml(cat, "tutorial.choose_first")}</p>`, "empty");
      return;
    }
    const sequence = ++this.sequence;
    let check = null;
    let by = "page";
    if (this.lesson.engineReady) {
      try {
        check = await engineCheck(this.lesson.engine, this.step, answer);
        by = "engine";
      } catch (err) {
        console.warn(`gin: the engine could not check the answer: ${err && err.message}`);
      }
    }
    if (sequence !== this.sequence) return; // a newer answer was given meanwhile
    if (!check) check = this.check;
    const verdict = judge(this.step, check, answer);
    const head = verdict.right
      ? `<strong class="gin-lesson-right">${messageHtml(cat, "tutorial.right")}</strong>`
      : `<strong class="gin-lesson-wrong">${messageHtml(cat, "tutorial.wrong")}</strong> `
        + messageHtml(cat, verdict.key, verdict.params);
    const note = messageHtml(cat, by === "engine" ? "tutorial.checked_engine" : "tutorial.checked_page");
    this.node.dataset.checkedBy = by;
    this.say(`<p>${head}</p><p class="gin-lesson-checked">${note}</p>`, verdict.right ? "right" : "wrong");
    if (verdict.right) {
      this.solution.open = true;
      markDone(this.lesson.id, this.id);
      this.node.classList.add("gin-lesson-done");
      this.lesson.update();
      this.lesson.after(this);
    }
  }

  reset() {
    this.form.reset();
    this.feedback.innerHTML = "";
    delete this.node.dataset.feedback;
    delete this.node.dataset.checkedBy;
    this.solution.open = false;
    this.node.classList.remove("gin-lesson-done");
    for (const hint of this.node.querySelectorAll(".gin-lesson-hint")) hint.hidden = true;
  }
}

class Lesson {
  constructor(node, engine, cat) {
    this.node = node;
    this.engine = engine;
    this.cat = cat;
    this.id = node.dataset.lesson;
    this.engineReady = false;
    this.steps = [...node.querySelectorAll(".gin-lesson-step")].map((s) => new LessonStep(this, s));
    this.status = document.querySelector(`[data-gin-lesson-status="${CSS.escape(this.id)}"]`);
  }

  mount() {
    for (const step of this.steps) step.mount();
    const done = new Set(readProgress()[this.id] || []);
    for (const step of this.steps) if (done.has(step.id)) step.node.classList.add("gin-lesson-done");
    if (this.status) {
      this.status.hidden = false;
      this.status.querySelector(".gin-lesson-reset").addEventListener("click", () => this.reset());
    }
    this.update();
    this.node.dataset.ginLessonReady = "";
    if (this.engine && this.engine.ready) {
      this.engine.ready.then(() => {
        this.engineReady = true;
        this.node.dataset.ginEngine = "ready";
      }, () => {
        this.node.dataset.ginEngine = "failed";
      });
    }
  }

  update() {
    if (!this.status) return;
    const ids = this.steps.map((s) => s.id);
    const done = stepsDone(readProgress(), this.id, ids);
    const line = this.status.querySelector(".gin-lesson-progress");
    line.textContent = done === ids.length
      ? this.cat.text("tutorial.lesson_done")
      : this.cat.text("tutorial.progress", { done, count: ids.length });
    line.dataset.done = String(done);
  }

  // After a right answer: move on to the next unanswered step (keyboard users land on it).
  after(step) {
    const index = this.steps.indexOf(step);
    const next = this.steps.slice(index + 1).find((s) => !s.node.classList.contains("gin-lesson-done"))
      || this.steps[index + 1];
    if (next) {
      const control = next.firstControl();
      if (control) control.focus({ preventScroll: true });
      next.node.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  reset() {
    forget(this.id);
    for (const step of this.steps) step.reset();
    this.update();
    const first = this.steps[0] && this.steps[0].firstControl();
    if (first) first.focus();
  }
}

// --- the index page ----------------------------------------------------------------------------

function renderIndex(node, cat) {
  const progress = readProgress();
  const items = [...node.querySelectorAll("li[data-lesson]")];
  let complete = 0;
  let any = false;
  for (const item of items) {
    const steps = JSON.parse(item.dataset.lessonSteps);
    const done = stepsDone(progress, item.dataset.lesson, steps);
    const badge = item.querySelector(".gin-lesson-badge");
    if (!badge.dataset.initial) badge.dataset.initial = badge.textContent;
    let state = "new";
    if (done === steps.length) {
      state = "done";
      complete += 1;
      badge.textContent = cat.text("tutorial.state.done");
    } else if (done > 0) {
      state = "started";
      badge.textContent = cat.text("tutorial.state.started", { done, count: steps.length });
    } else badge.textContent = badge.dataset.initial;
    any = any || done > 0;
    badge.dataset.state = state;
    item.dataset.state = state;
  }
  const total = node.querySelector(".gin-lesson-total");
  total.textContent = cat.text("tutorial.total", { done: complete, count: items.length });
  total.dataset.done = String(complete);
  node.querySelector(".gin-lesson-reset-all").hidden = !any;
}

function mountIndex(node, cat) {
  renderIndex(node, cat);
  node.querySelector(".gin-lesson-reset-all").addEventListener("click", () => {
    forget();
    renderIndex(node, cat);
  });
  // Another tab answered a step: show it.
  window.addEventListener("storage", (event) => {
    if (event.key === STORE && node.isConnected) renderIndex(node, cat);
  });
  node.dataset.ginLessonReady = "";
}

export async function mountLesson(node, engine) {
  if (node.dataset.ginLesson !== undefined) return;
  node.dataset.ginLesson = "";
  const cat = await loadCatalog();
  if (node.hasAttribute("data-lesson-index")) mountIndex(node, cat);
  else new Lesson(node, engine, cat).mount();
}
