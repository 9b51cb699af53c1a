import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { z } from 'zod';

import { describeLimit, formatBytes, type IngestLimits } from '../../config/ingest-limits.js';
import { httpUrl } from '../../core/text/http-url.js';
import { MAX_NOT_TEXT_SHARE, notTextCount } from '../parse/decode-text.js';

/** A fact ready to store, before it has an id. */
export interface NewFact {
  readonly externalId: string | null;
  readonly text: string;
  readonly heading: string | null;
  readonly position: number;
  readonly source: string;
  /** Facts of one passage are one candidate answer (see EvidenceFact.passage). */
  readonly passage: string;
  readonly confidence: number;
  /** The fact's own link (a .jsonl line's `url`); null: its document's, if any. */
  readonly url: string | null;
}

const FACT_LINE = z.object({
  id: z.string().min(1).max(512),
  text: z.string().trim().min(1).max(20_000),
  source: z.string().min(1).max(2048).optional(),
  confidence: z.number().min(0).max(1).optional(),
  /** Facts naming the same passage (e.g. the sentences of one paragraph) are one candidate answer; without it a fact is its own. */
  passage: z.string().min(1).max(2048).optional(),
  /** Section heading, searched with the fact as a document's headings are. */
  heading: z.string().trim().min(1).max(2048).optional(),
  /** Where people can read the fact's source; wins over the file's own (CANDOR_SOURCE_URLS). */
  url: z
    .string()
    .max(2048)
    .refine((url) => httpUrl(url) !== null, 'expected an http(s) URL')
    .transform((url) => httpUrl(url)!)
    .optional(),
});

type FactLine = z.infer<typeof FACT_LINE>;

/** One line's fact, or why the line is left out (without its number). */
function parseLine(line: string): { ok: true; fact: FactLine } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  const fact = FACT_LINE.safeParse(json);
  if (fact.success) {
    // PostgreSQL cannot store U+0000 in text: one such line would fail the whole ingest. (A NUL byte is not text: refused already.)
    const nul =
      line.includes('\\u0000') && Object.entries(fact.data).find(([, value]) => typeof value === 'string' && value.includes('\u0000'));
    return nul ? { ok: false, reason: `${nul[0]} holds a NUL character (\\u0000), which cannot be stored` } : { ok: true, fact: fact.data };
  }
  return { ok: false, reason: fact.error.issues.map((e) => `${e.path.join('.') || 'line'} ${e.message}`).join('; ') };
}

function toNewFact(fact: FactLine, path: string, position: number): NewFact {
  return {
    externalId: fact.id,
    text: fact.text,
    heading: fact.heading ?? null,
    position,
    source: fact.source ?? `${path}#${fact.id}`,
    passage: fact.passage === undefined ? `${path}#${fact.id}` : `${path}#${fact.passage}`,
    confidence: fact.confidence ?? 1,
    url: fact.url ?? null,
  };
}

/**
 * Judges the lines of one .jsonl in order: blank lines are nothing, the others a fact or a skipped line
 * ("line 5: duplicate id "L-1""). Holds the ids seen, to find duplicates.
 */
function lineJudge(path: string): (line: string, number: number) => NewFact | string | null {
  const seen = new Set<string>();
  return (line, number) => {
    if (line.trim() === '') return null;
    const parsed = parseLine(line);
    if (!parsed.ok) return `line ${number}: ${parsed.reason}`;
    if (seen.has(parsed.fact.id)) return `line ${number}: duplicate id "${parsed.fact.id}"`;
    seen.add(parsed.fact.id);
    return toNewFact(parsed.fact, path, seen.size - 1);
  };
}

/** The facts of .jsonl text held in memory, and the lines left out with why (the eval benchmarks read their sets so). */
export function readFactLines(content: string, path: string): { title: null; facts: NewFact[]; skipped: string[] } {
  const facts: NewFact[] = [];
  const skipped: string[] = [];
  const judge = lineJudge(path);
  content.split('\n').forEach((line, i) => {
    const outcome = judge(line, i + 1);
    if (typeof outcome === 'string') skipped.push(outcome);
    else if (outcome !== null) facts.push(outcome);
  });
  return { title: null, facts, skipped };
}

/** What the first read of a .jsonl found: it is not text, or its hash and the lines left out. */
export type FactFileScan =
  | { readonly ok: false; readonly reason: string }
  | {
      readonly ok: true;
      readonly hash: string;
      readonly skipped: readonly string[];
      readonly skippedLines: ReadonlySet<number>;
    };

