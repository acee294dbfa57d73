// The logic of the site's service worker (the build writes sw.js at the site's root: BUILD,
// COMMON, SHELL, RUNTIME, INTEGRITY, RUNTIME_CACHE and DIRECT_HEADER, then
// docs/assets/gin/integrity.js (intact), then this file; sitegen/offline.py).
//
// - Pages ask (gin.js, by message) for their language's shell: {type: "shell", lang}. It is
//   cached at once, in the cache "gin-<BUILD>-shell-<lang>": COMMON and SHELL[lang].
// - The runtime's files (RUNTIME, in the folder named by their digest) are kept in
//   RUNTIME_CACHE, named by that folder: the engine worker puts there what it downloads as it
//   boots (marked with DIRECT_HEADER: those downloads are left to the network, not passed
//   through here), and after the first boot the page asks for the rest: {type: "runtime"}.
// - Requests for the runtime's files are answered from that cache first (the engine worker
//   also reads it itself): a second visit boots the engine without the network. Each copy is
//   checked against its INTEGRITY before it is kept and when it is read: a damaged one (a
//   truncated file, a disk error) is dropped and fetched again, never kept or used.
// - Everything else goes to the network first, and comes from this build's caches when the
//   network fails (offline), so an online reader always gets the site as it is now. Offline,
//   a page is found whatever its query (search results link to `page/?h=word`).
// - A new build has another BUILD: its worker replaces this one at once, and deletes every
//   cache of another build (a runtime's too, unless the new build has the same runtime), so a
//   page never runs against files of another build. Its pages ask again for their shell, and
//   for their runtime once the engine has booted.
// Nothing is fetched from another origin: only the site's own files, by their URLs.
/* global BUILD, COMMON, SHELL, RUNTIME, INTEGRITY, RUNTIME_CACHE, DIRECT_HEADER -- written by the build */
/* global intact -- docs/assets/gin/integrity.js, put in front of this file by the build */

const PREFIX = "gin-";
const OURS = `${PREFIX}${BUILD}-`;
const SHELL_CACHE = (lang) => `${OURS}shell-${lang}`;
const absolute = (path) => new URL(path, self.location).href;
const RUNTIME_URLS = new Set(RUNTIME.map(absolute));
const INTEGRITY_OF = new Map(Object.entries(INTEGRITY).map(([path, sri]) => [absolute(path), sri]));

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      const current = name.startsWith(OURS) || name === RUNTIME_CACHE;
      if (name.startsWith(PREFIX) && !current) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const { type, lang } = event.data || {};
  if (type === "shell" && Object.hasOwn(SHELL, lang)) {
    event.waitUntil(keep(SHELL_CACHE(lang), [...COMMON, ...SHELL[lang]]));
  } else if (type === "runtime" && RUNTIME_CACHE) {
    event.waitUntil(keep(RUNTIME_CACHE, RUNTIME));
  }
});

// Put in the cache `name` every file of `paths` it does not hold yet.
async function keep(name, paths) {
  const cache = await caches.open(name);
  const held = new Set((await cache.keys()).map((request) => request.url));
  await Promise.all(paths.map(absolute).filter((url) => !held.has(url)).map(async (url) => {
    try {
      const response = await fetch(url);
      const good = response.ok && !response.redirected && (await intact(response, INTEGRITY_OF.get(url)));
      if (good) await cache.put(url, good);
    } catch {
      // offline or gone: asked again on the next page
    }
  }));
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  const url = request.url.split("#")[0];
  // the engine worker's own downloads of a runtime not kept yet (docs/assets/gin/worker.js)
  if (RUNTIME_URLS.has(url) && request.headers.has(DIRECT_HEADER)) return;
  event.respondWith(RUNTIME_URLS.has(url) ? runtimeFirst(event, url) : networkFirst(request));
});

async function runtimeFirst(event, url) {
  const cache = await caches.open(RUNTIME_CACHE);
  const cached = await cache.match(url);
  const good = cached && (await intact(cached, INTEGRITY_OF.get(url)));
  if (good) return good;
  if (cached) await cache.delete(url); // damaged: dropped, and fetched again below
  const response = await fetch(event.request);
  if (response.ok && !response.redirected) {
    event.waitUntil(intact(response.clone(), INTEGRITY_OF.get(url)).then((copy) => copy && cache.put(url, copy)));
  }
  return response;
}

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (err) {
    for (const name of await caches.keys()) {
      if (!name.startsWith(OURS)) continue;
      const cache = await caches.open(name);
      const cached = await cache.match(request, { ignoreVary: true, ignoreSearch: true });
      if (cached) return cached;
    }
    throw err;
  }
}
