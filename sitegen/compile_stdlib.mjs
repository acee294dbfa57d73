// Byte-compile Pyodide's standard library with the pinned Pyodide (CPython 3.14 in Node).
// Usage: node sitegen/compile_stdlib.mjs <pyodide dir> <output .zip>
// Prints "<modules compiled> <python version>". The work itself is compile_stdlib() in
// sitegen/pyc_wheel.py: python_stdlib.zip with each .py replaced by its .pyc.
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node compile_stdlib.mjs <pyodide dir> <output .zip>");
  process.exit(2);
}
const indexURL = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (s) => console.error(s) });

pyodide.FS.mkdirTree("/build");
pyodide.FS.writeFile("/build/in.zip", await readFile(join(indexURL, "python_stdlib.zip")));
pyodide.runPython(await readFile(new URL("./pyc_wheel.py", import.meta.url), "utf8"));
const mount = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('.zip')][0]");
const count = pyodide.globals.get("compile_stdlib")("/build/in.zip", "/build/out.zip", mount);
const version = pyodide.runPython("import sys; '%d.%d.%d' % sys.version_info[:3]");
await writeFile(outPath, pyodide.FS.readFile("/build/out.zip"));
console.log(`${count} ${version}`);
