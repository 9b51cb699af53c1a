import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { z } from 'zod';

import { CandorError } from '../../kernel/errors.js';

const Entry = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fact'),
    key: z.string(),
    factId: z.string(),
    questions: z.array(z.object({ question: z.string(), expected: z.string() })),
  }),
  z.object({ kind: z.literal('category'), key: z.string(), category: z.string(), questions: z.array(z.string()) }),
  // A model's answer to a question over given evidence (`eval calibrate --grounding`), keyed by both and the prompt.
  z.object({
    kind: z.literal('draft'),
    key: z.string(),
    answerable: z.boolean(),
    answer: z.string(),
    citations: z.array(z.number().int()),
  }),
]);
export type CacheEntry = z.infer<typeof Entry>;

/**
 * What the model has generated so far for one output file, one JSON line per
 * fact, category or draft answer, appended as each arrives: a run that fails part-way is
 * resumed by the next run, which asks only for what is missing. A torn last
 * line (a crash mid-write) is cut off; any other bad line is an error.
 */
export class GenerationCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(readonly path: string | null) {
    if (!path || !existsSync(path)) return;
    let text = readFileSync(path, 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) {
      const cut = text.lastIndexOf('\n') + 1;
      if (parse(text.slice(cut))) {
        appendFileSync(path, '\n');
        text += '\n';
      } else {
        // A crash mid-write leaves a torn last record: cut it off, so the next record starts a clean line.
        text = text.slice(0, cut);
        truncateSync(path, Buffer.byteLength(text));
      }
    }
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const entry = parse(line);
      if (!entry)
        throw new CandorError(
          'file_malformed',
          `${path} line ${i + 1} is not a generation record; it is Candor's resume file for this output: fix or delete it to start over.`,
        );
      this.entries.set(entry.key, entry);
    });
  }

  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }

  add(entry: CacheEntry): void {
    this.entries.set(entry.key, entry);
    if (this.path) appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }
}

function parse(line: string): CacheEntry | null {
  try {
    const parsed = Entry.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
