// Run the site's Python (the engine and the presentation layer) under Pyodide in Node, as the
// site ships it, and answer requests with ginview.api.handle, as the browser's worker does.
//
//   node tests/pyodide/run_engine.mjs <runtime dir of a built site> [wheel|snapshot]
//        < requests.json  > responses.json
//
// Pyodide itself comes from node_modules/pyodide (the pinned npm package).
// - wheel (the default): the packages are loaded BY NAME through the built site's own
//   pyodide-lock.json, so the wheels the site ships are the ones tested. Pyodide checks a
//   package's sha256 only in the browser (through fetch's integrity option), so this script
//   checks them itself before loading.
// - snapshot: the site's engine.snapshot is restored on the site's (empty) standard library
//   (engine_stdlib.zip), exactly as the browser worker does.
//
// stdin:  a JSON array of request strings (each passed unchanged to ginview.api.handle)
// stdout: a JSON array of the response strings, in order. A Python exception (handle should
//         never raise) becomes "RAISED <ExceptionType>: <message>", so it is compared too.
// stderr: one line with the boot time.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";
import { expandSnapshot } from "../../docs/assets/gin/snapshot.js";

const [runtimeDir, mode = "wheel"] = process.argv.slice(2);
if (!runtimeDir || !["wheel", "snapshot"].includes(mode)) {
  console.error("usage: node run_engine.mjs <site runtime dir> [wheel|snapshot] < requests.json");
  process.exit(2);
}
const PACKAGES = ["ginrummy", "ginview"];
const API_MODULE = "ginview.api";
const logLine = (line) => console.error(line); // stdout is for the answers only

const requests = JSON.parse(readFileSync(0, "utf8"));
const started = performance.now();
const pyodide = mode === "snapshot" ? await fromSnapshot() : await fromWheel();
const api = pyodide.pyimport(API_MODULE);
const handle = api.handle; // called through the proxy, as the worker does
console.error(`booted in ${Math.round(performance.now() - started)} ms`);

const responses = requests.map((request) => {
  try {
    return handle(request);
  } catch (err) {
    // A PythonError's message ends with "<ExceptionType>: <message>".
    const last = String(err.message).trim().split("\n").pop();
    return `RAISED ${last}`;
  }
});
process.stdout.write(JSON.stringify(responses));

async function fromSnapshot() {
  return loadPyodide({
    stdLibURL: path.resolve(runtimeDir, "engine_stdlib.zip"),
    _loadSnapshot: expandSnapshot(new Uint8Array(readFileSync(path.join(runtimeDir, "engine.snapshot"))).buffer,
                                  new Uint8Array(readFileSync(path.join(runtimeDir, "pyodide.asm.wasm"))).buffer),
    stdout: logLine,
    stderr: logLine,
  });
}

async function fromWheel() {
  const lock = JSON.parse(readFileSync(path.join(runtimeDir, "pyodide-lock.json"), "utf8"));
  for (const name of PACKAGES) {
    const entry = lock.packages[name];
    if (!entry) {
      console.error(`${name} is not in ${runtimeDir}/pyodide-lock.json`);
      process.exit(1);
    }
    const sha256 = createHash("sha256")
      .update(readFileSync(path.join(runtimeDir, entry.file_name)))
      .digest("hex");
    if (sha256 !== entry.sha256) {
      console.error(`integrity check failed: ${entry.file_name} has sha256 ${sha256}, the lock says ${entry.sha256}`);
      process.exit(1);
    }
  }
  const pyodide = await loadPyodide({
    lockFileURL: path.resolve(runtimeDir, "pyodide-lock.json"),
    packageBaseUrl: path.resolve(runtimeDir) + "/",
    stdout: logLine,
    stderr: logLine,
  });
  await pyodide.loadPackage(PACKAGES, { messageCallback: () => {}, checkIntegrity: true });
  return pyodide;
}
