// The page side of the live examples. Loaded on every page as an ES module (extra_javascript).
//
// - One engine worker (worker.js) per page, shared by every widget, started lazily:
//     * the worker itself (two small files, no Pyodide yet) is created when the page is idle;
//     * Pyodide (about 8 MB) boots only when the reader shows they are here to use an example
//       ([data-gin]: an example or a lesson): they scroll one near the viewport (booting once
//       the page is idle), point at or focus one, press a key, click or touch the page, or
//       arrive with an example's shared state in the URL; or on the first request. A reader who
//       only reads the first screen downloads nothing more: every example is complete as
//       pre-rendered. Pages without examples never download the runtime.
//     * on a return visit, when the runtime is already kept for offline use, Pyodide boots as
//       soon as a page with examples is idle: that costs no download, and the engine is live
//       before the reader acts (see "A runtime kept" below).
// - window.ginEngine = { request(obj) -> Promise<response>,
//                        started: Promise (resolves when the boot begins),
//                        ready: Promise<{ms, sinceTrigger, phases, timeline}> }.
// - Performance marks for measuring (bench/browser.py): "gin-boot" (the boot trigger),
//   "gin-ready" (the engine answered that it booted), "gin-first-answer" (the first response).
// - Widgets are mounted from material's document$ (so instant navigation works), once per node.
// - The site's service worker is registered once the page is idle (see "Offline" below).
// - If WebAssembly or the worker fails, widgets say so in the page's language and the page keeps
//   its pre-rendered content. Nothing is logged as a console error (console.warn at most).

const WORKER_URL = new URL("./worker.js", import.meta.url);
const WIDGETS = "[data-gin]:not(.gin-static-example)"; // a static example is only a drawing

// ---------------------------------------------------------------------------------------------
// The engine: one worker, started lazily, booted on demand.

let worker = null;
let booted = false;
let bootTriggered = 0; // performance.now() when the boot was asked for
let failure = null; // an Error once the engine has failed for good
let nextId = 1;
let answered = false; // a first response arrived (marked once)
const pending = new Map(); // id -> {resolve, reject}
let settleReady, settleStarted;
const ready = new Promise((resolve, reject) => (settleReady = { resolve, reject }));
ready.catch(() => {}); // a failure is shown by the widgets, never left unhandled
const started = new Promise((resolve) => (settleStarted = resolve));

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
      settleReady.resolve({ ms: data.ms, sinceTrigger, phases: data.phases, timeline: data.timeline });
    } else if (data.type === "kept") {
      if (!failure) tellServiceWorker({ type: "runtime" }); // keep the rest, for offline visits
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
  if (booted || failure || !startWorker()) return;
  booted = true;
  bootTriggered = performance.now();
  mark("gin-boot");
  worker.postMessage({ type: "boot" });
  settleStarted();
  stopWatching();
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

window.ginEngine = { request, started, ready };

// When to start. The idle start only creates the worker. Pyodide boots on a sign that the reader
// is here for an example (see the top of this file): an interaction boots it at once; an example
// scrolled near the viewport boots it once the page is idle, so the runtime's megabytes never
// compete with the page's own files.
function whenIdle(fn, timeout = 3000) {
  if ("requestIdleCallback" in window) requestIdleCallback(fn, { timeout });
  else setTimeout(fn, 200);
}
function afterLoad(fn, timeout) {
  if (document.readyState === "complete") whenIdle(fn, timeout);
  else window.addEventListener("load", () => whenIdle(fn, timeout), { once: true });
}
afterLoad(startWorker);

const hasWidgets = () => document.querySelector(WIDGETS) !== null;
const nearViewport = "IntersectionObserver" in window
  ? new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) afterLoad(boot, 1000);
    }, { rootMargin: "300px" })
  : null;

