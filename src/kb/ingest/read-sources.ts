import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';

import { formatFromPath, parseDocument } from '../parse/index.js';

/** A fact ready to store, before it has an id. */
export interface NewFact {
  readonly externalId: string | null;
  readonly text: string;
  readonly heading: string | null;
  readonly position: number;
  readonly source: string;
  readonly confidence: number;
}

export interface SourceDocument {
  readonly path: string;
  readonly title: string | null;
  readonly hash: string;
  readonly facts: readonly NewFact[];
  /** Lines or parts that could not be used, with why. */
  readonly skipped: readonly string[];
}

export interface Skipped {
  readonly path: string;
  readonly reason: string;
}

/** Files larger than this are refused: a KB document this big is almost surely a mistake. @default 50 MiB */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
const FACT_LINE = z.object({
  id: z.string().min(1).max(512),
  text: z.string().trim().min(1).max(20_000),
  source: z.string().min(1).max(2048).optional(),
  confidence: z.number().min(0).max(1).optional(),
});

/** A file to ingest and the name it is known by in the KB. */
export interface SourceFile {
  /** Where to read it from, as given. */
  readonly file: string;
  /**
   * Its identity in the KB: the path below the folder that was named on the command line, or the
   * file's own name when it was named directly. The same file is the same document whatever the
   * working directory or however its path is spelled, and a moved checkout keeps its KB.
   */
  readonly key: string;
}

/** Expands files and folders into the supported files beneath them, sorted, with the rest reported. */
export function listSourceFiles(paths: readonly string[]): { files: SourceFile[]; skipped: Skipped[] } {
  const files: SourceFile[] = [];
  const skipped: Skipped[] = [];
  const byKey = new Map<string, string>();
  const visit = (path: string, root: string): void => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      skipped.push({ path, reason: 'not found' });
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) if (!entry.startsWith('.')) visit(join(path, entry), root);
    } else if (extname(path).toLowerCase() === '.jsonl' || formatFromPath(path) !== null) {
      const key = (path === root ? basename(path) : relative(root, path)).split(sep).join('/');
      const earlier = byKey.get(key);
      if (earlier === undefined) {
        byKey.set(key, resolve(path));
        files.push({ file: path, key });
      } else if (earlier !== resolve(path)) {
        skipped.push({ path, reason: `another file in this run is also named "${key}" (${earlier}); ingest their common folder instead` });
      }
    } else {
      skipped.push({ path, reason: `unsupported file type "${extname(path) || '(none)'}"` });
    }
  };
  for (const path of paths) visit(path, path);
  return { files, skipped };
}

/** Reads and splits one file; throws with a readable message for binary or oversized input. */
export function readSourceDocument({ file, key: path }: SourceFile): SourceDocument {
  const bytes = readFileSync(file);
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  if (bytes.includes(0)) throw new Error('binary content (NUL bytes), not text');
  const content = bytes.toString('utf8');
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (extname(file).toLowerCase() === '.jsonl') return { path, hash, ...readFactLines(content, path) };
  const format = formatFromPath(file);
  if (format === null) throw new Error('unsupported file type');
  const parsed = parseDocument(content, format);
  const facts = parsed.facts.map((fact) => ({
    externalId: null,
    text: fact.text,
    heading: fact.heading,
    position: fact.position,
    source: fact.heading ? `${path} › ${fact.heading}` : path,
    confidence: 1,
  }));
  return { path, hash, title: parsed.title, facts, skipped: [] };
}

function readFactLines(content: string, path: string): Omit<SourceDocument, 'path' | 'hash'> {
  const facts: NewFact[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  content.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      skipped.push(`line ${i + 1}: not valid JSON`);
      return;
    }
    const fact = FACT_LINE.safeParse(json);
    if (!fact.success) {
      skipped.push(`line ${i + 1}: ${fact.error.issues.map((e) => `${e.path.join('.') || 'line'} ${e.message}`).join('; ')}`);
    } else if (seen.has(fact.data.id)) {
      skipped.push(`line ${i + 1}: duplicate id "${fact.data.id}"`);
    } else {
      seen.add(fact.data.id);
      facts.push({
        externalId: fact.data.id,
        text: fact.data.text,
        heading: null,
        position: facts.length,
        source: fact.data.source ?? `${path}#${fact.data.id}`,
        confidence: fact.data.confidence ?? 1,
      });
    }
  });
  return { title: null, facts, skipped };
}
