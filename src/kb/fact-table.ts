import { GrowableArray } from '../core/retrieval/growable-array.js';
import { TextColumn, type TextColumnArrays } from './text-column.js';

/** A fact as the store holds it, what an index is built from. */
export interface StoredFact {
  readonly id: number;
  readonly externalId: string | null;
  readonly text: string;
  readonly heading: string | null;
  /** The document's path in the KB, for document facts (its folder and file names are searched as context). */
  readonly documentPath?: string | null;
  readonly source: string;
  /** Null only for rows written before passages were stored; such a fact is its own passage. */
  readonly passage: string | null;
  readonly confidence: number;
  /** Where people can open the fact's source (facts.url); null or absent when unknown. */
  readonly url?: string | null;
  /** Its document's title, for citations; null for ready-made (.jsonl) facts and untitled documents. */
  readonly title?: string | null;
  /** Other wording that finds it, searched like a heading: an expert fact's question. */
  readonly alias?: string | null;
}

/** The columns whose neighbouring facts mostly repeat a value, kept as runs. */
const RUN_COLUMNS = ['heading', 'documentPath', 'source', 'passage', 'url', 'title', 'alias'] as const;
type RunColumnName = (typeof RUN_COLUMNS)[number];

/** A run column's parts: each run's value, and each fact's run. */
export interface RunColumnParts {
  readonly values: readonly (string | null)[];
  readonly runs: Uint32Array;
}

/** A fact table's parts, as a snapshot stores them: typed arrays, and the run columns' values. */
export interface FactTableParts {
  readonly ids: Float64Array;
  readonly confidences: Float64Array;
  readonly texts: TextColumnArrays;
  readonly externalIds: TextColumnArrays;
  readonly runColumns: Readonly<Record<RunColumnName, RunColumnParts>>;
}

/**
 * A string column whose neighbouring facts mostly repeat a value (a document's facts share its source, title and
 * path; a section's share its heading and passage): each run of equal values is kept once.
 */
class RunColumn {
  private values: (string | null)[] = [];
  private readonly building = new GrowableArray((n) => new Uint32Array(n));
  private runs: Uint32Array | null = null;

  static of(parts: RunColumnParts): RunColumn {
    const column = new RunColumn();
    column.values = [...parts.values];
    column.runs = parts.runs;
    return column;
  }

  append(value: string | null | undefined): void {
    const v = value ?? null;
    const last = this.values.length - 1;
    if (last < 0 || this.values[last] !== v) this.values.push(v);
    this.building.push(this.values.length - 1);
  }

  get(position: number): string | null {
    return this.values[this.runs ? (this.runs[position] as number) : this.building.at(position)] ?? null;
  }

  parts(): RunColumnParts {
    this.runs ??= this.building.trimmed();
    return { values: this.values, runs: this.runs };
  }
}

/**
 * A KB version's facts, column by column: one object per fact would cost a header and a copy of every
 * repeated string (heading, source, passage, title, path) per fact, and texts are kept as UTF-8 bytes.
 * Facts are read back as StoredFact objects only when asked for (the evidence of one ask). A table read
 * from a snapshot (`of`) is used as its arrays come.
 */
export class FactTable {
  private readonly ids = new GrowableArray((n) => new Float64Array(n));
  private readonly confidences = new GrowableArray((n) => new Float64Array(n));
  private texts = new TextColumn();
  private externalIds = new TextColumn();
  private readonly columns = Object.fromEntries(RUN_COLUMNS.map((name) => [name, new RunColumn()])) as Record<RunColumnName, RunColumn>;
  private sealedIds: Float64Array | null = null;
  private sealedConfidences: Float64Array | null = null;
  private byExternalId: Map<string, number> | null = null;

  /** A sealed table of these parts (a snapshot's). */
  static of(parts: FactTableParts): FactTable {
    const table = new FactTable();
    table.sealedIds = parts.ids;
    table.sealedConfidences = parts.confidences;
    table.texts = TextColumn.of(parts.texts);
    table.externalIds = TextColumn.of(parts.externalIds);
    for (const name of RUN_COLUMNS) table.columns[name] = RunColumn.of(parts.runColumns[name]);
    return table;
  }

  get size(): number {
    return this.sealedIds ? this.sealedIds.length : this.ids.length;
  }

  append(row: StoredFact): void {
    if (this.sealedIds) throw new Error('FactTable: facts cannot be added once sealed');
    this.ids.push(row.id);
    this.confidences.push(row.confidence);
    this.texts.append(row.text);
    this.externalIds.append(row.externalId);
    for (const name of RUN_COLUMNS) this.columns[name].append(row[name]);
  }

  /** Called once every fact is in: compacts the columns. */
  seal(): void {
    if (this.sealedIds) return;
    this.sealedIds = this.ids.trimmed();
    this.sealedConfidences = this.confidences.trimmed();
  }

  /** The table's parts (sealing it). */
  parts(): FactTableParts {
    this.seal();
    const runColumns = Object.fromEntries(RUN_COLUMNS.map((name) => [name, this.columns[name].parts()])) as Record<
      RunColumnName,
      RunColumnParts
    >;
    return {
      ids: this.sealedIds as Float64Array,
      confidences: this.sealedConfidences as Float64Array,
      texts: this.texts.arrays(),
      externalIds: this.externalIds.arrays(),
      runColumns,
    };
  }

  /** The store id of the fact with this external id, if any (the lookup is built on first use: evaluation only). */
  idOfExternal(externalId: string): number | undefined {
    if (!this.byExternalId) {
      this.byExternalId = new Map();
      for (let position = 0; position < this.size; position++) {
        const external = this.externalIds.get(position);
        if (external !== null) this.byExternalId.set(external, this.idAt(position));
      }
    }
    return this.byExternalId.get(externalId);
  }

  at(position: number): StoredFact {
    const column = (name: RunColumnName) => this.columns[name].get(position);
    return {
      id: this.idAt(position),
      externalId: this.externalIds.get(position),
      text: this.textAt(position),
      heading: column('heading'),
      documentPath: column('documentPath'),
      source: column('source') as string,
      passage: column('passage'),
      confidence: this.sealedConfidences ? (this.sealedConfidences[position] as number) : this.confidences.at(position),
      url: column('url'),
      title: column('title'),
      alias: column('alias'),
    };
  }

  idAt(position: number): number {
    return this.sealedIds ? (this.sealedIds[position] as number) : this.ids.at(position);
  }

  textAt(position: number): string {
    return this.texts.get(position) as string;
  }

  passageAt(position: number): string | null {
    return this.columns.passage.get(position);
  }
}
