/**
 * Building a KB's index at once (as before) and a slice at a time (as `candor serve` does now): the build's
 * wall time and the longest the event loop was held meanwhile (a 1 ms interval timer's worst lateness: what a
 * /healthz probe or a chat acknowledgement would wait). Synthetic facts of handbook-like sentences, no
 * database (the row read is not measured here). Writes bench/results/index-build.json.
 *
 *   npm run bench:index -- [facts…]   (default: 10000 100000)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { KnowledgeIndex, type StoredFact } from '../src/kb/knowledge-index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const WORDS = 'leave parking laptop expense canteen permit claim ward premium deductible subsidy licence vehicle speed limit'.split(' ');

function facts(n: number): StoredFact[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    externalId: null,
    text: `Staff ${WORDS[i % WORDS.length]} rule ${i % 997} applies to ${WORDS[(i * 7) % WORDS.length]} number ${i} from year ${2000 + (i % 25)}.`,
    heading: `Section ${i % 50}`,
    source: `doc-${i % 200}`,
    passage: `p${Math.floor(i / 5)}`,
    confidence: 1,
  }));
}

/** Runs `work` while a 1 ms timer measures how late it fires: the event loop's longest stall. */
async function measured(work: () => Promise<unknown> | unknown): Promise<{ ms: number; maxStallMs: number }> {
  let last = performance.now();
  let maxStall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxStall = Math.max(maxStall, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setImmediate(resolve));
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(timer);
  return { ms: Math.round(ms), maxStallMs: Math.round(Math.max(maxStall, 0)) };
}

const results = [];
for (const n of SIZES.length > 0 ? SIZES : [10_000, 100_000]) {
  const rows = facts(n);
  const once = await measured(() => new KnowledgeIndex(1, 'bench', 1, rows));
  const sliced = await measured(() =>
    KnowledgeIndex.build({ kbId: 1, name: 'bench', version: 1 }, rows, new Map(), {
      pause: () => new Promise((resolve) => setImmediate(resolve)),
    }),
  );
  results.push({ facts: n, atOnce: once, sliced });
  process.stderr.write(
    `${n} facts: at once ${once.ms} ms (event loop held ${once.maxStallMs} ms); sliced ${sliced.ms} ms (held at most ${sliced.maxStallMs} ms)\n`,
  );
}
const out = join(ROOT, 'bench', 'results', 'index-build.json');
writeFileSync(out, `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2)}\n`);
process.stderr.write(`wrote ${out}\n`);
