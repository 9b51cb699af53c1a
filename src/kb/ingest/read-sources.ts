import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';

import { DEFAULT_INGEST_LIMITS, describeLimit, formatBytes, type IngestLimits } from '../../config/ingest-limits.js';
import { httpUrl } from '../../core/text/http-url.js';
import { decodeText } from '../parse/decode-text.js';
import { formatFromPath, parseDocument, type DocumentFormat, type ParsedDocument } from '../parse/index.js';
import { binaryFormatFromPath, type BinaryFormat } from '../parse/parse-binary.js';
import { scanFactFile, type NewFact } from './fact-lines.js';
import { parseInWorker } from './parse-in-worker.js';

/** What a file is read as: a text format, a binary document format, or ready-made facts. */
export type FileType = DocumentFormat | BinaryFormat | 'jsonl';

export type { NewFact } from './fact-lines.js';
export { readFactLines } from './fact-lines.js';

interface SourceBase {
  /** Its identity in the KB (SourceFile.key). */
  readonly path: string;
  /** Where it was read from, as given (SourceFile.file). */
  readonly file: string;
  readonly title: string | null;
  /** The document's own link (an HTML canonical URL, a PDF's metadata); null when it names none. */
  readonly url: string | null;
  readonly hash: string;
  /** How many of the facts are table or label–value rows. */
  readonly rows: number;
  /** Lines or parts that could not be used, with why. */
  readonly skipped: readonly string[];
}

/** A document read whole (within CANDOR_INGEST_MAX_FILE_BYTES), its facts in memory. */
export interface ReadDocument extends SourceBase {
  readonly type: DocumentFormat | BinaryFormat;
  readonly facts: readonly NewFact[];
}

/** A .jsonl of facts, of any size: read once for its hash and bad lines, and again a batch at a time when it is stored. */
export interface FactFile extends SourceBase {
  readonly type: 'jsonl';
  /** The numbers of the lines in `skipped`, left out again when its facts are read to be stored. */
  readonly skippedLines: ReadonlySet<number>;
}

export type SourceDocument = ReadDocument | FactFile;

/** Reading one file: a document, a file left out on purpose (nothing to read in it), or a file that could not be read. */
export type ReadOutcome =
  | { readonly kind: 'document'; readonly doc: SourceDocument }
  | { readonly kind: 'skipped' | 'error'; readonly type: FileType; readonly reason: string };

export interface Skipped {
  readonly path: string;
  readonly reason: string;
}

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
 * the problem, and the limit's setting where a limit was passed; only I/O errors throw. A .jsonl is read as it
 * streams, whatever its size: its facts are read again when they are stored (factFileBatches).
 */
export async function readSourceDocument(
  { file, key: path }: SourceFile,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): Promise<ReadOutcome> {
  const type = fileTypeOf(file);
  if (type === null) return { kind: 'error', type: 'text', reason: 'unsupported file type' };
  if (type === 'jsonl') {
    const scan = await scanFactFile(file, path, limits);
    if (!scan.ok) return { kind: 'error', type, reason: scan.reason };
    const { hash, skipped, skippedLines } = scan;
    return { kind: 'document', doc: { path, file, type, title: null, url: null, hash, rows: 0, skipped, skippedLines } };
  }
  const read = readAtMost(file, limits.maxFileBytes);
  if (!read.ok) {
    const limit = describeLimit('maxFileBytes', limits.maxFileBytes, formatBytes(limits.maxFileBytes));
    return { kind: 'error', type, reason: `${read.size}, larger than ${limit}` };
  }
  return readDocumentBytes(read.bytes, type, { path, file }, limits);
}

/**
 * Reads a document's bytes (a file's, or a page fetched by a source sync) into its facts, identified in the KB
 * by `path`; `file` is where it came from (a file's path, a page's URL). A PDF or .docx is read in a worker thread.
 */
export async function readDocumentBytes(
  bytes: Uint8Array,
  type: DocumentFormat | BinaryFormat,
  { path, file }: { path: string; file: string },
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): Promise<ReadOutcome> {
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (type === 'pdf' || type === 'docx') {
    const parsed = await parseInWorker(bytes, type, limits);
    if (!parsed.ok) return { kind: parsed.skipped ? 'skipped' : 'error', type, reason: parsed.reason };
    return { kind: 'document', doc: toReadDocument({ path, file }, type, hash, parsed.doc, parsed.notes) };
  }
  const content = decodeText(bytes);
  if (!content.ok) return { kind: 'error', type, reason: content.reason };
  return { kind: 'document', doc: toReadDocument({ path, file }, type, hash, parseDocument(content.text, type), []) };
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
function toReadDocument(
  { path, file }: { path: string; file: string },
  type: ReadDocument['type'],
  hash: string,
  parsed: ParsedDocument,
  notes: readonly string[],
): ReadDocument {
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
  return {
    path,
    file,
    type,
    hash,
    title: parsed.title,
    url: httpUrl(parsed.url),
    facts,
    rows,
    skipped: [...notes],
  };
}
