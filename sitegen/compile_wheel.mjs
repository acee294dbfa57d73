// Byte-compile a wheel with the pinned Pyodide (CPython 3.14 in Node).
// Usage: node sitegen/compile_wheel.mjs <pyodide dir> <input .whl> <output dir>
// Prints the compiled wheel's file name. The work itself is sitegen/pyc_wheel.py.
import { readFile, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelPath, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error("usage: node compile_wheel.mjs <pyodide dir> <input .whl> <output dir>");
  process.exit(2);
}
const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (s) => console.error(s) });

const inName = basename(wheelPath);
pyodide.FS.mkdirTree("/build/in");
pyodide.FS.mkdirTree("/build/out");
pyodide.FS.writeFile(`/build/in/${inName}`, await readFile(wheelPath));
pyodide.runPython(await readFile(new URL("./pyc_wheel.py", import.meta.url), "utf8"));
const outPath = pyodide.globals.get("compile_wheel")(`/build/in/${inName}`, "/build/out");
const outName = basename(outPath);
await writeFile(join(outDir, outName), pyodide.FS.readFile(outPath));
console.log(outName);
