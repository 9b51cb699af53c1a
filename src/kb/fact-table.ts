import { GrowableArray } from '../core/retrieval/growable-array.js';
import { KeyPositions } from '../core/retrieval/key-positions.js';

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

/**
 * A string column whose neighbouring facts mostly repeat a value (a document's facts share its source, title and
 * path; a section's share its heading and passage): each run of equal values is kept once.
 */
class RunColumn {
  private readonly values: (string | null)[] = [];
  private readonly positions = new GrowableArray((n) => new Uint32Array(n));

  append(value: string | null | undefined): void {
    const v = value ?? null;
    const last = this.values.length - 1;
    if (last < 0 || this.values[last] !== v) this.values.push(v);
    this.positions.push(this.values.length - 1);
  }

  get(position: number): string | null {
    return this.values[this.positions.at(position)] ?? null;
  }
}

/**
 * A KB version's facts, column by column: one object per fact would cost a header and a copy of every
 * repeated string (heading, source, passage, title, path) per fact. Facts are read back as StoredFact
 * objects only when asked for (the evidence of one ask).
 */
export class FactTable {
  private readonly ids: number[] = [];
  private readonly texts: string[] = [];
  private readonly externalIds: (string | null)[] = [];
  private readonly confidences: number[] = [];
  private readonly heading = new RunColumn();
  private readonly documentPath = new RunColumn();
  private readonly source = new RunColumn();
  private readonly passage = new RunColumn();
  private readonly url = new RunColumn();
  private readonly title = new RunColumn();
  private readonly alias = new RunColumn();
  private positions = new KeyPositions([]);
  private byExternalId: Map<string, number> | null = null;

  get size(): number {
    return this.ids.length;
  }

  append(row: StoredFact): void {
    this.ids.push(row.id);
    this.texts.push(row.text);
    this.externalIds.push(row.externalId);
    this.confidences.push(row.confidence);
    this.heading.append(row.heading);
    this.documentPath.append(row.documentPath);
    this.source.append(row.source);
    this.passage.append(row.passage);
    this.url.append(row.url);
    this.title.append(row.title);
    this.alias.append(row.alias);
  }

  /** Called once every fact is in: compacts the columns and indexes ids. */
  seal(): void {
    this.positions = new KeyPositions(this.ids);
  }

  /** The position of the fact with this store id, or -1 (valid once sealed). */
  positionOf(id: number): number {
    return this.positions.of(id);
  }

  /** The store id of the fact with this external id, if any (the lookup is built on first use: evaluation only). */
  idOfExternal(externalId: string): number | undefined {
    if (!this.byExternalId) {
      this.byExternalId = new Map();
      this.externalIds.forEach((external, position) => {
        if (external !== null) this.byExternalId?.set(external, this.ids[position] as number);
      });
    }
    return this.byExternalId.get(externalId);
  }

  at(position: number): StoredFact {
    return {
      id: this.ids[position] as number,
      externalId: this.externalIds[position] ?? null,
      text: this.texts[position] as string,
      heading: this.heading.get(position),
      documentPath: this.documentPath.get(position),
      source: this.source.get(position) as string,
      passage: this.passage.get(position),
      confidence: this.confidences[position] as number,
      url: this.url.get(position),
      title: this.title.get(position),
      alias: this.alias.get(position),
    };
  }

  idAt(position: number): number {
    return this.ids[position] as number;
  }

  textAt(position: number): string {
    return this.texts[position] as string;
  }

  passageAt(position: number): string | null {
    return this.passage.get(position);
  }

  externalIdAt(position: number): string | null {
    return this.externalIds[position] ?? null;
  }
}
