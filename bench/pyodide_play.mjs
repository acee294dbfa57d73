// Latency of a bot move and of a coach ranking under Pyodide in Node: what the play page's
// worker spends per request (minus the browser). Prints p50 and p95 in ms, and, for the coach,
// the samples (worlds) each ranking played.
//
//   node bench/pyodide_play.mjs [decisions (default: 60)] [samples... (default: 4 8 16 32)]
//
// The engine is copied from engine/ginrummy into Pyodide's file system (no site build needed).
// The decisions are the states of seeded hands between two strong bots, every phase included.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const decisions = Number(process.argv[2] || 60);
const samples = process.argv.slice(3).map(Number);

const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/engine/ginrummy");
const source = path.join(root, "engine/ginrummy");
for (const name of readdirSync(source).filter((n) => n.endsWith(".py"))) {
  pyodide.FS.writeFile(`/engine/ginrummy/${name}`, readFileSync(path.join(source, name)));
}

const report = pyodide.runPython(`
import sys, time
sys.path.insert(0, "/engine")
from ginrummy.advice import advise
from ginrummy.bots import choose
from ginrummy.hand import apply, deal

def states(count):
    found, seed = [], 0
    while len(found) < count:
        state = deal(seed=seed, dealer=seed % 2)
        while not state.finished and len(found) < count:
            if state.phase in ("offer", "draw", "discard"):
                found.append(state)
            state = apply(state, choose(state, "strong", seed=seed))
        seed += 1
    return found

def percentiles(times):
    times = sorted(times)
    return times[len(times) // 2] * 1000, times[min(len(times) - 1, int(len(times) * 0.95))] * 1000

def timed(call, items):
    out = []
    for item in items:
        start = time.perf_counter()
        call(item)
        out.append(time.perf_counter() - start)
    return percentiles(out)

picked = states(${decisions})
lines = [f"Pyodide {sys.version.split()[0]}: {len(picked)} decisions from strong-bot hands"]
for level in ("beginner", "intermediate", "strong"):
    p50, p95 = timed(lambda s: choose(s, level, seed=1), picked)
    lines.append(f"bot move, {level:<12}: p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")
for n in ${JSON.stringify(samples.length ? samples : [4, 8, 16, 32])}:
    p50, p95 = timed(lambda s: advise(s, samples=n, seed=1), picked)
    lines.append(f"coach ranking, {n:>3} samples: p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")
"\\n".join(lines)
`);
console.log(report);
