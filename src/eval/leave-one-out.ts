import { readFileSync } from 'node:fs';
import { z } from 'zod';

import type { Ask } from '../ask/ask-service.js';
import { HARD_LAYER_NAMES } from '../core/gate/hard-gate.js';
import type { Verdict } from '../core/gate/types.js';
import { CandorError } from '../errors.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index.js';

const QuestionLine = z.object({ id: z.string().min(1), question: z.string().min(1), factId: z.string().min(1) });
export type LooQuestion = z.infer<typeof QuestionLine>;

export interface LooItem {
  readonly id: string;
  readonly full: { readonly decision: 'answer' | 'abstain'; readonly evidenceFactIds: string[]; readonly reasons: readonly Verdict[] };
  readonly loo: { readonly decision: 'answer' | 'abstain'; readonly reasons: readonly Verdict[]; readonly evidenceFactIds: string[] };
}

export interface LooReport {
  readonly summary: {
    readonly n: number;
    readonly fullAnswered: number;
    readonly fullAnsweredWithFact: number;
    readonly looAbstained: number;
    /** How often each reason code decided a refusal, per run. */
    readonly fullRefusedBy: Record<string, number>;
    readonly looRefusedBy: Record<string, number>;
    /**
     * Asks (of the 2n) that the hard gate refused: with a model configured, each
     * is a model call avoided. Counted the same in extractive mode.
     */
    readonly hardGateRefusals: number;
  };
  readonly items: LooItem[];
}

/** Reads a questions file, naming every bad line rather than skipping it: an evaluation must be exact. */
export function readLooQuestions(path: string): LooQuestion[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new CandorError('file_unreadable', `Cannot read questions file ${path}: ${(cause as Error).message}`, { cause });
  }
  const problems: string[] = [];
  const questions: LooQuestion[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const parsed = QuestionLine.safeParse(JSON.parse(line));
      if (parsed.success) questions.push(parsed.data);
      else problems.push(`line ${i + 1}: ${parsed.error.issues.map((e) => `${e.path.join('.')} ${e.message}`).join('; ')}`);
    } catch {
      problems.push(`line ${i + 1}: not valid JSON`);
    }
  });
  if (problems.length > 0) {
    throw new CandorError(
      'input_invalid',
      `${path} has ${problems.length} bad lines (expected {"id","question","factId"}):\n  ${problems.slice(0, 10).join('\n  ')}`,
    );
  }
  if (questions.length === 0) throw new CandorError('input_invalid', `${path} holds no questions.`);
  return questions;
}

/**
 * KnowOrNot leave-one-out: each question is asked with the full KB (it should
 * be answered, citing its fact) and with its fact excluded for that one ask
 * (abstaining is then the right answer). The stored KB is never changed.
 */
export async function runLeaveOneOut(
  deps: { ask: Ask; indexes: KnowledgeIndexCache },
  kb: string,
  questions: readonly LooQuestion[],
  onProgress?: (done: number, total: number) => void,
): Promise<LooReport> {
  const index = await deps.indexes.get(kb);
  const { unknown } = index.resolveExternalIds(questions.map((q) => q.factId));
  if (unknown.length > 0) {
    throw new CandorError(
      'input_invalid',
      `${unknown.length} factIds are not in knowledge base "${kb}": ${unknown.slice(0, 5).join(', ')}`,
    );
  }
  const items: LooItem[] = [];
  for (const [i, q] of questions.entries()) {
    const full = await deps.ask({ question: q.question, kb, channel: 'eval' }, { record: false });
    const loo = await deps.ask({ question: q.question, kb, channel: 'eval' }, { record: false, exclude: [q.factId] });
    items.push({
      id: q.id,
      full: { decision: full.decision, evidenceFactIds: full.evidence.map((e) => e.factId), reasons: full.reasons },
      loo: { decision: loo.decision, reasons: loo.reasons, evidenceFactIds: loo.evidence.map((e) => e.factId) },
    });
    onProgress?.(i + 1, questions.length);
  }
  return { summary: summarise(items, questions), items };
}

const HARD: ReadonlySet<string> = new Set(HARD_LAYER_NAMES);

function summarise(items: readonly LooItem[], questions: readonly LooQuestion[]): LooReport['summary'] {
  const n = items.length;
  const factOf = new Map(questions.map((q) => [q.id, q.factId]));
  const share = (count: number) => (n === 0 ? 0 : Math.round((count / n) * 10_000) / 10_000);
  const tally = (runs: LooItem['full'][]) => {
    const counts: Record<string, number> = {};
    for (const run of runs)
      if (run.decision === 'abstain') counts[run.reasons[0]?.code ?? 'unknown'] = (counts[run.reasons[0]?.code ?? 'unknown'] ?? 0) + 1;
    return counts;
  };
  return {
    n,
    fullAnswered: share(items.filter((i) => i.full.decision === 'answer').length),
    fullAnsweredWithFact: share(
      items.filter((i) => i.full.decision === 'answer' && i.full.evidenceFactIds.includes(factOf.get(i.id) ?? '')).length,
    ),
    looAbstained: share(items.filter((i) => i.loo.decision === 'abstain').length),
    fullRefusedBy: tally(items.map((i) => i.full)),
    looRefusedBy: tally(items.map((i) => i.loo)),
    hardGateRefusals: items
      .flatMap((i) => [i.full, i.loo])
      .filter((run) => run.decision === 'abstain' && HARD.has(run.reasons[0]?.layer ?? '')).length,
  };
}
