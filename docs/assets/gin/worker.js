// The engine worker: a module Web Worker that runs the gin rummy engine (`ginrummy`) and the
// site's presentation layer (`ginview`) on Pyodide, so nothing heavy ever runs on the page's
// main thread. It answers "draw this example", "apply this edit", "judge this answer": the
// same Python that drew the page at build time draws it again here.
//
// gin.js starts one of these per page. It boots only when asked: on a {type: "boot"} message or
// on the first request. Booting loads Pyodide from the site's own copy (RUNTIME_DIR, written by
// the build into runtime.js) and restores the engine's memory snapshot (SNAPSHOT_FILE): a
// Python that has already imported and warmed up the engine, checked against
// its INTEGRITY. Without a snapshot it starts Python and loads the wheels (PACKAGES) by
// name, so the sha256 in the site's pyodide-lock.json is checked.
//
// Messages in:   {type: "boot"}            start booting now (answers nothing by itself)
//                {id, request}             request: a JSON-able object for ginview.api.handle
// Messages out:  {type: "ready", ms, phases, timeline}
//                                          booted; ms = time from the boot message;
//                                          phases = ms spent in each step, timeline = when each
//                                          step ended, in ms since the epoch (for the benchmark)
//                {type: "error", message}  the boot failed; every pending and later request fails
//                {type: "kept"}            after the boot, the runtime files it downloaded are
//                                          in the offline cache (the page then asks the
//                                          service worker to keep the rest)
//                {id, response}            response: the parsed JSON answer of handle()
//                {id, error}               this request failed (boot failure or a Python exception)

import * as runtime from "./runtime.js";
import { expandSnapshot } from "./snapshot.js";
import { intact, intactBytes } from "./integrity.js";

// RUNTIME_DIR is relative to runtime.js, which sits beside this file.
const RUNTIME_URL = new URL(runtime.RUNTIME_DIR, new URL("./runtime.js", import.meta.url)).href;
// The standard library: with the snapshot, none (an empty zip: the snapshot holds every module
// the engine imports); else (if the build provides one) the whole library precompiled to .pyc.
const STDLIB_FILE = runtime.SNAPSHOT_FILE ? runtime.SNAPSHOT_STDLIB_FILE : runtime.STDLIB_FILE;
const STDLIB_URL = STDLIB_FILE ? new URL(STDLIB_FILE, RUNTIME_URL).href : undefined;
// A last resort only: the fetch watch below catches the failures we know of at once.
const BOOT_TIMEOUT_MS = 60000;

let booting = null; // Promise of the proxy to ginview.api.handle, once a boot has started

// When each step of a boot ended (ms since the epoch, so that the page can set them against its
// own marks): the benchmark's timeline of a first and a second visit (bench/browser.py).
const timeline = { "worker created": Math.round(performance.timeOrigin) };
const stamp = (name) => {
  timeline[name] ??= Math.round(performance.timeOrigin + performance.now());
};
const note = (name) => (value) => { // stamp(name) once the promise it follows is settled
  stamp(name);
  return value;
};

function boot() {
  if (!booting) {
    // (The watch first: it wraps fetch, which loadEngine calls at once.)
    booting = Promise.race([watchRuntimeFetches(), loadEngine(), timeout(BOOT_TIMEOUT_MS)])
      .finally(restoreFetch);
    booting.then(
      () => {},
      (err) => postMessage({ type: "error", message: describe(err) }),
    );
  }
  return booting;
}

