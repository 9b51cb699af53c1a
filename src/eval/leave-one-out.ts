import { z } from 'zod';

import type { Ask } from '../ask/ask-service.js';
import type { Decision } from '../ask/decision.js';
import { GATE_LAYER_NAMES } from '../core/gate/gate.js';
import type { Verdict } from '../core/gate/types.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { readJsonl } from '../kb/read-jsonl.js';
import { CandorError } from '../kernel/errors.js';

const QuestionLine = z
  .object({
    id: z.string().min(1),
    question: z.string().min(1),
    /** The fact that answers it (KnowOrNot: its question was written from it). */
    factId: z.string().min(1).optional(),
    /** Several facts that answer it (all are left out together). */
    factIds: z.array(z.string().min(1)).optional(),
    /** Answer texts: a cited fact holding one of them also counts as right (reading-comprehension sets). */
    answers: z.array(z.string()).optional(),
    /** false: the KB does not hold the answer; refusing is right. @default true */
    answerable: z.boolean().default(true),
    /** A generated question's category (eval generate): per-fact, or a don't-know category. */
    category: z.string().min(1).optional(),
  })
  .refine((q) => !q.answerable || q.factId !== undefined || (q.factIds?.length ?? 0) > 0 || (q.answers?.length ?? 0) > 0, {
    message: 'an answerable question needs "factId", "factIds" or "answers" (or "answerable": false)',
  });
export type LooQuestion = z.infer<typeof QuestionLine>;

/** One ask's outcome as the report keeps it; `score` is the answerability score (absent when the gate could not run). */
export interface LooRun {
  readonly decision: 'answer' | 'abstain';
  readonly evidenceFactIds: string[];
  readonly reasons: readonly Verdict[];
  readonly score?: number;
}

export interface LooItem {
  readonly id: string;
  readonly full: LooRun;
  /** The ask with the question's facts left out; absent for unanswerable questions and those naming no fact. */
  readonly loo?: LooRun;
  readonly answerable: boolean;
  /** Answered citing one of its facts, or a fact holding one of its answers (answerable questions). */
  readonly fullRight?: boolean;
}

export interface LooReport {
  readonly summary: {
    /** Questions in the file. */
    readonly n: number;
    /** Of the answerable questions: answered at all, and answered citing a right fact. */
    readonly fullAnswered: number;
    readonly fullAnsweredWithFact: number;
    /** Of the answerable questions that name their facts: refused with those facts left out. */
    readonly looAbstained: number;
    /** How often each reason code decided a refusal, per run. */
    readonly fullRefusedBy: Record<string, number>;
    readonly looRefusedBy: Record<string, number>;
    /**
     * Asks that the gate (rules and answerability score, before any model call)
     * refused: with a model configured, each is a model call avoided.
     */
    readonly hardGateRefusals: number;
    /** Present when the file holds unanswerable questions: how many, and the share refused. */
    readonly unanswerable?: { readonly n: number; readonly abstained: number };
  };
  readonly items: LooItem[];
}

/** Reads a questions file, naming every bad line rather than skipping it: an evaluation must be exact. */
export function readLooQuestions(path: string): LooQuestion[] {
  return readJsonl(path, QuestionLine, { expected: '{"id","question","factId"}, or "answers", or "answerable": false' }).map(
    (row) => row.value,
  );
}

/** The facts a question names. */
export function factIdsOf(q: LooQuestion): string[] {
  return [...new Set([...(q.factId === undefined ? [] : [q.factId]), ...(q.factIds ?? [])])];
}

/** Whether a decision cites one of the question's facts, or a fact holding one of its answers. */
export function citesRight(
  q: LooQuestion,
  decision: { readonly evidence: readonly Pick<Decision['evidence'][number], 'factId' | 'text'>[] },
): boolean {
  const ids = factIdsOf(q);
  const answers = (q.answers ?? []).map((a) => a.toLowerCase()).filter((a) => a !== '');
  return decision.evidence.some((e) => ids.includes(e.factId) || answers.some((a) => e.text.toLowerCase().includes(a)));
}

/**
 * KnowOrNot leave-one-out: each answerable question is asked with the full KB
 * (it should be answered, citing its fact) and with its facts excluded for that
 * one ask (abstaining is then the right answer); an unanswerable question is
 * asked once and should be refused. The stored KB is never changed.
 */
export async function runLeaveOneOut(
  deps: { ask: Ask; indexes: KnowledgeIndexCache },
  kb: string,
  questions: readonly LooQuestion[],
  onProgress?: (done: number, total: number) => void,
): Promise<LooReport> {
  const index = await deps.indexes.get(kb);
  const { unknown } = index.resolveExternalIds(questions.flatMap(factIdsOf));
  if (unknown.length > 0) {
    throw new CandorError('not_found', `${unknown.length} factIds are not in knowledge base "${kb}": ${unknown.slice(0, 5).join(', ')}`);
  }
  const items: LooItem[] = [];
  for (const [i, q] of questions.entries()) {
    const full = await deps.ask({ question: q.question, kb, channel: 'eval' }, { record: false });
    const ids = factIdsOf(q);
    const loo =
      q.answerable && ids.length > 0
        ? await deps.ask({ question: q.question, kb, channel: 'eval' }, { record: false, exclude: ids })
        : undefined;
    items.push({
      id: q.id,
      full: run(full),
      ...(loo ? { loo: run(loo) } : {}),
      answerable: q.answerable,
      ...(q.answerable ? { fullRight: full.decision === 'answer' && citesRight(q, full) } : {}),
    });
    onProgress?.(i + 1, questions.length);
  }
  return { summary: summarise(items), items };
}

function run(d: Decision): LooRun {
  return {
    decision: d.decision,
    evidenceFactIds: d.evidence.map((e) => e.factId),
    reasons: d.reasons,
    ...(d.answerability ? { score: d.answerability.score } : {}),
  };
}

const GATE: ReadonlySet<string> = new Set(GATE_LAYER_NAMES);

function summarise(items: readonly LooItem[]): LooReport['summary'] {
  const answerable = items.filter((i) => i.answerable);
  const withLoo = items.flatMap((i) => (i.loo ? [i.loo] : []));
  const unanswerable = items.filter((i) => !i.answerable);
  const share = (count: number, n: number) => (n === 0 ? 0 : Math.round((count / n) * 10_000) / 10_000);
  const tally = (runs: readonly LooRun[]) => {
    const counts: Record<string, number> = {};
    for (const r of runs)
      if (r.decision === 'abstain') counts[r.reasons[0]?.code ?? 'unknown'] = (counts[r.reasons[0]?.code ?? 'unknown'] ?? 0) + 1;
    return counts;
  };
  return {
    n: items.length,
    fullAnswered: share(answerable.filter((i) => i.full.decision === 'answer').length, answerable.length),
    fullAnsweredWithFact: share(answerable.filter((i) => i.fullRight).length, answerable.length),
    looAbstained: share(withLoo.filter((r) => r.decision === 'abstain').length, withLoo.length),
    fullRefusedBy: tally(items.map((i) => i.full)),
    looRefusedBy: tally(withLoo),
    hardGateRefusals: [...items.map((i) => i.full), ...withLoo].filter(
      (r) => r.decision === 'abstain' && GATE.has(r.reasons[0]?.layer ?? ''),
    ).length,
    ...(unanswerable.length > 0
      ? {
          unanswerable: {
            n: unanswerable.length,
            abstained: share(unanswerable.filter((i) => i.full.decision === 'abstain').length, unanswerable.length),
          },
        }
      : {}),
  };
}
