// What the engine's memory snapshot holds, by kind: the Node half of bench/snapshot.py.
//
//   node bench/snapshot_contents.mjs <pyodide dir> <stdlib .zip> <out dir> <prepare .py> <.whl>...
//
// Boots Pyodide as sitegen/in_pyodide.mjs does for the snapshot, and prepares it the same way
// (<prepare .py>: sitegen/snapshot.py, or another version of it), then runs bench/snapshot_contents.py's measure() inside it and writes
// <out dir>/contents.json (its answer) and <out dir>/memory.bin (the WebAssembly memory then,
// where each object's bytes lie at its id()).
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, stdlibPath, outDir, preparePath, ...wheelPaths] = process.argv.slice(2);
if (!wheelPaths.length) {
  console.error("usage: node bench/snapshot_contents.mjs <pyodide dir> <stdlib .zip> <out dir> <prepare .py> <.whl>...");
  process.exit(2);
}
const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const read = (name) => readFile(new URL(name, import.meta.url), "utf8");
process.argv[1] = "./this.program";
const pyodide = await loadPyodide({
  indexURL, stdout: () => {}, stderr: (s) => console.error(s), stdLibURL: resolve(stdlibPath),
  env: { PYTHONHASHSEED: "0", LANG: "C.UTF-8" }, _makeSnapshot: true,
});
const inside = [];
for (const [i, path] of wheelPaths.entries()) {
  inside.push(`/tmp/wheel${i}.whl`);
  pyodide.FS.writeFile(inside[i], await readFile(path));
}
pyodide.runPython(await readFile(preparePath, "utf8"));
pyodide.globals.get("prepare")(JSON.stringify(inside));
pyodide.globals.get("forget_stdlib")();
pyodide.runPython(await read("./snapshot_contents.py"));
await writeFile(join(outDir, "contents.json"), pyodide.globals.get("measure")());
await writeFile(join(outDir, "memory.bin"), pyodide._module.HEAPU8);
