// The engine's memory snapshot as the site ships it: Pyodide's snapshot (a header, then the whole
// 30 MB of WebAssembly memory) without its all-zero pages, which are more than half of it. The
// browser has less to inflate, check and copy; expanding it again is one copy of the rest.
//
// Made by sitegen/in_pyodide.mjs (sparseSnapshot), read by worker.js (expandSnapshot).
// Layout, little-endian uint32s: MAGIC, the full size, the page size, the number N of pages
// kept, their N page numbers in order; then those N pages (the last page may be short).

const MAGIC = 0x31505347; // "GSP1"
const PAGE = 65536;

export function sparseSnapshot(bytes) {
  const kept = [];
  for (let start = 0; start < bytes.length; start += PAGE) {
    if (bytes.subarray(start, start + PAGE).some((b) => b !== 0)) kept.push(start / PAGE);
  }
  const head = new Uint32Array([MAGIC, bytes.length, PAGE, kept.length, ...kept]);
  const pageBytes = kept.reduce((sum, n) => sum + Math.min(PAGE, bytes.length - n * PAGE), 0);
  const out = new Uint8Array(head.byteLength + pageBytes);
  out.set(new Uint8Array(head.buffer));
  let at = head.byteLength;
  for (const n of kept) {
    const page = bytes.subarray(n * PAGE, n * PAGE + PAGE);
    out.set(page, at);
    at += page.length;
  }
  return out;
}

export function expandSnapshot(buffer) {
  const bytes = new Uint8Array(buffer);
  const [magic, size, page, count] = new Uint32Array(buffer, 0, 4);
  if (magic !== MAGIC) throw new Error("the engine snapshot is not in the site's format");
  const pages = new Uint32Array(buffer, 16, count);
  const full = new Uint8Array(size);
  let at = 16 + 4 * count;
  for (const n of pages) {
    const length = Math.min(page, size - n * page);
    full.set(bytes.subarray(at, at + length), n * page);
    at += length;
  }
  if (at !== bytes.length) throw new Error("the engine snapshot is truncated or damaged");
  return full;
}
