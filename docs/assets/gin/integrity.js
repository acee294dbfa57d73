// The check of a runtime file against the Subresource Integrity the build gave it
// ("sha256-<base64>", sitegen/runtime.py's boot_integrity): the engine worker (worker.js)
// imports it, and the build copies it into the service worker (sitegen/offline.py), so both
// check a kept copy the same way before they keep or use it.

const DIGESTS = { sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" };

// The response's body if it matches `integrity`, else null.
export async function intactBytes(response, integrity) {
  const bytes = await response.arrayBuffer();
  const [algorithm, expected] = integrity.trim().split(/-(.*)/s);
  const digest = new Uint8Array(await crypto.subtle.digest(DIGESTS[algorithm], bytes));
  return btoa(String.fromCharCode(...digest)) === expected ? bytes : null;
}

// The response itself, its body unread, if its body matches `integrity` (or there is none to
// check); else null. (The same response, not a copy of its bytes: the browser keeps the code it
// compiled for a script or a module it read from the cache with the cache's entry.)
export async function intact(response, integrity) {
  if (!integrity) return response;
  return (await intactBytes(response.clone(), integrity)) ? response : null;
}