async function loadEngine() {
  const started = performance.now();
  const phases = {};
  let last = started;
  stamp("boot asked");
  const phase = (name) => {
    const now = performance.now();
    phases[name] = Math.round(now - last);
    last = now;
    stamp(name);
  };
  // When the steps that overlap were done, in ms from the start ("@wasm read", …): the benchmark
  // shows where a boot's time goes.
  const at = (name) => (value) => {
    phases[`@${name}`] ??= Math.round(performance.now() - started);
    stamp(name);
    return value;
  };
  instantiated = at("instantiated");
  if (typeof WebAssembly !== "object") throw new Error("WebAssembly is not available");
  // The snapshot and the WebAssembly module are the biggest downloads, and loadPyodide waits for
  // the snapshot, which is expanded with the module's data: ask for both first. The module is
  // read once, and compiled as it is read, while the snapshot is read (loadPyodide would compile
  // it only once it has the snapshot): its own request for the module gets a stand-in, and its
  // instantiation this compiled module (the watch below).
  let snapshot;
  if (runtime.SNAPSHOT_FILE) {
    const wasm = loadWasm();
    const wasmBytes = wasm.then(({ bytes }) => bytes).then(at("wasm read"));
    compiled = wasm.then(({ module }) => module).then(at("wasm compiled"));
    compiled.catch((err) => failBoot(err));
    snapshot = Promise.all([
      readSnapshot().then(at("snapshot read")),
      wasmBytes,
    ]).then(([shipped, module]) => expandSnapshot(shipped, module)).then(at("snapshot expanded"));
  }
  snapshot?.catch(() => {}); // a failure is reported by loadPyodide, which awaits it
  const { loadPyodide } = await import(RUNTIME_URL + "pyodide.mjs");
  phase("pyodide.mjs imported");
  // Pyodide's big script, imported when loadPyodide would import it (for the timeline: when the
  // module's runtime has started, and when the snapshot is restored).
  const script = import(RUNTIME_URL + "pyodide.asm.mjs");
  script.then(note("pyodide.asm.mjs imported"), () => {});
  const pyodide = await loadPyodide({
    _loadSnapshot: snapshot,
    createPyodideModule: (settings) => startModule(settings, script),
    indexURL: RUNTIME_URL, // the lock file and the wheels are looked up here too
    stdLibURL: STDLIB_URL,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  });
  phase("loadPyodide"); // its last step: Python's start on the restored memory
  if (!snapshot) {
    await pyodide.loadPackage(runtime.PACKAGES, {
      messageCallback: () => {},
      errorCallback: (message) => console.warn(message),
      checkIntegrity: true,
    });
    phase("loadPackage");
  }
  // Keep a proxy to handle(): a call through it costs about 0.5 µs, a runPython string about 95 µs.
  // (The module proxy is kept alive for the worker's lifetime: handle is borrowed from it.)
  const api = pyodide.pyimport(runtime.API_MODULE);
  const handle = api.handle;
  phase("import engine");
  postMessage({ type: "ready", ms: Math.round(performance.now() - started), phases, timeline });
  return handle;
}

// Pyodide does not reject when its .wasm (or another runtime file) fails to download: it logs a
// warning and waits forever. So while booting, this worker's fetches are watched, and a failed
// one fails the boot at once. Only this worker's global fetch is wrapped, only during the boot;
// so is WebAssembly.instantiateStreaming, to hand loadPyodide the module compiled above.
const realFetch = globalThis.fetch;
const realInstantiate = WebAssembly.instantiateStreaming;
const WASM_URL = new URL("pyodide.asm.wasm", RUNTIME_URL).href;
const SNAPSHOT_URL = runtime.SNAPSHOT_FILE && new URL(runtime.SNAPSHOT_FILE, RUNTIME_URL).href;
let compiled = null; // Promise of the compiled module, until loadPyodide instantiates it
let instantiated = (instance) => instance; // notes the time (loadEngine's timeline)
const STAND_IN = new Response(null); // what loadPyodide gets when it asks for the module
let failBoot = () => {};
function watchRuntimeFetches() {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    stamp("instantiation asked"); // (by pyodide.asm.mjs, once loaded and the snapshot in hand)
    const response = await source;
    if (response !== STAND_IN) return realInstantiate(response, imports);
    const module = await compiled;
    return { module, instance: instantiated(await WebAssembly.instantiate(module, imports)) };
  };
  return new Promise((_, reject) => {
    failBoot = reject;
    globalThis.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      let response;
      try {
        response = url === WASM_URL && compiled ? STAND_IN : await runtimeFetch(url, input, init);
      } catch (err) {
        // A response that fails its integrity check fails the same way, as "Failed to fetch".
        const check = init && init.integrity ? " (or it failed its integrity check)" : "";
        reject(new Error(`could not fetch ${url}${check}: ${describe(err)}`));
        throw err;
      }
      if (!response.ok) reject(new Error(`could not fetch ${url}: HTTP ${response.status}`));
      return response;
    };
  });
}
function restoreFetch() {
  globalThis.fetch = realFetch;
  WebAssembly.instantiateStreaming = realInstantiate;
  const puts = toKeep.map(async ([url, response]) => {
    const good = await intact(response, integrityOf(url)).catch(() => null);
    const cache = good && globalThis.caches && runtime.RUNTIME_CACHE;
    if (cache) await caches.open(cache).then((kept) => kept.put(url, good)).catch(() => {});
  });
  toKeep = [];
  Promise.all(puts).then(() => postMessage({ type: "kept" }));
}

// The runtime's files, during the boot: from the cache where the site's service worker keeps
// this runtime (runtime.RUNTIME_CACHE, named by its digest), read here without a trip through
// the service worker (the trip cost a second visit about 200 ms), each copy checked against
// its integrity (runtime.INTEGRITY) as the browser would: a damaged copy (a truncated file, a
// disk error) is dropped and fetched again, so it never stops the engine for good. Else from
// the network (download). Anything else as usual.
let toKeep = []; // [url, response]: put in the cache once the engine has booted, if intact
async function runtimeFetch(url, input, init) {
  if (!url.startsWith(RUNTIME_URL)) return realFetch(input, init);
  const kept = await keptCopy(url);
  const good = kept && (await intact(kept, integrityOf(url)));
  if (good) return good;
  if (kept) await dropKept(url);
  return download(url, init);
}

