import { readFactLines, type NewFact } from '../../kb/ingest/read-sources.js';
import { KnowledgeIndex, type StoredFact } from '../../kb/knowledge-index.js';

/** A benchmark question: answerable ones name the facts that answer them (and, for reading-comprehension sets, the answer texts). */
export interface BenchmarkQuestion {
  readonly id: string;
  readonly question: string;
  /** External ids of the facts that answer it (empty for unanswerable questions). */
  readonly factIds: readonly string[];
  /** Answer texts: a cited fact holding one of them also counts as right. */
  readonly answers?: readonly string[];
  readonly answerable: boolean;
  /** Whether the question belongs to the set's reported figures (SQuAD: the two articles with unanswerable questions). */
  readonly reported: boolean;
}

/** A knowledge base as `candor ingest` would store it, and questions about it. */
export interface BenchmarkSet {
  readonly name: string;
  readonly facts: readonly NewFact[];
  readonly questions: readonly BenchmarkQuestion[];
  /** What the set's README asks to be reported. */
  readonly kind: 'leave-one-out' | 'unanswerable';
}

/** Facts from .jsonl text exactly as ingestion reads them (bad lines are an error: a benchmark must be exact). */
export function factsFromJsonl(content: string, path: string): NewFact[] {
  const { facts, skipped } = readFactLines(content, path);
  if (skipped.length > 0) throw new Error(`${path}: ${skipped.slice(0, 3).join('; ')}`);
  return [...facts];
}

/** The in-memory index `candor ask` would search for this set (ids in file order, as a fresh ingest assigns them). */
export function indexOf(set: BenchmarkSet): KnowledgeIndex {
  const rows: StoredFact[] = set.facts.map((fact, i) => ({
    id: i + 1,
    externalId: fact.externalId,
    text: fact.text,
    heading: fact.heading,
    source: fact.source,
    passage: fact.passage,
    confidence: fact.confidence,
  }));
  return new KnowledgeIndex(0, set.name, 1, rows);
}

/** Whether cited facts answer the question: one of its facts, or a fact holding one of its answer texts. */
export function citesRightFact(
  question: BenchmarkQuestion,
  cited: readonly { readonly externalId: string | null; readonly text: string }[],
): boolean {
  const answers = (question.answers ?? []).map((a) => a.toLowerCase());
  return cited.some(
    (fact) =>
      (fact.externalId !== null && question.factIds.includes(fact.externalId)) ||
      answers.some((a) => a !== '' && fact.text.toLowerCase().includes(a)),
  );
}
