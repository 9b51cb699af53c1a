import { FactTable, type FactTableParts, type StoredFact } from './fact-table.js';

/** A fact segment's parts, as a snapshot stores them (what passages and experts are follows from them). */
export interface FactSegmentParts {
  readonly table: FactTableParts;
  readonly previous: Int32Array;
  readonly next: Int32Array;
}

/** An expert fact's source starts with this: "expert:slack:U123". */
export const EXPERT_SOURCE_PREFIX = 'expert:';

export function isExpertSource(source: string): boolean {
  return source.startsWith(EXPERT_SOURCE_PREFIX);
}

/**
 * The facts of one index segment (those a KB version added, or a merge of segments), in the order the
 * segment's BM25 postings number them: the fact table, each fact's neighbours in its passage, and which
 * facts are experts' answers. Immutable once built; index versions share it.
 */
export class FactSegment {
  /** The file this segment is stored in, in the snapshot folder (see IndexSnapshots); null: not stored yet. */
  storedIn: string | null = null;

  constructor(
    readonly table: FactTable,
    /** Per position: the previous fact of the same passage in this segment, or -1. */
    private readonly previous: Int32Array,
    /** Per position: the next fact of the same passage in this segment, or -1. */
    private readonly next: Int32Array,
    /** Each passage's first position in this segment. */
    private readonly firstOf: ReadonlyMap<string, number>,
    /** Store ids of experts' answers (source `expert:…`), as opposed to facts of the KB's documents. */
    readonly expertKeys: ReadonlySet<number>,
  ) {}

  /** The segment of these parts (a snapshot's): the table as stored, its passages' first facts and its experts found again. */
  static of(parts: FactSegmentParts): FactSegment {
    const table = FactTable.of(parts.table);
    const firstOf = new Map<string, number>();
    const experts = new Set<number>();
    const { passage, source } = parts.table.runColumns;
    let run = -1;
    for (let position = 0; position < table.size; position++) {
      const at = passage.runs[position] as number;
      if (at !== run) {
        run = at;
        const name = passage.values[at];
        if (name != null && !firstOf.has(name)) firstOf.set(name, position);
      }
      if (isExpertSource(source.values[source.runs[position] as number] ?? '')) experts.add(table.idAt(position));
    }
    return new FactSegment(table, parts.previous, parts.next, firstOf, experts);
  }

  parts(): FactSegmentParts {
    return { table: this.table.parts(), previous: this.previous, next: this.next };
  }

  get size(): number {
    return this.table.size;
  }

  /** The passage of the fact at `position`; null: it has none, and is its own. */
  passageAt(position: number): string | null {
    return this.table.passageAt(position);
  }

  /** Whether a fact of this passage not in `gone` comes before `position` in this segment. */
  hasEarlierOfPassage(position: number, gone: ReadonlySet<number>): boolean {
    for (let p = this.previous[position] as number; p >= 0; p = this.previous[p] as number) if (!gone.has(p)) return true;
    return false;
  }

  /** Whether this segment holds a fact of the passage that is not in `gone`. */
  holdsPassage(passage: string, gone: ReadonlySet<number>): boolean {
    for (let p = this.firstOf.get(passage) ?? -1; p >= 0; p = this.next[p] as number) if (!gone.has(p)) return true;
    return false;
  }
}

/** A segment's facts as they are read (row by row, or page by page), then sealed into a FactSegment. */
export class CollectedFacts {
  private readonly table = new FactTable();
  private readonly expertKeys = new Set<number>();
  private previous: number[] = [];
  private next: number[] = [];
  private readonly firstOf = new Map<string, number>();
  private lastOf: Map<string, number> | null = new Map();
  private sealed: FactSegment | null = null;

  static of(rows: Iterable<StoredFact>): CollectedFacts {
    const collected = new CollectedFacts();
    for (const row of rows) collected.add(row);
    return collected;
  }

  add(row: StoredFact): void {
    const lastOf = this.lastOf;
    if (!lastOf) throw new Error('CollectedFacts: facts cannot be added once sealed');
    const position = this.table.size;
    this.table.append(row);
    if (isExpertSource(row.source)) this.expertKeys.add(row.id);
    const passage = row.passage;
    if (passage === null) {
      // Its own passage: no other fact shares it.
      this.previous.push(-1);
      this.next.push(-1);
      return;
    }
    const last = lastOf.get(passage);
    this.previous.push(last ?? -1);
    this.next.push(-1);
    if (last === undefined) this.firstOf.set(passage, position);
    else this.next[last] = position;
    lastOf.set(passage, position);
  }

  /** The facts collected, as a segment (no more can be added). */
  seal(): FactSegment {
    if (this.sealed) return this.sealed;
    this.lastOf = null;
    this.table.seal();
    this.sealed = new FactSegment(this.table, Int32Array.from(this.previous), Int32Array.from(this.next), this.firstOf, this.expertKeys);
    this.previous = [];
    this.next = [];
    return this.sealed;
  }
}
