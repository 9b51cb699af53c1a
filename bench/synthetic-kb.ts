/**
 * A deterministic synthetic knowledge base for the benchmarks: facts of 8–30 words drawn with a Zipf–Mandelbrot
 * law from the real vocabulary of examples/kb and examples/policybench, some with values and identifiers, and
 * questions over them (answerable, near misses, unknown names, off topic). See bench/README.md, "Data".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { mulberry32 } from '../src/core/agreement/seeded-random.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The seed the gate bench has always used: the same facts and questions as its published figures. */
export const SEED = 20_240_601;

/** mulberry32: small, fast, seeded (the one the agreement statistics use). */
const prng = (seed: number): (() => number) => mulberry32(seed);

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const between = (rng: () => number, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

/** Words of the example KB by frequency, each in its most common spelling (CPF stays CPF). */
export function corpusVocabulary(): string[] {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (extname(name) === '.txt') texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(join(ROOT, 'examples', 'kb'));
  const policy = join(ROOT, 'examples', 'policybench');
  for (const name of readdirSync(policy).sort()) {
    if (!name.endsWith('-facts.jsonl')) continue;
    for (const line of readFileSync(join(policy, name), 'utf8').split('\n')) {
      if (line.trim()) texts.push((JSON.parse(line) as { text: string }).text);
    }
  }
  const counts = new Map<string, Map<string, number>>();
  for (const text of texts) {
    for (const [word] of text.matchAll(/\p{L}+(?:['’-]\p{L}+)*/gu)) {
      if (word.length > 24 || (word.length === 1 && word !== 'a')) continue;
      const key = word.toLowerCase();
      let forms = counts.get(key);
      if (!forms) counts.set(key, (forms = new Map()));
      forms.set(word, (forms.get(word) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].map(([key, forms]) => {
    let total = 0;
    let best = key;
    let bestCount = -1;
    for (const [form, n] of [...forms.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      total += n;
      // Sentence-initial capitals and upper-case headings should not win over the lower-case spelling.
      if (n > bestCount || (n === bestCount && form === key)) [best, bestCount] = [form, n];
    }
    if (/^\p{Lu}/u.test(best) && (forms.get(key) ?? 0) * 4 >= bestCount) best = key;
    return { word: best, total };
  });
  ranked.sort((a, b) => b.total - a.total || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return ranked.map((r) => r.word);
}

/** Samples ranks with a Zipf–Mandelbrot law, 1/(rank + 2.7). */
function zipfSampler(words: readonly string[], rng: () => number): () => string {
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = sum += 1 / (r + 1 + 2.7);
  return () => {
    const x = rng() * sum;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo] as string;
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A value an answer-type question can be satisfied by: money, duration, date, count. */
function valuePhrase(rng: () => number): string {
  switch (between(rng, 0, 3)) {
    case 0:
      return `$${between(rng, 1, 9) * 10 ** between(rng, 1, 3)}`;
    case 1:
      return `${between(rng, 1, 60)} ${pick(rng, ['days', 'weeks', 'months', 'years', 'working days'])}`;
    case 2:
      return `${between(rng, 1, 28)} ${pick(rng, MONTHS)} ${between(rng, 2015, 2026)}`;
    default:
      return `${between(rng, 2, 500)}`;
  }
}

/** Code-like identifiers (Form 12B, ADR-0050, IR8A, section 3.2), a bounded pool so they recur. */
function identifierPool(rng: () => number, size: number): string[] {
  const pool = new Set<string>();
  while (pool.size < size) {
    const letter = String.fromCharCode(65 + between(rng, 0, 25));
    switch (between(rng, 0, 4)) {
      case 0:
        pool.add(`Form ${between(rng, 1, 999)}${rng() < 0.5 ? letter : ''}`);
        break;
      case 1:
        pool.add(`ADR-${String(between(rng, 1, 9999)).padStart(4, '0')}`);
        break;
      case 2:
        pool.add(`${letter}${letter === 'I' ? 'R' : 'X'}${between(rng, 1, 99)}${pick(rng, ['A', 'B', 'C', 'E'])}`);
        break;
      case 3:
        pool.add(`section ${between(rng, 1, 40)}.${between(rng, 1, 20)}`);
        break;
      default:
        pool.add(`S${between(rng, 1_000_000, 9_999_999)}${letter}`);
    }
  }
  return [...pool];
}

export interface Corpus {
  readonly facts: readonly string[];
  readonly identifiers: ReadonlySet<string>;
  readonly vocabulary: ReadonlySet<string>;
}

export function generateFacts(n: number, words: readonly string[], seed = SEED): Corpus {
  const rng = prng(seed);
  const word = zipfSampler(words, rng);
  const ids = identifierPool(rng, 3000);
  const facts: string[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    const length = between(rng, 8, 30);
    for (let j = 0; j < length; j++) parts.push(word());
    if (rng() < 0.35) parts.splice(between(rng, 1, parts.length), 0, valuePhrase(rng));
    if (rng() < 0.15) parts.splice(between(rng, 1, parts.length), 0, pick(rng, ids));
    if (rng() < 0.3) parts.splice(between(rng, 3, parts.length - 1), 0, ',');
    const first = parts[0] as string;
    parts[0] = first.charAt(0).toUpperCase() + first.slice(1);
    facts.push(`${parts.join(' ').replace(/ ,/g, ',')}.`);
  }
  return { facts, identifiers: new Set(ids), vocabulary: new Set(words.map((w) => w.toLowerCase())) };
}

const QUESTION_STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with you your'.split(' '),
);
const OPENERS = [
  'What is',
  'How do I',
  'Can I',
  'How much is',
  'When does',
  'Who handles',
  'How long does',
  'Is there',
  'What about',
  'Does',
];
const SYLLABLES = ['zor', 'vex', 'qua', 'ply', 'thro', 'nix', 'zep', 'kru', 'blo', 'vin', 'dax', 'quo', 'zil', 'fent', 'grob'];

/** An invented word the example vocabulary does not hold. */
function unknownWord(rng: () => number, vocabulary: ReadonlySet<string>): string {
  for (;;) {
    const w = Array.from({ length: between(rng, 2, 3) }, () => pick(rng, SYLLABLES)).join('');
    if (!vocabulary.has(w)) return w;
  }
}

function contentWords(fact: string): string[] {
  return fact
    .replace(/[.,]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length >= 3 && !QUESTION_STOP.has(w.toLowerCase()) && !/^\$?\d/.test(w));
}

function sample<T>(rng: () => number, items: readonly T[], k: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(k, items.length)) chosen.add(Math.floor(rng() * items.length));
  return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
}

/**
 * Questions over the first n facts: most made of one fact's words (answerable
 * or near-miss), some mixing two facts (topic known, answer not), some naming
 * an unknown name or identifier, some entirely off-topic.
 */
export function generateQuestions(corpus: Corpus, n: number, count: number, seed = SEED): string[] {
  const rng = prng(seed ^ n);
  const questions: string[] = [];
  const fact = (): string => corpus.facts[Math.floor(rng() * n)] as string;
  while (questions.length < count) {
    const kind = rng();
    const opener = pick(rng, OPENERS);
    const source = fact();
    let words: string[];
    if (kind < 0.6) {
      words = sample(rng, contentWords(source), between(rng, 3, 6));
      const id = [...corpus.identifiers].find((i) => source.includes(i));
      if (id && !words.includes(id) && rng() < 0.6) words.push('under', id);
    } else if (kind < 0.72) {
      words = [...sample(rng, contentWords(source), 2), ...sample(rng, contentWords(fact()), 2)];
    } else if (kind < 0.85) {
      words = sample(rng, contentWords(source), between(rng, 2, 4));
      const name = unknownWord(rng, corpus.vocabulary);
      words.splice(between(rng, 0, words.length), 0, name.charAt(0).toUpperCase() + name.slice(1));
    } else if (kind < 0.95) {
      words = Array.from({ length: between(rng, 2, 4) }, () => unknownWord(rng, corpus.vocabulary));
    } else {
      let id: string;
      do id = `Form ${between(rng, 1000, 9999)}${String.fromCharCode(65 + between(rng, 0, 25))}`;
      while (corpus.identifiers.has(id));
      words = ['the', 'rules', 'for', id];
    }
    if (words.length === 0) continue;
    questions.push(`${opener} ${words.join(' ')}?`);
  }
  return questions;
}