// A runtime file from the network, marked (runtime.DIRECT_HEADER) so that the service worker
// lets it pass (passing 20 MB through it slowed a first boot by a quarter), and kept once the
// boot is over.
async function download(url, init) {
  const headers = new Headers(init && init.headers);
  headers.set(runtime.DIRECT_HEADER, "1");
  const response = await realFetch(url, { ...init, headers });
  if (response.ok && !response.redirected) toKeep.push([url, response.clone()]);
  return response;
}

// The copy of a runtime file kept in the cache (unchecked), if there is one.
async function keptCopy(url) {
  if (!globalThis.caches || !runtime.RUNTIME_CACHE) return undefined;
  return caches.open(runtime.RUNTIME_CACHE).then((cache) => cache.match(url), () => undefined);
}

async function dropKept(url) {
  console.warn(`gin engine worker: the kept ${url} is damaged: fetched again`);
  await caches.open(runtime.RUNTIME_CACHE).then((cache) => cache.delete(url), () => {});
}

// The WebAssembly module, compiled as it is read, and its bytes (the snapshot is expanded with
// its data segments). A kept copy is compiled straight from the cache (so that the browser may
// use the code it keeps for a module it compiled before), while it is checked against its
// integrity: a damaged copy is dropped, and the module fetched again. A downloaded module is
// compiled as it arrives; from its bytes if the host sends it under another type than
// application/wasm (it cannot be streamed then).
async function loadWasm() {
  const kept = await keptCopy(WASM_URL);
  if (kept) {
    const module = WebAssembly.compileStreaming(kept.clone()).then(note("wasm compiled"), () => null);
    const bytes = await intactBytes(kept, integrityOf(WASM_URL)).then(note("wasm checked"), () => null);
    if (bytes && (await module)) return { module: await module, bytes };
    await dropKept(WASM_URL);
  }
  const failed = (what) => (err) => {
    throw new Error(`could not ${what} ${WASM_URL}: ${describe(err)}`);
  };
  const response = await download(WASM_URL).catch(failed("fetch"));
  if (!response.ok) failed("fetch")(`HTTP ${response.status}`);
  const bytes = response.clone().arrayBuffer().catch(failed("fetch"));
  const module = await WebAssembly.compileStreaming(response)
    .catch(async () => WebAssembly.compile(await bytes))
    .catch(failed("compile"));
  return { module, bytes: await bytes };
}

// Pyodide's module, made by pyodide.asm.mjs's factory (instantiated, its runtime started) as
// loadPyodide would make it; only the timeline notes when it is made and when the snapshot is
// restored into its memory.
async function startModule(settings, script) {
  const module = await (await script).default(settings);
  stamp("module started");
  const restore = module.API.restoreSnapshot;
  module.API.restoreSnapshot = (...args) => note("snapshot restored")(restore(...args));
  return module;
}

// The shipped snapshot's bytes: a kept copy is read once, and checked against its integrity (a
// damaged one is dropped); else downloaded, checked by the browser.
async function readSnapshot() {
  const kept = await keptCopy(SNAPSHOT_URL);
  const bytes = kept && (await intactBytes(kept, integrityOf(SNAPSHOT_URL)).catch(() => null));
  if (bytes) return bytes;
  if (kept) await dropKept(SNAPSHOT_URL);
  const response = await fetch(SNAPSHOT_URL, { integrity: integrityOf(SNAPSHOT_URL) });
  return response.arrayBuffer();
}

// The integrity the build gave a runtime file (undefined for a file it gave none).
function integrityOf(url) {
  return runtime.INTEGRITY && runtime.INTEGRITY[url.slice(RUNTIME_URL.length)];
}

// After a failed download Pyodide may also leave promises of its own rejected and unhandled,
// sometimes after the boot has already failed. They are part of that failure, which is reported
// through messages: handle them here so they are not uncaught errors of the page.
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  console.warn(`gin engine worker: ${describe(event.reason)}`);
  failBoot(new Error(describe(event.reason)));
});

function timeout(ms) {
  return new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`the engine did not boot within ${ms / 1000} s`)), ms));
}

function describe(err) {
  return String((err && err.message) || err);
}

stamp("worker started");

self.onmessage = async (event) => {
  const data = event.data || {};
  if (data.type === "boot") {
    boot().catch(() => {}); // the failure is reported once, by boot()
    return;
  }
  const { id, request } = data;
  let handle;
  try {
    handle = await boot();
  } catch (err) {
    postMessage({ id, error: `the engine could not load: ${describe(err)}` });
    return;
  }
  try {
    postMessage({ id, response: JSON.parse(handle(JSON.stringify(request))) });
  } catch (err) {
    postMessage({ id, error: describe(err) });
  }
};
