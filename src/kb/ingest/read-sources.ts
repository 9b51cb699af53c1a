import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';

import { httpUrl } from '../../core/text/http-url.js';
import { DEFAULT_INGEST_LIMITS, describeLimit, formatBytes, type IngestLimits } from '../ingest-limits.js';
import { decodeText } from '../parse/decode-text.js';
import { formatFromPath, parseDocument, type DocumentFormat, type ParsedDocument } from '../parse/index.js';
import { binaryFormatFromPath, type BinaryFormat } from '../parse/parse-binary.js';
import { parseInWorker } from './parse-in-worker.js';

/** What a file is read as: a text format, a binary document format, or ready-made facts. */
export type FileType = DocumentFormat | BinaryFormat | 'jsonl';

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

export interface SourceDocument {
  readonly path: string;
  readonly type: FileType;
  readonly title: string | null;
  /** The document's own link (an HTML canonical URL, a PDF's metadata); null when it names none. */
  readonly url: string | null;
  readonly hash: string;
  readonly facts: readonly NewFact[];
  /** How many of the facts are table or label–value rows. */
  readonly rows: number;
  /** Lines or parts that could not be used, with why. */
  readonly skipped: readonly string[];
}

/** Reading one file: a document, a file left out on purpose (nothing to read in it), or a file that could not be read. */
export type ReadOutcome =
  | { readonly kind: 'document'; readonly doc: SourceDocument }
  | { readonly kind: 'skipped' | 'error'; readonly type: FileType; readonly reason: string };

export interface Skipped {
  readonly path: string;
  readonly reason: string;
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
  /** The name of the folder `key` is relative to (the one named, or the named file's own folder): CANDOR_SOURCE_URLS may name it. */
  readonly folder?: string;
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
    } else if (fileTypeOf(path) !== null) {
      const key = (path === root ? basename(path) : relative(root, path)).split(sep).join('/');
      const earlier = byKey.get(key);
      if (earlier === undefined) {
        byKey.set(key, resolve(path));
        files.push({ file: path, key, folder: basename(path === root ? dirname(resolve(path)) : resolve(root)) });
      } else if (earlier !== resolve(path)) {
        skipped.push({ path, reason: `another file in this run is also named "${key}" (${earlier}); ingest their common folder instead` });
      }
    } else {
      const ext = extname(path).toLowerCase();
      const hint = ext === '.doc' ? ' (save it as .docx)' : '';
      skipped.push({ path, reason: `unsupported file type "${extname(path) || '(none)'}"${hint}` });
    }
  };
  for (const path of paths) visit(path, path);
  return { files, skipped };
}

/** The type a file is read as, from its extension; null when Candor does not read it. */
export function fileTypeOf(path: string): FileType | null {
  if (extname(path).toLowerCase() === '.jsonl') return 'jsonl';
  return formatFromPath(path) ?? binaryFormatFromPath(path);
}

/**
 * Reads and splits one file within the limits. Expected failures (over a limit, binary where text was
 * expected, encrypted, corrupt or truncated documents, scans without text) are outcomes with a message naming
 * the problem, and the limit's setting where a limit was passed; only I/O errors throw.
 */
export async function readSourceDocument(
  { file, key: path }: SourceFile,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): Promise<ReadOutcome> {
  const type = fileTypeOf(file);
  if (type === null) return { kind: 'error', type: 'text', reason: 'unsupported file type' };
  const read = readAtMost(file, limits.maxFileBytes);
  if (!read.ok) {
    const limit = describeLimit('maxFileBytes', limits.maxFileBytes, formatBytes(limits.maxFileBytes));
    return { kind: 'error', type, reason: `${read.size}, larger than ${limit}` };
  }
  const bytes = read.bytes;
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (type === 'pdf' || type === 'docx') {
    const parsed = await parseInWorker(bytes, type, limits);
    if (!parsed.ok) return { kind: parsed.skipped ? 'skipped' : 'error', type, reason: parsed.reason };
    return { kind: 'document', doc: toSourceDocument(path, type, hash, parsed.doc, parsed.notes) };
  }
  const content = decodeText(bytes);
  if (!content.ok) return { kind: 'error', type, reason: content.reason };
  if (type === 'jsonl') return { kind: 'document', doc: { path, type, hash, rows: 0, url: null, ...readFactLines(content.text, path) } };
  return { kind: 'document', doc: toSourceDocument(path, type, hash, parseDocument(content.text, type), []) };
}

const READ_CHUNK = 1024 * 1024;

/**
 * The file's bytes, or its size when it is over `maxBytes`: the size is looked at before anything is read,
 * and a file that grows while it is read is stopped one byte past the limit.
 */
function readAtMost(file: string, maxBytes: number): { ok: true; bytes: Buffer } | { ok: false; size: string } {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) return { ok: false, size: formatBytes(size) };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return { ok: false, size: `more than ${formatBytes(maxBytes)} (it grew while being read)` };
    }
  } finally {
    closeSync(fd);
  }
}

/** Facts with their source locators: "file.pdf › p. 6 › Table A > Limits", "guide.md › Claims". */
function toSourceDocument(path: string, type: FileType, hash: string, parsed: ParsedDocument, notes: readonly string[]): SourceDocument {
  const facts = parsed.facts.map((fact) => ({
    externalId: null,
    text: fact.text,
    heading: fact.heading,
    position: fact.position,
    source: [path, fact.page === undefined ? null : `p. ${fact.page}`, fact.heading].filter((part) => part).join(' › '),
    // A passage is the document and section: a section that runs over a page break is still one passage.
    passage: fact.heading ? `${path} › ${fact.heading}` : path,
    confidence: 1,
    url: null,
  }));
  const rows = parsed.facts.filter((fact) => fact.row === true).length;
  return { path, type, hash, title: parsed.title, url: httpUrl(parsed.url), facts, rows, skipped: [...notes] };
}

export function readFactLines(content: string, path: string): Pick<SourceDocument, 'title' | 'facts' | 'skipped'> {
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
        heading: fact.data.heading ?? null,
        position: facts.length,
        source: fact.data.source ?? `${path}#${fact.data.id}`,
        passage: fact.data.passage === undefined ? `${path}#${fact.data.id}` : `${path}#${fact.data.passage}`,
        confidence: fact.data.confidence ?? 1,
        url: fact.data.url ?? null,
      });
    }
  });
  return { title: null, facts, skipped };
}