/** A .jsonl file failed while its facts were read again to be stored: it changed, or could not be read. */
export class FactFileReadError extends Error {
  override readonly name = 'FactFileReadError';
}

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads a .jsonl a chunk at a time (memory holds a chunk, a line and the ids seen, whatever the file's size):
 * its SHA-256, whether it is text (the rules of decodeText: no NUL byte, at most MAX_NOT_TEXT_SHARE of the
 * characters undecodable or control characters), and its bad lines with why. A line longer
 * than CANDOR_INGEST_MAX_FILE_BYTES is skipped unread (lines are held whole to be parsed); the limit does not
 * apply to the file. Only I/O errors throw.
 */
export async function scanFactFile(file: string, path: string, limits: Pick<IngestLimits, 'maxFileBytes'>): Promise<FactFileScan> {
  const hash = createHash('sha256');
  const judge = lineJudge(path);
  const skipped: string[] = [];
  const skippedLines = new Set<number>();
  let chars = 0;
  let notText = 0;
  let number = 0;
  for await (const lines of fileLines(file, limits.maxFileBytes, hash)) {
    if (lines === 'nul') return { ok: false, reason: 'binary content (NUL bytes), not text' };
    for (const line of lines) {
      number += 1;
      const outcome = line === null ? `line ${number}: longer than ${describeLine(limits.maxFileBytes)}` : judge(line, number);
      if (line !== null) {
        chars += line.length + 1;
        notText += notTextCount(line);
      }
      if (typeof outcome === 'string') {
        skipped.push(outcome);
        skippedLines.add(number);
      }
    }
  }
  chars = Math.max(chars - 1, 0); // no line feed after the last line
  const share = chars === 0 ? 0 : notText / chars;
  if (share > MAX_NOT_TEXT_SHARE) {
    const percent = share >= 0.1 ? Math.round(share * 100) : (share * 100).toFixed(1);
    return {
      ok: false,
      reason: `not text (${percent}% undecodable or control characters): binary content, or text in an encoding other than UTF-8 (save it as UTF-8)`,
    };
  }
  return { ok: true, hash: hash.digest('hex'), skipped, skippedLines };
}

/**
 * The facts of a .jsonl that scanFactFile read, read again a batch at a time to be stored: the lines it
 * skipped are left out, the rest are facts. Throws FactFileReadError when the file no longer has the hash it
 * had, or cannot be read: its facts must then not be stored.
 */
export async function* factFileBatches(
  doc: { readonly file: string; readonly path: string; readonly hash: string; readonly skippedLines: ReadonlySet<number> },
  batchSize: number,
  limits: Pick<IngestLimits, 'maxFileBytes'>,
): AsyncGenerator<NewFact[]> {
  const hash = createHash('sha256');
  const changed = (why: string) => new FactFileReadError(`${why} while its facts were stored; ingest it again`);
  let batch: NewFact[] = [];
  let number = 0;
  let position = 0;
  try {
    for await (const lines of fileLines(doc.file, limits.maxFileBytes, hash)) {
      if (lines === 'nul') throw changed('it changed');
      for (const line of lines) {
        number += 1;
        if (doc.skippedLines.has(number) || line === null || line.trim() === '') continue;
        const parsed = parseLine(line);
        if (!parsed.ok) throw changed('it changed');
        batch.push(toNewFact(parsed.fact, doc.path, position++));
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
    }
  } catch (error) {
    if (error instanceof FactFileReadError) throw error;
    throw changed(`it could not be read (${(error as Error).message})`);
  }
  if (hash.digest('hex') !== doc.hash) throw changed('it changed');
  if (batch.length > 0) yield batch;
}

/**
 * The file's lines, as many as each chunk completes (null: a line longer than `maxLineBytes`, dropped as it
 * is read), or 'nul' at the first chunk holding a NUL byte. Every byte read goes into `hash`. Lines end at
 * "\n" only, as String.split('\n') ends them: a line feed byte is never part of a longer UTF-8 sequence, so
 * each line decodes as it would within the whole text.
 */
async function* fileLines(file: string, maxLineBytes: number, hash: Hash): AsyncGenerator<(string | null)[] | 'nul'> {
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let tooLong = false;
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (chunk.includes(0)) {
      yield 'nul';
      return;
    }
    const lines: (string | null)[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const part = chunk.subarray(start, end);
      if (tooLong || carriedBytes + part.length > maxLineBytes) lines.push(null);
      else lines.push(carriedBytes === 0 ? part.toString('utf8') : Buffer.concat([...carried, part]).toString('utf8'));
      carried = [];
      carriedBytes = 0;
      tooLong = false;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (!tooLong && carriedBytes + rest.length > maxLineBytes) {
      tooLong = true;
      carried = [];
    } else if (!tooLong && rest.length > 0) {
      carried.push(rest);
      carriedBytes += rest.length;
    }
    if (lines.length > 0) yield lines;
  }
  yield [tooLong ? null : Buffer.concat(carried).toString('utf8')];
}

function describeLine(maxLineBytes: number): string {
  return describeLimit('maxFileBytes', maxLineBytes, formatBytes(maxLineBytes));
}
