/**
 * Building a KB's index at once (as before) and a slice at a time (as `candor serve` does now): the build's
 * wall time and the longest the event loop was held meanwhile (a 1 ms interval timer's worst lateness: what a
 * /healthz probe or a chat acknowledgement would wait). The gate bench's synthetic facts (bench/synthetic-kb.ts),
 * no database (the row read is not measured here). Writes bench/results/index-build.json.
 *
 * Also the memory the built index holds (heap and typed arrays, after a collection), per fact: the facts are
 * generated as they are read, so only the index keeps them.
 *
 *   npm run bench:index -- [facts…]   (default: 10000 100000 1000000)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { KnowledgeIndex, type StoredFact } from '../src/kb/knowledge-index.js';
import { corpusVocabulary, generateFacts } from './synthetic-kb.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const MAX = Math.max(...(SIZES.length > 0 ? SIZES : [1_000_000]));

/**
 * The gate bench's synthetic KB (bench/synthetic-kb.ts), encoded once as UTF-8: each fact's text is decoded
 * when it is read, a new string, as the database driver makes one, so the index's memory includes its texts.
 */
const { encoded, ends } = (() => {
  const texts = generateFacts(MAX, corpusVocabulary()).facts;
  const ends = new Uint32Array(texts.length);
  texts.reduce((at, text, i) => (ends[i] = at + Buffer.byteLength(text)), 0);
  return { encoded: Buffer.from(texts.join(''), 'utf8'), ends };
})();

function fact(i: number): StoredFact {
  return {
    id: i + 1,
    externalId: `f${i}`,
    text: encoded.toString('utf8', i === 0 ? 0 : ends[i - 1], ends[i]),
    heading: `Section ${Math.floor(i / 20) % 50}`,
    source: `doc-${Math.floor(i / 200)}`,
    passage: `p${Math.floor(i / 5)}`,
    confidence: 1,
  };
}

/** Facts made as they are read (as the store's pages are): only the index keeps them. */
function* facts(n: number): Generator<StoredFact> {
  for (let i = 0; i < n; i++) yield fact(i);
}

/** Heap and typed-array memory in use after a full collection (run with --expose-gc), in MB. */
function memoryMb(): { heap: number; arrays: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed / 1_048_576, arrays: arrayBuffers / 1_048_576 };
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

if (!(globalThis as { gc?: unknown }).gc)
  process.stderr.write('note: run with node --expose-gc for exact memory figures (npm run bench:index does)\n');
const results = [];
for (const n of SIZES.length > 0 ? SIZES : [10_000, 100_000, 1_000_000]) {
  const before = memoryMb();
  let index: KnowledgeIndex | null = null;
  const sliced = await measured(async () => {
    index = await KnowledgeIndex.build({ kbId: 1, name: 'bench', version: 1 }, facts(n), new Map(), {
      pause: () => new Promise((resolve) => setImmediate(resolve)),
    });
  });
  const after = memoryMb();
  // At once (the constructor: what a CLI command does) only where holding every row as an object is cheap.
  const once = n <= 100_000 ? await measured(() => new KnowledgeIndex(1, 'bench', 1, [...facts(n)])) : null;
  const heapMb = Math.round(after.heap - before.heap);
  const arraysMb = Math.round(after.arrays - before.arrays);
  const bytesPerFact = Math.round(((after.heap - before.heap + after.arrays - before.arrays) * 1_048_576) / n);
  results.push({ facts: n, ...(once ? { atOnce: once } : {}), sliced, memory: { heapMb, arraysMb, bytesPerFact } });
  process.stderr.write(
    `${n} facts: ${once ? `at once ${once.ms} ms (event loop held ${once.maxStallMs} ms); ` : ''}sliced ${sliced.ms} ms (held at most ${sliced.maxStallMs} ms); ` +
      `index holds ${heapMb} MB heap + ${arraysMb} MB typed arrays (${bytesPerFact} B per fact, ${(index as KnowledgeIndex | null)?.size} facts)\n`,
  );
  index = null;
}
const out = join(ROOT, 'bench', 'results', 'index-build.json');
writeFileSync(out, `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2)}\n`);
process.stderr.write(`wrote ${out}\n`);
