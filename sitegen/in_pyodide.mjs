// Build steps that must run inside the pinned Pyodide (its CPython 3.14, in Node), so what they
// make matches the browser's interpreter exactly.
//
//   node sitegen/in_pyodide.mjs wheel    <pyodide dir> <input .whl> <output dir>
//       Byte-compile a pure-Python wheel (pyc_wheel.py's compile_wheel). Prints its file name.
//   node sitegen/in_pyodide.mjs stdlib   <pyodide dir> <output .zip>
//       Pyodide's python_stdlib.zip with every .py byte-compiled (pyc_wheel.py's compile_stdlib).
//       Prints "<modules compiled> <python version>".
//   node sitegen/in_pyodide.mjs snapshot <pyodide dir> <stdlib .zip> <output dir> <.whl>...
//       Writes engine.snapshot, a memory snapshot of Pyodide booted on that standard library
//       with the wheels (the engine and the presentation layer) installed, imported and warmed
//       up (snapshot.py), its code's line tables emptied (bareLines), its freed memory zeroed
//       (scrub), without the pages that are as the
//       WebAssembly module starts them
//       (docs/assets/gin/snapshot.js); and
//       engine_stdlib.zip, the standard library to restore it on: an empty zip, since the
//       snapshot holds every module the engine imports.
//       The browser restores the snapshot instead of starting Python: about twice as fast a boot.
//       Prints "<snapshot bytes> <bytes shipped> <modules>".
import { readFile, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import nodeCrypto from "node:crypto";
import { sparseSnapshot } from "../docs/assets/gin/snapshot.js";

const USAGE = { // the arguments after <pyodide dir>
  wheel: ["<input .whl>", "<output dir>"],
  stdlib: ["<output .zip>"],
  snapshot: ["<stdlib .zip>", "<output dir>", "<.whl>..."],
};
const [command, pyodideDir, ...args] = process.argv.slice(2);
const variadic = command === "snapshot";
if (!USAGE[command] || (variadic ? args.length < USAGE[command].length : args.length !== USAGE[command].length)) {
  for (const [name, usage] of Object.entries(USAGE)) {
    console.error(`usage: node in_pyodide.mjs ${name} <pyodide dir> ${usage.join(" ")}`);
  }
  process.exit(2);
}

const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const script = (name) => readFile(new URL(`./${name}`, import.meta.url), "utf8");

// What Python is given of the process: a fixed hash seed, so that a snapshot's dictionaries and
// sets are laid out the same way on every build; a fixed locale (Emscripten takes LANG from
// navigator.language, which Node takes from the machine's locale); and a fixed program name
// (Emscripten takes it, and the environment's `_`, from process.argv[1]: this file's path, which
// is the checkout's). Else each would be in the snapshot's memory, and every byte after it would
// move with its length: a clone in another folder would give another snapshot.
// And the time zone (Python's time module reads it as it starts: a machine in another zone would
// give another snapshot): UTC. (sitegen/runtime.py also starts this with a fixed environment.)
const ENV = { PYTHONHASHSEED: "0", LANG: "C.UTF-8" };
process.argv[1] = "./this.program"; // what Emscripten calls a program without a script (a browser)
process.env.TZ = "UTC";

async function boot(options = {}) {
  return loadPyodide({ indexURL, stdout: () => {}, stderr: (s) => console.error(s),
                      env: ENV, ...options });
}

// The same snapshot from every build of the same files: what Python reads of the clock and of
// the random source while it is made (file times, the random module's seed) is fixed. The time
// is SOURCE_DATE_EPOCH's (sitegen/runtime.py sets it: RUNTIME_EPOCH); the random bytes are a
// fixed sequence. The browser's Python keeps them (a restored snapshot is the memory as it was
// made): nothing here relies on either.
function reproducible() {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  if (!Number.isInteger(epoch)) throw new Error("SOURCE_DATE_EPOCH must be set (sitegen/runtime.py sets it)");
  const epochMs = epoch * 1000;
  let tick = 0;
  Date.now = () => epochMs;
  performance.now = () => (tick += 1);
  let state = 0x9e3779b9;
  nodeCrypto.randomFillSync = (view) => {  // what Emscripten's getentropy reads under Node
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i += 1) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      bytes[i] = state >>> 24;
    }
    return view;
  };
}