// The first scroll starts watching the examples (the observer reports at once those already
// near); examples mounted later (instant navigation) are watched from mount().
let scrolled = false;
function watch(nodes) {
  if (!nearViewport) afterLoad(boot, 1000);
  else for (const node of nodes) nearViewport.observe(node);
}
function onScroll() {
  const nodes = document.querySelectorAll(WIDGETS);
  if (!nodes.length) return; // nothing to watch on this page
  scrolled = true;
  window.removeEventListener("scroll", onScroll);
  watch(nodes);
}
function onInteraction(event) {
  const onWidget = event.target instanceof Element && event.target.closest(WIDGETS);
  // Pointing at or focusing counts on an example; a key, click, touch or wheel anywhere.
  const pointing = event.type === "pointerover" || event.type === "focusin";
  if (onWidget || (!pointing && hasWidgets())) boot();
}
const INTERACTIONS = ["pointerdown", "keydown", "touchstart", "wheel", "pointerover", "focusin"];
for (const type of INTERACTIONS) {
  document.addEventListener(type, onInteraction, { capture: true, passive: true });
}
window.addEventListener("scroll", onScroll, { passive: true });

// A runtime kept: every file a boot reads (runtime.BOOT_FILES) is in the cache where the
// service worker keeps this build's runtime (named by its digest). Booting then costs no
// download, only the worker's time (under a second) and its memory, so a page with examples
// boots once it is idle, and the reader's first action gets an answer at once. Not when the
// reader asked the browser to save data, nor while the tab is in the background.
async function runtimeKept() {
  if (!("caches" in window)) return false;
  const runtime = await import("./runtime.js");
  if (!runtime.BOOT_FILES || !(await caches.has(runtime.RUNTIME_CACHE))) return false;
  const cache = await caches.open(runtime.RUNTIME_CACHE);
  const dir = new URL(runtime.RUNTIME_DIR, import.meta.url);
  const urls = runtime.BOOT_FILES.map((name) => new URL(name, dir).href);
  return (await Promise.all(urls.map((url) => cache.match(url)))).every(Boolean);
}
function bootIfKept() {
  if (booted || failure || !hasWidgets() || navigator.connection?.saveData) return;
  if (document.visibilityState === "hidden") {
    document.addEventListener("visibilitychange", () => afterLoad(bootIfKept), { once: true });
    return;
  }
  runtimeKept().then((kept) => kept && hasWidgets() && boot(), () => {});
}

function stopWatching() {
  for (const type of INTERACTIONS) document.removeEventListener(type, onInteraction, true);
  window.removeEventListener("scroll", onScroll);
  if (nearViewport) nearViewport.disconnect();
}

// ---------------------------------------------------------------------------------------------
// Widgets. Each mount runs once per node (data-gin-mounted), however often document$ fires.

// What the page's script says before the engine answers, and the card picker: drawn by the
// build in the page's language (ginview.page), never written here.
export function pageTexts() {
  const node = document.querySelector(".gin-page[data-gin-texts]");
  const texts = node ? JSON.parse(node.dataset.ginTexts) : {};
  const picker = node && node.querySelector("template.gin-picker-template");
  return { texts, picker, lang: document.documentElement.lang || "en" };
}

