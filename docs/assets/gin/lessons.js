// The browser side of the lessons (pages drawn by sitegen/lessons.py with ginview.steps).
//
// gin.js imports this module for every .gin-lesson node and calls mountLesson(node, engine, page).
// - A lesson page (.gin-lesson[data-lesson]): each step (.gin-lesson-step) gets its answer form
//   (card buttons, choices or a number; Enter checks). The worker judges the answer with the
//   same Python that drew the step (ginview.steps.feedback) and says, in the page's language,
//   whether it is right and what went wrong. Hints on request.
// - Progress (which steps are answered) is kept in localStorage and can be reset; anything
//   unreadable stored there is ignored, never fatal.
// - The index page (.gin-lesson-index) shows each lesson's progress.
// Every sentence shown comes from the page (data-gin-texts): this file writes no text.

import { announce } from "./announce.js";

const STORE = "gin-lessons";
const STEP_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

// --- progress in localStorage: {lesson id: [step ids]} -------------------------------------------

export function readProgress() {
  let data;
  try {
    data = JSON.parse(localStorage.getItem(STORE) || "{}");
  } catch {
    return {};
  }
  const progress = {};
  if (!data || typeof data !== "object" || Array.isArray(data)) return progress;
  for (const [lesson, steps] of Object.entries(data)) {
    if (STEP_ID.test(lesson) && Array.isArray(steps)) {
      progress[lesson] = steps.filter((s) => typeof s === "string" && STEP_ID.test(s));
    }
  }
  return progress;
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
  progress[lesson] = [...new Set([...(progress[lesson] || []), step])];
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

// One of the texts the build drew for each count (data-gin-texts: a list, by count).
function countText(node, count) {
  const texts = JSON.parse(node.dataset.ginTexts);
  return texts[Math.max(0, Math.min(count, texts.length - 1))];
}

function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

// --- a lesson page ---------------------------------------------------------------------------

class LessonStep {
  constructor(lesson, node) {
    this.lesson = lesson;
    this.node = node;
    this.id = node.dataset.step;
    this.step = JSON.parse(node.dataset.ginStep);
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

  // The answer as the form holds it: the cards picked, the choice, or the number typed.
  answer() {
    const checked = [...this.form.querySelectorAll("input:checked")].map((i) => i.value);
    if (this.form.querySelector("input[type=checkbox]")) return checked.join(" ");
    if (checked.length) return checked[0];
    const number = this.form.querySelector("input.gin-number");
    return number && number.value.trim() ? number.value.trim() : null;
  }

  say(content, state) {
    announce(this.feedback, (feedback) => feedback.replaceChildren(content),
      { busy: state === "checking" });
    this.node.dataset.feedback = state;
  }

  showHint() {
    const next = this.node.querySelector(".gin-lesson-hint[hidden]");
    if (next) {
      next.hidden = false;
      this.node.dataset.hints = String(this.node.querySelectorAll(".gin-lesson-hint:not([hidden])").length);
    } else {
      this.say(paragraph(this.lesson.texts.no_more_hints), "hint");
    }
  }

  async submit() {
    const answer = this.answer();
    if (answer === null) {
      this.say(paragraph(this.lesson.texts.choose_first), "empty");
      return;
    }
    const sequence = ++this.sequence;
    this.say(paragraph(this.lesson.texts.checking), "checking");
    let response;
    try {
      response = await this.lesson.engine.request({ op: "feedback", lang: this.lesson.lang, step: this.step, answer });
    } catch {
      if (sequence === this.sequence) this.say(paragraph(this.lesson.texts.failed), "failed");
      return;
    }
    if (sequence !== this.sequence) return; // a newer answer was given meanwhile
    if (!response.ok) {
      this.say(paragraph(response.error.message), "wrong");
      return;
    }
    const { right, html } = response.result;
    const template = document.createElement("template");
    template.innerHTML = html; // drawn by ginview.steps.feedback
    this.say(template.content, right ? "right" : "wrong");
    if (right) {
      this.solution.open = true;
      markDone(this.lesson.id, this.id);
      this.node.classList.add("gin-lesson-done");
      this.lesson.update();
      this.lesson.after(this);
    }
  }

  reset() {
    this.form.reset();
    this.feedback.replaceChildren();
    delete this.node.dataset.feedback;
    this.solution.open = false;
    this.node.classList.remove("gin-lesson-done");
    for (const hint of this.node.querySelectorAll(".gin-lesson-hint")) hint.hidden = true;
  }
}

class Lesson {
  constructor(node, engine, page) {
    this.node = node;
    this.engine = engine;
    this.texts = page.texts;
    this.lang = page.lang;
    this.id = node.dataset.lesson;
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
    this.engine.ready.then(() => {
      this.node.dataset.ginEngine = "ready";
    }, () => {
      this.node.dataset.ginEngine = "failed";
    });
  }

  update() {
    if (!this.status) return;
    const done = stepsDone(readProgress(), this.id, this.steps.map((s) => s.id));
    const line = this.status.querySelector(".gin-lesson-progress");
    line.textContent = countText(line, done);
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

function renderIndex(node) {
  const progress = readProgress();
  const items = [...node.querySelectorAll("li[data-lesson]")];
  let complete = 0;
  let any = false;
  for (const item of items) {
    const steps = JSON.parse(item.dataset.lessonSteps);
    const done = stepsDone(progress, item.dataset.lesson, steps);
    const badge = item.querySelector(".gin-lesson-badge");
    const state = done === steps.length ? "done" : done > 0 ? "started" : "new";
    if (state === "done") complete += 1;
    any = any || done > 0;
    badge.textContent = countText(badge, done);
    badge.dataset.state = state;
    item.dataset.state = state;
  }
  const total = node.querySelector(".gin-lesson-total");
  total.textContent = countText(total, complete);
  total.dataset.done = String(complete);
  node.querySelector(".gin-lesson-reset-all").hidden = !any;
}

function mountIndex(node) {
  renderIndex(node);
  node.querySelector(".gin-lesson-reset-all").addEventListener("click", () => {
    forget();
    renderIndex(node);
  });
  // Another tab answered a step: show it.
  window.addEventListener("storage", (event) => {
    if (event.key === STORE && node.isConnected) renderIndex(node);
  });
  node.dataset.ginLessonReady = "";
}

export function mountLesson(node, engine, page) {
  if (node.dataset.ginLesson !== undefined) return;
  node.dataset.ginLesson = "";
  if (node.hasAttribute("data-lesson-index")) mountIndex(node);
  else new Lesson(node, engine, page).mount();
}