if (command === "wheel") {
  const [wheelPath, outDir] = args;
  const pyodide = await boot();
  const inName = basename(wheelPath);
  pyodide.FS.mkdirTree("/build/in");
  pyodide.FS.mkdirTree("/build/out");
  pyodide.FS.writeFile(`/build/in/${inName}`, await readFile(wheelPath));
  pyodide.runPython(await script("pyc_wheel.py"));
  const outPath = pyodide.globals.get("compile_wheel")(`/build/in/${inName}`, "/build/out");
  const outName = basename(outPath);
  await writeFile(join(outDir, outName), pyodide.FS.readFile(outPath));
  console.log(outName);
} else if (command === "stdlib") {
  const [outPath] = args;
  const pyodide = await boot();
  pyodide.FS.mkdirTree("/build");
  pyodide.FS.writeFile("/build/in.zip", await readFile(join(indexURL, "python_stdlib.zip")));
  pyodide.runPython(await script("pyc_wheel.py"));
  const mount = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('.zip')][0]");
  const count = pyodide.globals.get("compile_stdlib")("/build/in.zip", "/build/out.zip", mount);
  const version = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
  await writeFile(outPath, pyodide.FS.readFile("/build/out.zip"));
  console.log(`${count} ${version}`);
} else if (command === "snapshot") {
  const [stdlibPath, outDir, ...wheelPaths] = args;
  reproducible();
  // No loadPackage: it leaves JavaScript objects behind that a snapshot cannot hold. The wheels
  // are unpacked into site-packages by Python instead (they are only .pyc files and metadata).
  const pyodide = await boot({ stdLibURL: resolve(stdlibPath), _makeSnapshot: true });
  const inside = [];
  for (const [i, path] of wheelPaths.entries()) {
    inside.push(`/tmp/wheel${i}.whl`);
    pyodide.FS.writeFile(inside[i], await readFile(path));
  }
  pyodide.runPython(await script("snapshot.py"));
  const modules = pyodide.globals.get("prepare")(JSON.stringify(inside));
  for (const path of inside) pyodide.FS.unlink(path);
  pyodide.globals.get("forget_stdlib")();
  const empty = pyodide.globals.get("EMPTY_ZIP").toJs();
  bareLines(pyodide._module, JSON.parse(pyodide.globals.get("line_tables")()));
  scrub(pyodide._module);
  const snapshot = pyodide.makeMemorySnapshot();
  const shipped = sparseSnapshot(snapshot, await readFile(join(indexURL, "pyodide.asm.wasm")));
  await writeFile(join(outDir, "engine.snapshot"), shipped);
  await writeFile(join(outDir, "engine_stdlib.zip"), empty);
  console.log(`${snapshot.length} ${shipped.length} ${modules}`);
}

// Write over each line table of the engine's code (and of Python's own: snapshot.py line_tables
// gives [address, length] of each), in place, a table that gives no instruction a line: so the
// snapshot holds no line numbers (a traceback says "line None"), and no object moves (a copy of
// each code object would leave the memory more scattered, and bigger with Brotli). A table is a
// bytes object (32-bit CPython: ob_size at +8, the cached hash at +12, the bytes at +16, then a
// NUL) of entries, each a first byte with its top bit set, its low 3 bits the number of code
// units it covers minus one, and more bytes without that bit (CPython's Objects/locations.md).
// The new table covers the same code units, each entry 8 of them (the last fewer) with code 15,
// "no location": it is never longer than the old one, whose rest is zeroed.
function bareLines(M, tables) {
  const NO_LINE = 0xf8; // code 15 (0x78) with the top bit
  for (const [address, length] of tables) {
    const bytes = M.HEAPU8.subarray(address + 16, address + 16 + length + 1);
    if (M.HEAP32[(address + 8) / 4] !== length || bytes[length] !== 0 || !(bytes[0] & 0x80)) {
      throw new Error(`not a line table of ${length} bytes at ${address}`);
    }
    let units = 0;
    for (const b of bytes.subarray(0, length)) if (b & 0x80) units += (b & 7) + 1;
    const size = Math.ceil(units / 8);
    bytes.fill(0);
    bytes.fill(NO_LINE | 7, 0, Math.floor(units / 8));
    if (units % 8) bytes[size - 1] = NO_LINE | (units % 8 - 1);
    M.HEAP32[(address + 8) / 4] = size;
    M.HEAP32[(address + 12) / 4] = -1; // no hash cached
  }
}

// Zero the memory Python freed, so that the snapshot holds no garbage (its Brotli copy is about
// a sixth smaller: bench/browser.py). Every free block malloc has is taken with calloc (which
// zeroes it), largest first, never more than the memory holds without growing; then all are
// given back. The memory above the break (freed to the end) is zeroed too. What Python holds
// is untouched: the same answers, from the same memory size.
function scrub(M) {
  const margin = 65536; // a WebAssembly page, kept from growing the memory
  const info = M._malloc(64); // a struct mallinfo: its keepcost (the top block) is int 9
  const room = () => {
    M._mallinfo(info);
    return M.HEAP32[info / 4 + 9] + (M.HEAPU8.length - M._sbrk(0)) - margin;
  };
  const length = M.HEAPU8.length;
  const taken = [];
  for (let size = 1 << 24; size >= 16; size >>= 1) {
    while (size <= room()) {
      const block = M._calloc(1, size);
      if (!block) break;
      taken.push(block);
    }
  }
  for (const block of taken) M._free(block);
  M._free(info);
  M.HEAPU8.fill(0, M._sbrk(0));
  if (M.HEAPU8.length !== length) throw new Error("zeroing the free memory grew it");
}
