import type { Config } from '../config.js';
import { formatCaveat, formatRefusal, nearbyTopics } from '../core/answer/format-answer.js';
import { nearMisses } from '../core/answer/near-misses.js';
import type { AnswerabilityModel } from '../core/gate/answerability-model.js';
import type { Verdict } from '../core/gate/types.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import type { KnowledgeIndex } from '../kb/knowledge-index.js';
import { CandorError, describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { embedTexts } from '../llm/embed.js';
import type { Llm } from '../llm/llm-client.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { withMetricKb } from '../telemetry/metric-context.js';
import { withSpanSync } from '../telemetry/with-span.js';
import { assessQuestion, type Assessment } from './assess-question.js';
import { answerabilityView } from './decision-parts.js';
import type { Decided } from './decision.js';
import { extractiveAnswer, quotedFallback } from './extractive-answer.js';
import { GATE_MODEL } from './gate-model.js';
import { generate } from './llm-answer.js';

/** What deciding a question reads: the settings, the gate's model, the answering model and the KBs. */
export interface DecideDeps {
  readonly config: Pick<Config, 'ask' | 'gate' | 'kb' | 'telemetry'>;
  /** The answerability model. @default the committed one (GATE_MODEL) */
  readonly model?: AnswerabilityModel;
  /** The model behind the gate; absent or null: extractive mode. */
  readonly llm?: Llm | null;
  readonly indexes: KnowledgeIndexCache;
  readonly log?: Log;
}

/** The per-ask settings deciding reads. */
export interface DecideOptions {
  /** External fact ids to treat as absent for this one ask (leave-one-out evaluation). */
  readonly exclude?: readonly string[];
  /** Hold the answerability score to this threshold instead of the configured one (calibration sweeps). */
  readonly minAnswerability?: number;
}

/**
 * The indexes of the KBs asked. One KB that does not exist is the caller's mistake (kb_not_found); of several,
 * the missing ones are skipped with a warning so long as one remains (start-up checks the mapping).
 */
export async function readIndexes(deps: DecideDeps, names: readonly string[]): Promise<KnowledgeIndex[]> {
  if (names.length === 1) return [await deps.indexes.get(names[0] as string)];
  const found: KnowledgeIndex[] = [];
  let missing: unknown;
  for (const name of names) {
    try {
      found.push(await deps.indexes.get(name));
    } catch (error) {
      if (!(error instanceof CandorError && error.code === 'kb_not_found')) throw error;
      missing = error;
      deps.log?.('warn', 'a knowledge base of a channel is missing; asking the others', { kb: name });
    }
  }
  if (found.length === 0) throw missing;
  return found;
}

/**
 * One KB: its gate decides. Several: each is gated on its own (one retrieval and one score per KB), and the
 * KB whose answerability clears its own threshold by the widest margin decides — scores are calibrated
 * probabilities, comparable across KBs where raw retrieval scores are not. Only that KB is answered from (one
 * model call at most), and its citations carry its name.
 */
export async function decideAcross(
  indexes: readonly KnowledgeIndex[],
  question: string,
  options: DecideOptions,
  deps: DecideDeps,
): Promise<{ decision: Decided; index: KnowledgeIndex }> {
  const queryVector = await embedQuestion(deps, indexes, question);
  const assessed = indexes.map((index) => ({ index, assessed: assess(index, question, options, deps, queryVector) }));
  const margin = (a: Assessment) => a.gate.answerability.score - a.input.settings.minAnswerability;
  const passing = assessed.filter((a) => a.assessed.gate.pass);
  const pool = passing.length > 0 ? passing : assessed;
  const best = pool.reduce((a, b) => (margin(b.assessed) > margin(a.assessed) ? b : a));
  // Of several KBs, the one answering pays for the answer (its model calls' cost carries its name).
  const decision = await withMetricKb(best.index.name, () => finish(best.index, best.assessed, deps));
  if (indexes.length === 1) return { decision, index: best.index };
  const named = decision.evidence.map((e) => ({ ...e, kb: best.index.name }));
  return { decision: { ...decision, evidence: named } as Decided, index: best.index };
}

function assess(
  index: KnowledgeIndex,
  question: string,
  options: DecideOptions,
  deps: DecideDeps,
  queryVector: Float32Array | undefined,
): Assessment {
  const config = deps.config;
  const exclude = index.resolveExternalIds(options.exclude ?? []).keys;
  const vector = index.hasVectors ? queryVector : undefined;
  return assessQuestion(index, question, {
    config,
    model: deps.model ?? GATE_MODEL,
    exclude,
    queryVector: vector,
    ...(options.minAnswerability === undefined ? {} : { minAnswerability: options.minAnswerability }),
    retrieveHook: (retrieve) =>
      withSpanSync(
        SPAN.retrieve,
        { [ATTR.topK]: config.ask.topK, [ATTR.excluded]: exclude.size, [ATTR.vector]: vector !== undefined, [ATTR.kbName]: index.name },
        (span) => {
          const hits = retrieve();
          span.setAttribute(ATTR.hits, hits.length);
          return hits;
        },
      ),
    layerHook: (name, run) =>
      withSpanSync(SPAN.gateLayer(name), {}, (span) => {
        const verdict = run();
        span.setAttributes({ [ATTR.layer]: verdict.layer, [ATTR.layerPass]: verdict.pass });
        if (verdict.code) span.setAttribute(ATTR.reason, verdict.code);
        if (verdict.score !== undefined) span.setAttribute(ATTR.layerScore, verdict.score);
        if (verdict.threshold !== undefined) span.setAttribute(ATTR.layerThreshold, verdict.threshold);
        return verdict;
      }),
  });
}

async function finish(index: KnowledgeIndex, assessed: Assessment, deps: DecideDeps): Promise<Decided> {
  const config = deps.config;
  const { gate, ranked } = assessed;
  const kb = { name: index.name, version: index.version };
  const answerability = answerabilityView(gate, assessed.thresholdSource);
  if (!gate.pass) {
    const deciding = gate.verdicts[0] as Verdict;
    const topics = nearbyTopics(ranked, assessed.input.question);
    return {
      decision: 'abstain',
      answer: null,
      reasons: gate.verdicts,
      evidence: [],
      nearbyTopics: topics,
      refusal: formatRefusal(deciding, topics),
      kb,
      answerability,
      confidence: 'low',
      caveat: null,
      considered: nearMisses(assessed.input),
    };
  }
  if (deps.llm) {
    // The KB's own grounding threshold, when calibrated (`eval calibrate --grounding --apply`); else the check's default.
    const setting = index.groundingSetting;
    const grounding = setting ? { threshold: setting.threshold, source: `kb@${setting.version}` } : undefined;
    const generated = await generate(
      deps.llm,
      assessed.input.question,
      ranked,
      gate.verdicts,
      kb,
      config.telemetry.traceContent,
      grounding,
    );
    const decided = generated.decided;
    // The model's answer keeps the gate's confidence: a medium-band question stays caveated whoever words the answer.
    if (decided.decision === 'answer' && gate.confidence === 'medium')
      return { ...decided, answerability, confidence: 'medium', caveat: formatCaveat(gate.doubts) };
    if (decided.decision === 'answer') return { ...decided, answerability };
    // A withheld draft: quote the evidence instead, as extractive mode would (refuse only when it would too).
    const quoted = generated.withheld ? quotedFallback(assessed, generated.withheld, { ...decided, answerability }) : null;
    if (quoted) return quoted;
    // A model's refusal keeps what it was shown, as a gate refusal does (the console's "nearly answered").
    return { ...decided, answerability, considered: nearMisses(assessed.input) };
  }
  return extractiveAnswer(assessed, kb, answerability) ?? noQuote(assessed, kb, answerability);
}

/** A gate that passed with nothing to quote (never expected: the gate passes on evidence): an honest refusal. */
function noQuote(assessed: Assessment, kb: Decided['kb'], answerability: Decided['answerability']): Decided {
  const verdict: Verdict = { layer: 'answer', pass: false, code: 'no_evidence', detail: 'no retrieved fact could be quoted' };
  return {
    decision: 'abstain',
    answer: null,
    reasons: [verdict, ...assessed.gate.verdicts],
    evidence: [],
    nearbyTopics: [],
    refusal: formatRefusal(verdict, []),
    kb,
    ...(answerability ? { answerability } : {}),
    confidence: 'low',
    caveat: null,
  };
}

/**
 * The question's embedding when the KB has fact embeddings. A failure here
 * costs only the vector half of retrieval: the lexical half still answers.
 */
async function embedQuestion(deps: DecideDeps, indexes: readonly KnowledgeIndex[], question: string): Promise<Float32Array | undefined> {
  if (!deps.llm?.embeddingModel || !indexes.some((i) => i.hasVectors)) return undefined;
  try {
    const [vector] = await embedTexts(deps.llm, [question]);
    return vector;
  } catch (error) {
    deps.log?.('warn', 'question embedding failed; retrieving lexically', { error: describeError(error) });
    return undefined;
  }
}

/** The refusal of an ask whose dependencies failed (fail closed). */
export function unavailable(kbName: string, version: number): Decided {
  const verdict: Verdict = { layer: 'system', pass: false, code: 'unavailable', detail: 'the knowledge base could not be read' };
  return {
    decision: 'abstain',
    answer: null,
    reasons: [verdict],
    evidence: [],
    nearbyTopics: [],
    refusal: formatRefusal(verdict, []),
    kb: { name: kbName, version },
    confidence: 'low',
    caveat: null,
  };
}
