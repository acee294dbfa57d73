// Throughput of ginrummy.melds.min_deadwood_mask under Pyodide in Node, on seeded random
// 10-card hands: the speed the engine has in the reader's browser (minus the browser).
//
//   node bench/pyodide_deadwood.mjs [site dir (default: site)] [hands (default: 200000)]
//
// The engine is the wheel the built site ships, loaded by name through the site's lock file.

import { readFileSync } from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";

const siteDir = path.resolve(process.argv[2] || "site");
const hands = Number(process.argv[3] || 200000);

// Find the runtime directory the way the browser does: through assets/gin/runtime.js.
const runtimeJs = path.join(siteDir, "assets/gin/runtime.js");
const runtimeDir = path.resolve(
  path.dirname(runtimeJs),
  /RUNTIME_DIR\s*=\s*"([^"]+)"/.exec(readFileSync(runtimeJs, "utf8"))[1],
);

let started = performance.now();
const pyodide = await loadPyodide({
  lockFileURL: path.join(runtimeDir, "pyodide-lock.json"),
  packageBaseUrl: runtimeDir + "/",
});
await pyodide.loadPackage("ginrummy", { messageCallback: () => {} });
console.log(`Pyodide ${pyodide.version} + engine booted in ${Math.round(performance.now() - started)} ms`);

// The timing loop runs inside Python: one call per hand, as a caller in Python would make it.
const result = pyodide.runPython(`
import random, time
from ginrummy.melds import min_deadwood_mask

def bench(n, seed=20261130):
    rng = random.Random(seed)
    masks = [sum(1 << i for i in rng.sample(range(52), 10)) for _ in range(n)]
    best = None
    for _ in range(3):  # best of three runs
        t0 = time.perf_counter()
        total = 0
        for m in masks:
            total += min_deadwood_mask(m)
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    return n / best, total / n

bench(${hands})
`).toJs();
const [perSecond, meanDeadwood] = result;
console.log(`min_deadwood_mask, random 10-card hands: ${Math.round(perSecond).toLocaleString("en")} hands/s ` +
  `under Pyodide (${hands} hands, best of 3; mean deadwood ${meanDeadwood.toFixed(2)})`);