function mount() {
  const page = pageTexts();
  let index = 0;
  for (const node of document.querySelectorAll(WIDGETS)) {
    const example = node.classList.contains("gin-example");
    if (example) index += 1;
    if (node.dataset.ginMounted !== undefined) continue;
    node.dataset.ginMounted = "";
    if (scrolled && !booted) watch([node]);
    if (example) mountExample(node, index, page);
    else if (node.classList.contains("gin-play")) mountPlay(node, page);
  }
  // A shared link: its examples' state is in the URL (#gin-N=...), to be shown at once.
  if (/(^#|&)gin-\d+=/.test(location.hash) && hasWidgets()) boot();
  else if (!booted && hasWidgets()) afterLoad(bootIfKept);
  // Lessons and the lessons index (sitegen/lessons.py): lessons.js makes them live.
  for (const node of document.querySelectorAll(".gin-lesson:not([data-gin-lesson])")) {
    import("./lessons.js")
      .then(({ mountLesson }) => mountLesson(node, window.ginEngine, page))
      .catch((err) => console.warn(`gin: the lesson could not be made live: ${err && err.message}`));
  }
}

// A pre-drawn example (ginview.examples) becomes live; examples.js loads only on pages that
// have one. Until the engine answers, the drawn result stays as it is.
function mountExample(node, index, page) {
  import("./examples.js")
    .then(({ LiveExample }) => new LiveExample(node, index, window.ginEngine, page).mount())
    .catch((err) => console.warn(`gin: the example could not be made live: ${err && err.message}`));
}

// The play page's game (ginview.play): play.js makes it live; the engine boots at once.
function mountPlay(node, page) {
  import("./play.js")
    .then(({ mountPlay: mount }) => mount(node, window.ginEngine, page))
    .catch((err) => console.warn(`gin: the game could not be made live: ${err && err.message}`));
}

// The language switcher is part of the header, which instant navigation keeps: after moving to
// another page its links would still point at the first page. Point them at this page in each
// language (each language's home is a top folder of the site, the default one at the root),
// with the fragment: the anchor and the examples' state go along.
const SITE_ROOT = new URL("../../", import.meta.url); // gin.js is <root>/assets/gin/gin.js

function updateLanguageLinks() {
  if (!location.href.startsWith(SITE_ROOT.href)) return;
  const links = [...document.querySelectorAll(".md-select__link[hreflang]")];
  const codes = links.map((link) => link.getAttribute("hreflang"));
  const path = location.pathname.slice(SITE_ROOT.pathname.length);
  const first = path.split("/")[0];
  const page = codes.includes(first) ? path.slice(first.length + 1) : path;
  for (const link of links) {
    const lang = link.getAttribute("hreflang");
    const prefix = new URL(link.href).pathname.slice(SITE_ROOT.pathname.length).split("/")[0];
    const home = codes.includes(prefix) && prefix === lang ? `${lang}/` : "";
    link.href = new URL(home + page + location.hash, SITE_ROOT).href;
  }
}
// ---------------------------------------------------------------------------------------------
// Offline: the site's service worker (sw.js at the site's root: sitegen/offline.py, sitegen/sw.js),
// registered once the page is idle, keeps this language's pages at the reader's first action
// (so a reader who only reads the first screen downloads nothing more, as with material's script)
// and the engine's runtime once it has booted; then they work with the network off, and the
// engine boots without it.

const OFFLINE = "serviceWorker" in navigator && window.isSecureContext;

// What the page asked of the service worker, by type. A new build's service worker may take
// over the page after the old one was asked (an update found on this visit): it is asked again,
// so the new build's shell and runtime are kept on this visit, not the next.
const told = new Map();

function tellServiceWorker(message) {
  if (!OFFLINE) return;
  told.set(message.type, message);
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage(message));
}

if (OFFLINE) {
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    for (const message of told.values()) navigator.serviceWorker.controller?.postMessage(message);
  });
}

const SHELL_TRIGGERS = [...INTERACTIONS, "scroll"];

// On a page with live examples the shell is asked for once the engine has booted (or failed),
// or after SHELL_WAIT_MS if it is not booted by then: its pages would otherwise be downloaded
// while the reader waits for the engine, and slow it (a cold boot took 1.5 s, not 0.9 s, on
// loopback).
const SHELL_WAIT_MS = 10000;

function keepShell() {
  for (const type of SHELL_TRIGGERS) window.removeEventListener(type, keepShell, true);
  const keep = () => tellServiceWorker({ type: "shell", lang: document.documentElement.lang });
  if (!hasWidgets()) keep();
  else Promise.race([ready, new Promise((resolve) => setTimeout(resolve, SHELL_WAIT_MS))])
    .then(keep, keep);
}

if (OFFLINE) {
  afterLoad(() => {
    navigator.serviceWorker.register(new URL("sw.js", SITE_ROOT))
      .catch((err) => console.warn(`gin: the site cannot be kept for offline use: ${err && err.message}`));
  });
  for (const type of SHELL_TRIGGERS) {
    window.addEventListener(type, keepShell, { capture: true, passive: true });
  }
}

window.addEventListener("gin:fragment", updateLanguageLinks);
window.addEventListener("hashchange", updateLanguageLinks);

// Material makes the search results' scroll area a tab stop even while it is empty and unseen,
// so focus would vanish into it; the results are links, reached by Tab and the arrow keys.
for (const wrap of document.querySelectorAll(".md-search__scrollwrap")) wrap.tabIndex = -1;

// material's document$ emits on the first load and after every instant navigation.
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => {
    updateLanguageLinks();
    mount();
  });
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => {
    mount();
    updateLanguageLinks();
  }, { once: true });
} else {
  mount();
  updateLanguageLinks();
}
