// The engine's memory snapshot as the site ships it: Pyodide's snapshot (a header, then the whole
// 30 MB of WebAssembly memory) without the pages the browser can make by itself: the pages that
// are still as the WebAssembly module starts them (all zero, or as its data segments fill them:
// those bytes are in pyodide.asm.wasm, which the browser downloads anyway). That is more than
// two thirds of it: the browser has less to download, inflate, check and copy.
//
// A page kept that the data segments fill is shipped as its difference from them (its bytes
// XOR the module's): Python changes only a few bytes of each (a type's slots, a counter), so
// the page is almost all zero: its Brotli copy is a fifth of the page's (about 100 KB less).
//
// Made by sitegen/in_pyodide.mjs (sparseSnapshot), read by worker.js (expandSnapshot).
// Layout, little-endian uint32s: MAGIC, the full size, the page size, the number N of pages
// kept, BASE (where the module's memory starts in the snapshot, NO_BASE if the pages left out
// are all zero), their N page numbers in order; then those N pages (the last may be short),
// each XOR the module's start (the same bytes where the module starts a page at zero).

const MAGIC = 0x33505347; // "GSP3"
const PAGE = 65536;
const NO_BASE = 0xffffffff;
const HEAD = 20;

// The module's memory as it starts: pyodide.asm.wasm's active data segments (each an i32.const
// offset), written at `at` into `into`. Returns {into, dataEnd}: dataEnd is where the last
// segment ends (from the memory's start). Throws on a module it cannot read.
export function applyDataSegments(wasm, into, at) {
  const bytes = new Uint8Array(wasm);
  let i = 8, dataEnd = 0;
  const leb = (signed = false) => {
    let result = 0, shift = 0, byte;
    do {
      byte = bytes[i++];
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return signed && byte & 0x40 ? result - 2 ** shift : result;
  };
  const fail = (why) => { throw new Error(`pyodide.asm.wasm cannot be read: ${why}`); };
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) fail("not WebAssembly");
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    if (id !== 11) {
      i += size;
      continue;
    }
    for (let count = leb(); count > 0; count--) {
      if (leb() !== 0 || bytes[i++] !== 0x41) fail("a data segment that is not active at a constant offset");
      const offset = leb(true);
      if (bytes[i++] !== 0x0b) fail("a data segment's offset is not a constant");
      const length = leb();
      into.set(bytes.subarray(i, i + length), at + offset);
      dataEnd = Math.max(dataEnd, offset + length);
      i += length;
    }
    return { into, dataEnd };
  }
  return fail("no data section");
}

// bytes: Pyodide's snapshot; wasm (optional): pyodide.asm.wasm, whose memory starts at the
// offset the snapshot's header gives (its second uint32).
export function sparseSnapshot(bytes, wasm) {
  const base = wasm ? new Uint32Array(bytes.buffer, bytes.byteOffset, 2)[1] : NO_BASE;
  const start = wasm ? applyDataSegments(wasm, new Uint8Array(bytes.length), base).into : null;
  const kept = [];
  for (let at = 0; at < bytes.length; at += PAGE) {
    const page = bytes.subarray(at, at + PAGE);
    const was = start ? start.subarray(at, at + PAGE) : null;
    if (page.some((b, k) => b !== (was ? was[k] : 0))) kept.push(at / PAGE);
  }
  const head = new Uint32Array([MAGIC, bytes.length, PAGE, kept.length, base, ...kept]);
  const pageBytes = kept.reduce((sum, n) => sum + Math.min(PAGE, bytes.length - n * PAGE), 0);
  const out = new Uint8Array(head.byteLength + pageBytes);
  out.set(new Uint8Array(head.buffer));
  let at = head.byteLength;
  for (const n of kept) {
    const page = bytes.subarray(n * PAGE, n * PAGE + PAGE);
    out.set(page, at);
    if (start) xorInto(out.subarray(at, at + page.length), start.subarray(n * PAGE, n * PAGE + PAGE));
    at += page.length;
  }
  return out;
}

// into ^= other (Uint8Arrays of one length): four bytes at a time where both lie at a multiple
// of 4 (a whole page always does), else byte by byte.
function xorInto(into, other) {
  let k = 0;
  if (into.byteOffset % 4 === 0 && other.byteOffset % 4 === 0) {
    const words = into.length >> 2;
    const a = new Int32Array(into.buffer, into.byteOffset, words);
    const b = new Int32Array(other.buffer, other.byteOffset, words);
    for (; k < words; k++) a[k] ^= b[k];
    k = words << 2;
  }
  for (; k < into.length; k++) into[k] ^= other[k];
}

// buffer: the shipped snapshot (an ArrayBuffer); wasm: pyodide.asm.wasm (an ArrayBuffer), needed
// when the snapshot was made against it.
export function expandSnapshot(buffer, wasm) {
  const bytes = new Uint8Array(buffer);
  if (bytes.length < HEAD) throw new Error("the engine snapshot is truncated or damaged");
  const [magic, size, page, count, base] = new Uint32Array(buffer, 0, 5);
  if (magic !== MAGIC) throw new Error("the engine snapshot is not in the site's format");
  if (HEAD + 4 * count > bytes.length) throw new Error("the engine snapshot is truncated or damaged");
  const pages = new Uint32Array(buffer, HEAD, count);
  const full = new Uint8Array(size);
  let dataEnd = 0; // where the data segments end, from the module's memory start
  if (base !== NO_BASE) {
    if (!wasm) throw new Error("the engine snapshot needs pyodide.asm.wasm");
    dataEnd = applyDataSegments(wasm, full, base).dataEnd;
  }
  let at = HEAD + 4 * count;
  for (const n of pages) {
    const length = Math.min(page, size - n * page);
    const stored = bytes.subarray(at, at + length);
    const into = full.subarray(n * page, n * page + length);
    if (base === NO_BASE || (n + 1) * page <= base || n * page >= base + dataEnd) into.set(stored);
    else xorInto(into, stored); // a page the data segments fill: the module's bytes XOR the difference
    at += length;
  }
  if (at !== bytes.length) throw new Error("the engine snapshot is truncated or damaged");
  return full;
}
