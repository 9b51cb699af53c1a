import type { Services } from '../../ask/services.js';
import type { GroundingPoint } from '../../core/calibrate/grounding-sweep.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { CandorError } from '../../kernel/errors.js';
import type { Llm } from '../../llm/llm-client.js';
import { generateCandidates } from '../generate/generate-questions.js';
import { GenerationCache } from '../generate/generation-cache.js';
import { factIdsOf, readLooQuestions } from '../leave-one-out.js';
import { pointsFromDrafts, type DraftCounts, type SourcedQuestion } from './grounding-drafts.js';
import { groundingPointsFromLabels, type LabelCounts } from './grounding-label-points.js';

type CommandServices = Pick<Services, 'indexes' | 'config' | 'store' | 'llm'>;

/** `eval calibrate --grounding`'s options, as the command line parses them (a part of `eval calibrate`'s). */
export interface GroundingCalibrateOptions {
  readonly kb: string;
  /** Questions in the eval loo format (with their factId) instead of generating them; needs a model. */
  readonly questions?: string | undefined;
  /** Reviewers' factuality labels, even with a model configured. */
  readonly fromLabels?: boolean | undefined;
  /** The gate's option: refused here. */
  readonly targetAbstention?: string | undefined;
  /** Facts to generate questions for, at most. @default 200 */
  readonly maxQuestions?: number | undefined;
  /** Where to write PREFIX.svg, PREFIX.json and the model's PREFIX.cache.jsonl. @default "grounding-calibration-KB" */
  readonly out?: string | undefined;
  readonly apply?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/** The scored drafts to sweep, and where they came from. */
export type FoundPoints =
  | { readonly method: 'model'; readonly points: GroundingPoint[]; readonly counts: DraftCounts }
  | { readonly method: 'labels'; readonly points: GroundingPoint[]; readonly counts: LabelCounts };

/** Questions generated (one per fact) when --max-questions is not given: about 2 × this many model answers. */
export const DEFAULT_MAX_QUESTIONS = 200;

/**
 * With a model (and without --from-labels): its drafts over the KB's questions, from --questions FILE or generated
 * from the KB's facts (`eval generate`'s generation, kept in PREFIX.cache.jsonl with the drafts). Without a model,
 * or with --from-labels: reviewers' factuality labels on the KB's model answers.
 */
export async function groundingPoints(
  app: CommandServices,
  args: GroundingCalibrateOptions,
  index: KnowledgeIndex,
  prefix: string,
  progress: (message: string) => void,
): Promise<FoundPoints> {
  const llm = args.fromLabels ? null : app.llm;
  if (!llm) {
    if (args.questions || args.maxQuestions !== undefined)
      throw new CandorError(
        'option_invalid',
        `--questions and --max-questions are for the model's drafts; ${args.fromLabels ? '--from-labels reads' : 'no model is configured, so this reads'} reviewers' labels instead`,
        { status: 400 },
      );
    if (!args.fromLabels) progress("no model is configured: calibrating from reviewers' factuality labels on this KB's model answers");
    return { method: 'labels', ...(await groundingPointsFromLabels(app.store.db, index.kbId)) };
  }
  const cachePath = `${prefix}.cache.jsonl`;
  const cache = new GenerationCache(cachePath);
  const questions = args.questions
    ? questionsFromFile(args.questions, index)
    : await generatedQuestions(app, llm, args, index, cachePath, progress);
  const found = await pointsFromDrafts(llm, index, questions, { config: app.config, cache, onProgress: progress });
  return { method: 'model', ...found };
}

/** A questions file (the `eval loo` format): its answerable questions, each with the facts that answer it. */
function questionsFromFile(path: string, index: KnowledgeIndex): SourcedQuestion[] {
  const answerable = readLooQuestions(path).filter((q) => q.answerable !== false && factIdsOf(q).length > 0);
  if (answerable.length === 0)
    throw new CandorError('option_invalid', `${path} has no answerable question naming its fact (factId or factIds)`, { status: 400 });
  const ids = answerable.flatMap((q) => factIdsOf(q));
  const { unknown } = index.resolveExternalIds(ids);
  if (unknown.length > 0)
    throw new CandorError(
      'not_found',
      `${unknown.length} factIds are not in knowledge base "${index.name}": ${unknown.slice(0, 5).join(', ')}`,
    );
  return answerable.map((q) => ({ question: q.question, sources: index.resolveExternalIds(factIdsOf(q)).keys }));
}

/** One question per fact (at most --max-questions facts, spread over the KB), asked of the model once and kept. */
async function generatedQuestions(
  app: CommandServices,
  llm: Llm,
  args: GroundingCalibrateOptions,
  index: KnowledgeIndex,
  cachePath: string,
  progress: (message: string) => void,
): Promise<SourcedQuestion[]> {
  const generation = await generateCandidates(app.store.db, llm, {
    kb: args.kb,
    perFact: 1,
    categories: [],
    perCategory: 1,
    maxFacts: args.maxQuestions ?? DEFAULT_MAX_QUESTIONS,
    cachePath,
    onProgress: progress,
  });
  if (generation.failed.length > 0) {
    const first = generation.failed.slice(0, 5).map((f) => `${f.item}: ${f.error}`);
    throw new CandorError(
      'llm_unavailable',
      `${generation.failed.length} of ${generation.facts} facts could not be turned into questions:\n  ${first.join('\n  ')}\nThe rest is kept in ${cachePath}: run the same command again to resume.`,
      { retryable: true },
    );
  }
  // A fact retired since its question was written is no longer in this version: its question is left out.
  return generation.candidates.flatMap((c) => {
    const { keys } = index.resolveExternalIds(c.factId ? [c.factId] : []);
    return keys.size > 0 ? [{ question: c.question, sources: keys }] : [];
  });
}
