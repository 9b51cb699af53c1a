import { createHash } from 'node:crypto';

import { assessQuestion } from '../../ask/assess-question.js';
import { GATE_MODEL } from '../../ask/gate-model.js';
import type { Config } from '../../config.js';
import type { GroundingPoint } from '../../core/calibrate/grounding-sweep.js';
import { checkGrounding } from '../../core/gate/grounding.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { CandorError } from '../../kernel/errors.js';
import { ANSWER_PROMPT_REF, groundedAnswer } from '../../llm/grounded-answer.js';
import type { Llm } from '../../llm/llm-client.js';
import type { GenerationCache } from '../generate/generation-cache.js';
import { runModelJobs } from '../model-jobs.js';

/** A question and the facts that answer it (store ids), as the calibration asks it. */
export interface SourcedQuestion {
  readonly question: string;
  readonly sources: ReadonlySet<number>;
}

/** What the model did with the questions, by kind of evidence. */
export interface DraftCounts {
  readonly questions: number;
  /** With the question's facts shown: drafts asked for, declined by the model (`answerable: false`), scored. */
  readonly supported: { readonly asked: number; readonly declined: number; readonly scored: number };
  /** With them left out; `noEvidence`: nothing else was retrieved, so the model was not asked (the gate would refuse). */
  readonly unsupported: { readonly asked: number; readonly declined: number; readonly noEvidence: number; readonly scored: number };
}

export interface DraftOptions {
  readonly config: Pick<Config, 'ask' | 'gate'>;
  /** Where each draft is kept as it arrives, so that a failed run resumes (and a re-run with --apply asks nothing). */
  readonly cache: GenerationCache;
  readonly onProgress: (message: string) => void;
}

type Shown = readonly { readonly text: string; readonly source: string }[];
interface Job {
  readonly question: string;
  readonly supported: boolean;
  readonly shown: Shown;
}
type Draft = { readonly answerable: boolean; readonly answer: string; readonly citations: readonly number[] };

/**
 * The model answers each question twice through the product's prompt (groundedAnswer): once over the facts the KB
 * retrieves with the question's own facts among them (supported), once over what it retrieves with them left out
 * (unsupported, unless another fact states the same). The gate plays no part: this measures the check, not the
 * gate. Each draft the model gives is scored by the grounding check; a declined one is counted, not scored.
 */
export async function pointsFromDrafts(
  llm: Llm,
  index: KnowledgeIndex,
  questions: readonly SourcedQuestion[],
  options: DraftOptions,
): Promise<{ points: GroundingPoint[]; counts: DraftCounts }> {
  const byId = new Map(index.allFacts().map((f) => [f.id, { text: f.text, source: f.source }]));
  const retrieve = (question: string, exclude: ReadonlySet<number>): Shown =>
    assessQuestion(index, question, { config: options.config, model: GATE_MODEL, exclude, minAnswerability: 0 }).ranked.map((f) => ({
      text: f.text,
      source: f.source,
    }));
  const jobs: Job[] = [];
  let noEvidence = 0;
  for (const q of questions) {
    const sources = [...q.sources].flatMap((id) => byId.get(id) ?? []);
    jobs.push({
      question: q.question,
      supported: true,
      shown: withSources(retrieve(q.question, new Set()), sources, options.config.ask.topK),
    });
    const without = retrieve(q.question, q.sources);
    if (without.length === 0) noEvidence += 1;
    else jobs.push({ question: q.question, supported: false, shown: without });
  }
  const drafts = await askAll(llm, jobs, options);
  const points: GroundingPoint[] = [];
  jobs.forEach((job, i) => {
    const draft = drafts[i] as Draft;
    if (draft.answerable) points.push({ support: support(job, draft), supported: job.supported });
  });
  const tally = (supported: boolean) => {
    const asked = jobs.filter((j) => j.supported === supported).length;
    const scored = points.filter((p) => p.supported === supported).length;
    return { asked, declined: asked - scored, scored };
  };
  return { points, counts: { questions: questions.length, supported: tally(true), unsupported: { ...tally(false), noEvidence } } };
}

/** The retrieved facts with the question's own among them: those retrieval missed take the last places. */
function withSources(ranked: Shown, sources: Shown, k: number): Shown {
  const missing = sources.filter((s) => !ranked.some((r) => r.text === s.text && r.source === s.source));
  return [...ranked.slice(0, Math.max(0, k - missing.length)), ...missing];
}

function support(job: Job, draft: Draft): number {
  return checkGrounding({ answer: draft.answer, citations: draft.citations }, job.shown, { question: job.question }).support;
}

/** Every job's draft, from the cache or the model (a few at a time); any failure stops the run with what it kept. */
async function askAll(llm: Llm, jobs: readonly Job[], options: DraftOptions): Promise<Draft[]> {
  const keyOf = (job: Job) => `draft:${draftKey(llm, job)}`;
  const { failed } = await runModelJobs(jobs, {
    cache: options.cache,
    keyOf,
    ask: async (job) => {
      const draft = await groundedAnswer(llm, job.question, job.shown);
      return { kind: 'draft', key: keyOf(job), answerable: draft.answerable, answer: draft.answer, citations: draft.citations };
    },
    messages: {
      resumed: (kept, total) => `grounding: ${kept} of ${total} drafts kept from an earlier run`,
      progress: (done, todo) => `grounding: the model answered ${done}/${todo} drafts`,
    },
    onProgress: options.onProgress,
  });
  const reasons = failed.map((f) => (f.asked ? `"${f.job.question.slice(0, 80)}": ${f.error}` : f.error));
  if (reasons.length > 0) throw draftsFailed(reasons, jobs.length, options.cache.path);
  return jobs.map((job) => {
    const entry = options.cache.get(keyOf(job));
    if (entry?.kind !== 'draft') throw new Error(`no draft kept for "${job.question}"`);
    return entry;
  });
}

/** One draft per model, prompt, question and evidence shown. */
function draftKey(llm: Llm, job: Job): string {
  const parts = [llm.chatModel, ANSWER_PROMPT_REF, job.question, ...job.shown.flatMap((f) => [f.text, f.source])];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
}

function draftsFailed(failed: readonly string[], total: number, cachePath: string | null): CandorError {
  const resume = cachePath ? `The drafts answered are kept in ${cachePath}: run the same command again to resume.` : '';
  return new CandorError(
    'llm_unavailable',
    `${failed.length} of ${total} drafts could not be asked of the model:\n  ${failed.slice(0, 5).join('\n  ')}\n${resume}`.trimEnd(),
    { retryable: true },
  );
}
