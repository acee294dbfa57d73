// The page side of the live examples. Loaded on every page as an ES module (extra_javascript).
//
// - One engine worker (worker.js) per page, shared by every widget, started lazily:
//     * the worker itself (two small files, no Pyodide yet) is created when the page is idle;
//     * Pyodide boots when an example ([data-gin]: an example or a lesson) comes near the viewport (once
//       the page has loaded and gone idle), on the reader's first interaction with a page that
//       has examples, or on the first request, whichever comes first. Pages without examples
//       never download the runtime.
// - window.ginEngine = { request(obj) -> Promise<response>,
//                        ready: Promise<{ms, sinceTrigger, phases}> }.
// - Performance marks for measuring (bench/browser.py): "gin-boot" (the boot trigger),
//   "gin-ready" (the engine answered that it booted), "gin-first-answer" (the first response).
// - Widgets are mounted from material's document$ (so instant navigation works), once per node.
// - If WebAssembly or the worker fails, widgets say so in the page's language and the page keeps
//   its pre-rendered content. Nothing is logged as a console error (console.warn at most).

const WORKER_URL = new URL("./worker.js", import.meta.url);
const WIDGETS = "[data-gin]";

// ---------------------------------------------------------------------------------------------
// The engine: one worker, started lazily, booted on demand.

let worker = null;
let booted = false;
let bootTriggered = 0; // performance.now() when the boot was asked for
let failure = null; // an Error once the engine has failed for good
let nextId = 1;
let answered = false; // a first response arrived (marked once)
const pending = new Map(); // id -> {resolve, reject}
let settleReady;
const ready = new Promise((resolve, reject) => (settleReady = { resolve, reject }));
ready.catch(() => {}); // a failure is shown by the widgets, never left unhandled

function fail(message) {
  if (failure) return;
  failure = new Error(message);
  console.warn(`gin: ${message}`);
  settleReady.reject(failure);
  for (const { reject } of pending.values()) reject(failure);
  pending.clear();
  if (worker) worker.terminate();
}

function startWorker() {
  if (worker || failure) return worker;
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    fail("WebAssembly or Web Workers are not available");
    return null;
  }
  try {
    worker = new Worker(WORKER_URL, { type: "module" });
  } catch (err) {
    fail(`the engine worker could not start: ${err && err.message}`);
    return null;
  }
  worker.onmessage = ({ data }) => {
    if (data.type === "ready") {
      // ms: the boot inside the worker; sinceTrigger: from the boot trigger, worker start included.
      const sinceTrigger = Math.round(performance.now() - bootTriggered);
      mark("gin-ready");
      settleReady.resolve({ ms: data.ms, sinceTrigger, phases: data.phases });
    } else if (data.type === "error") fail(data.message);
    else if (pending.has(data.id)) {
      if (!answered) answered = mark("gin-first-answer");
      const { resolve, reject } = pending.get(data.id);
      pending.delete(data.id);
      if ("error" in data) reject(new Error(data.error));
      else resolve(data.response);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault(); // handled here: do not report it as an uncaught error
    fail(`the engine worker failed: ${event.message || "it could not be loaded"}`);
  };
  return worker;
}

function boot() {
  if (booted || !startWorker()) return;
  booted = true;
  bootTriggered = performance.now();
  mark("gin-boot");
  worker.postMessage({ type: "boot" });
}

function mark(name) {
  if (performance.mark) performance.mark(name);
  return true;
}

function request(obj) {
  if (!failure) boot();
  if (failure) return Promise.reject(failure);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, request: obj });
  });
}

window.ginEngine = { request, ready };

// When to start. The idle start only creates the worker; nearing the viewport or an interaction
// boots Pyodide as well. An example near the viewport boots it once the page has loaded and gone
// idle, so the runtime's megabytes never compete with the page's own files and first paint (the
// pre-rendered example is complete meanwhile); an interaction or a request boots it at once.
function whenIdle(fn, timeout = 3000) {
  if ("requestIdleCallback" in window) requestIdleCallback(fn, { timeout });
  else setTimeout(fn, 200);
}
function afterLoad(fn, timeout) {
  if (document.readyState === "complete") whenIdle(fn, timeout);
  else window.addEventListener("load", () => whenIdle(fn, timeout), { once: true });
}
afterLoad(startWorker);

const nearViewport = "IntersectionObserver" in window
  ? new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        nearViewport.disconnect();
        afterLoad(boot, 1000);
      }
    }, { rootMargin: "300px" })
  : null;

function onFirstInteraction() {
  if (document.querySelector(WIDGETS)) {
    boot();
    for (const type of ["pointerdown", "keydown", "touchstart"]) {
      document.removeEventListener(type, onFirstInteraction, true);
    }
  }
}
for (const type of ["pointerdown", "keydown", "touchstart"]) {
  document.addEventListener(type, onFirstInteraction, { capture: true, passive: true });
}

// ---------------------------------------------------------------------------------------------
// Widgets. Each mount runs once per node (data-gin-mounted), however often document$ fires.

function mount() {
  for (const node of document.querySelectorAll(WIDGETS)) {
    if (node.dataset.ginMounted !== undefined) continue;
    node.dataset.ginMounted = "";
    if (!booted) {
      if (nearViewport) nearViewport.observe(node);
      else afterLoad(boot, 1000); // no IntersectionObserver: boot once the page is idle
    }
    if (node.classList.contains("gin-example")) mountExample(node);
  }
  // Lessons and the lessons index (sitegen/tutorials.py): lessons.js makes them live.
  for (const node of document.querySelectorAll(".gin-lesson:not([data-gin-lesson])")) import("./lessons.js").then(({ mountLesson }) => mountLesson(node, window.ginEngine)).catch((err) => console.warn(`gin: the lesson could not be made live: ${err && err.message}`));
}

// A pre-rendered example (sitegen/examples.py) becomes live; examples.js loads only on pages
// that have one. Until the engine answers, the worked result stays as it is.
function mountExample(node) {
  const index = [...document.querySelectorAll(".gin-example")].indexOf(node) + 1;
  import("./examples.js")
    .then(({ LiveExample }) => new LiveExample(node, index, window.ginEngine).mount())
    .catch((err) => console.warn(`gin: the example could not be made live: ${err && err.message}`));
}

// The language switcher is part of the header, which instant navigation keeps: after moving to
// another page its links would still point at the first page. Point them at this page in each
// language (English at the site root, the others under /ro/, /hu/, /it/).
const SITE_ROOT = new URL("../../", import.meta.url); // gin.js is <root>/assets/gin/gin.js

function updateLanguageLinks() {
  if (!location.href.startsWith(SITE_ROOT.href)) return;
  const page = location.pathname.slice(SITE_ROOT.pathname.length).replace(/^(ro|hu|it)\//, "");
  for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
    const lang = link.getAttribute("hreflang");
    link.href = new URL((lang === "en" ? "" : `${lang}/`) + page, SITE_ROOT).href;
  }
}

// material's document$ emits on the first load and after every instant navigation.
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => {
    mount();
    updateLanguageLinks();
  });
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mount, { once: true });
} else {
  mount();
}
