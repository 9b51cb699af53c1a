/**
 * Per-file limits of ingestion. A file over one fails alone, with a message naming the limit and its setting;
 * the rest of the batch is stored. They bound what one file may cost, whatever its bytes claim.
 */
export interface IngestLimits {
  /**
   * Documents (read whole) larger than this are refused before they are read. A .jsonl is streamed, whatever
   * its size: only a line of it longer than this is skipped. @default 50 MiB
   */
  readonly maxFileBytes: number;
  /** The sum of a .docx's parts once inflated, as its ZIP directory declares them (checked before inflating). @default 256 MiB */
  readonly maxDocxBytes: number;
  /** PDFs with more pages are refused before any page is read. @default 2000 */
  readonly maxPdfPages: number;
  /** Memory (MiB) the process may grow by while one PDF or .docx is read, in a worker thread. @default 1024 */
  readonly maxParseMb: number;
  /** Time one PDF or .docx may take to read. @default 300 000 ms */
  readonly parseTimeoutMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxFileBytes: 50 * MiB,
  maxDocxBytes: 256 * MiB,
  maxPdfPages: 2000,
  maxParseMb: 1024,
  parseTimeoutMs: 300_000,
};

/** The limits given, the defaults for the rest. */
export function withDefaults(limits: Partial<IngestLimits> = {}): IngestLimits {
  const given = Object.entries(limits).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_INGEST_LIMITS, ...Object.fromEntries(given) };
}

/** The setting behind each limit, named in every refusal so that a person knows what to raise. */
export const LIMIT_SETTINGS: Readonly<Record<keyof IngestLimits, string>> = {
  maxFileBytes: 'CANDOR_INGEST_MAX_FILE_BYTES',
  maxDocxBytes: 'CANDOR_INGEST_MAX_DOCX_BYTES',
  maxPdfPages: 'CANDOR_INGEST_MAX_PDF_PAGES',
  maxParseMb: 'CANDOR_INGEST_MAX_PARSE_MB',
  parseTimeoutMs: 'CANDOR_INGEST_PARSE_TIMEOUT_MS',
};

/** "the limit of 256 MiB (CANDOR_INGEST_MAX_DOCX_BYTES=268435456)": the limit as people read it, and its setting. */
export function describeLimit(limit: keyof IngestLimits, value: number, shown: string = String(value)): string {
  return `the limit of ${shown} (${LIMIT_SETTINGS[limit]}=${value})`;
}

/** Bytes for people: "312 B", "9.8 KiB", "1.0 GiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
