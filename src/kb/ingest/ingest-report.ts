import type { FileType, Skipped, SourceDocument } from './read-sources.js';

/** Per file type, what one ingest run did. */
export interface TypeCounts {
  /** Files read as documents (stored, changed or unchanged). */
  files: number;
  /** Facts stored from them in this run (0 for unchanged files). */
  facts: number;
  /** Of those facts, table rows and label–value rows. */
  tableRows: number;
  /** Files left out on purpose, and lines or pages left out of read files. */
  skipped: number;
  /** Files that could not be read (corrupt, encrypted, truncated, binary, too large). */
  errors: number;
}

export type CountsByType = Partial<Record<FileType | 'other', TypeCounts>>;

/** Tallies a run by file type; a path without a known type counts as "other". */
export class TypeTally {
  private readonly counts: CountsByType = {};

  constructor(private readonly typeOf: (path: string) => FileType | null) {}

  read(doc: SourceDocument): void {
    const counts = this.of(doc.type);
    counts.files += 1;
    counts.skipped += doc.skipped.length;
  }

  stored(doc: SourceDocument, facts: number): void {
    const counts = this.of(doc.type);
    counts.facts += facts;
    counts.tableRows += doc.rows;
  }

  /** A file that was read but could not be stored (a .jsonl that changed before its facts were read again): an error, not a file. */
  failed(doc: SourceDocument): void {
    const counts = this.of(doc.type);
    counts.files -= 1;
    counts.skipped -= doc.skipped.length;
    counts.errors += 1;
  }

  left(entry: Skipped, as: 'skipped' | 'errors'): void {
    this.of(this.typeOf(entry.path) ?? 'other')[as] += 1;
  }

  result(): CountsByType {
    return this.counts;
  }

  private of(type: FileType | 'other'): TypeCounts {
    return (this.counts[type] ??= { files: 0, facts: 0, tableRows: 0, skipped: 0, errors: 0 });
  }
}
