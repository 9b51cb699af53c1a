import type { Span } from '@opentelemetry/api';

import type { Config } from '../config.js';
import { formatCaveat, formatExtractiveAnswer, formatRefusal, nearbyTopics } from '../core/answer/format-answer.js';
import type { AnswerabilityModel } from '../core/gate/answerability-model.js';
import { GATE_LAYER_NAMES } from '../core/gate/gate.js';
import type { Verdict } from '../core/gate/types.js';
import { normaliseQuestion } from '../core/text/normalise-question.js';
import { CandorError, describeError } from '../errors.js';
import type { KnowledgeIndex, KnowledgeIndexCache } from '../kb/knowledge-index.js';
import { embedTexts } from '../llm/embed.js';
import type { Llm } from '../llm/llm-client.js';
import type { Log } from '../log.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { instruments } from '../telemetry/instruments.js';
import { recordError, withSpan, withSpanSync } from '../telemetry/with-span.js';
import { assessQuestion } from './assess-question.js';
import { answerabilityView, evidenceView, round } from './decision-parts.js';
import type { Decided, Decision } from './decision.js';
import { GATE_MODEL } from './gate-model.js';
import { generate } from './llm-answer.js';
import type { InteractionRecorder } from './record-interaction.js';

export interface AskRequest {
  readonly question: string;
  readonly kb?: string | undefined;
  readonly channel: string;
  readonly eventId?: string | undefined;
  readonly userId?: string | undefined;
  readonly conversationRef?: string | undefined;
}

export interface AskOptions {
  /** External fact ids to treat as absent for this one ask (leave-one-out evaluation). */
  readonly exclude?: readonly string[];
  /** Store the interaction. Evaluation runs pass false so they do not pollute monitoring. @default true */
  readonly record?: boolean;
  /** Hold the answerability score to this threshold instead of the configured one (calibration sweeps). */
  readonly minAnswerability?: number;
}

export interface AskDeps {
  readonly config: Pick<Config, 'ask' | 'gate' | 'kb' | 'telemetry'>;
  /** The answerability model. @default the committed one (GATE_MODEL) */
  readonly model?: AnswerabilityModel;
  /** The model behind the gate; absent or null: extractive mode. */
  readonly llm?: Llm | null;
  readonly indexes: KnowledgeIndexCache;
  readonly recorder: InteractionRecorder;
  readonly now?: () => number;
  readonly log?: Log;
}

export type Ask = (request: AskRequest, options?: AskOptions) => Promise<Decision>;

/**
 * The one ask path every channel uses: normalise, retrieve, hard gate, answer
 * extractively or refuse, record, trace. Dependency failures fail closed.
 * Throws CandorError only for the caller's mistakes (bad question, unknown KB).
 */
export function createAsk(deps: AskDeps): Ask {
  const now = deps.now ?? (() => performance.now());

  return async (request, options = {}) => {
    const started = now();
    const kbName = request.kb ?? deps.config.kb.defaultName;
    const cleaned = normaliseQuestion(request.question, deps.config.ask.maxQuestionChars);
    if (!cleaned.ok) throw new CandorError('input_invalid', cleaned.message, { status: 400 });

    return withSpan(SPAN.ask, { [ATTR.channel]: request.channel, [ATTR.kbName]: kbName }, async (span) => {
      span.setAttribute(ATTR.questionLength, cleaned.text.length);
      if (deps.config.telemetry.traceContent) span.setAttribute(ATTR.question, cleaned.text);
      const traceId = span.spanContext().traceId;
      let decision: Decided;
      let index: KnowledgeIndex | undefined;
      try {
        index = await deps.indexes.get(kbName);
        decision = await decide(index, cleaned.text, options, deps);
        if (deps.llm && decision.decision === 'abstain' && isHardLayer(decision.reasons[0]?.layer)) {
          instruments.llmCallsAvoided().add(1, { channel: request.channel });
          span.setAttribute(ATTR.llmCallAvoided, true);
        }
      } catch (error) {
        if (error instanceof CandorError && error.code === 'kb_not_found') throw error;
        recordError(span, error);
        decision = unavailable(kbName, index?.version ?? 0);
        deps.log?.('error', 'ask failed closed', { error: describeError(error) });
      }
      const latencyMs = round(now() - started);
      annotate(span, decision);
      let interactionId: number | null = null;
      if (options.record !== false) {
        interactionId = await withSpan(SPAN.record, {}, () =>
          deps.recorder.record(request, cleaned.text, decision, index?.kbId ?? null, traceId, latencyMs),
        ).catch((error: unknown) => {
          // Losing the row must not lose the reply; the span and the log carry the error.
          deps.log?.('error', 'could not record interaction', { error: describeError(error), traceId });
          return null;
        });
      }
      const reason = decision.decision === 'abstain' ? (decision.reasons[0]?.code ?? 'unknown') : 'none';
      instruments.asks().add(1, { decision: decision.decision, reason, confidence: decision.confidence, channel: request.channel });
      instruments.askDuration().record(latencyMs, { decision: decision.decision, channel: request.channel });
      return { ...decision, traceId, latencyMs, interactionId };
    });
  };
}

async function decide(index: KnowledgeIndex, question: string, options: AskOptions, deps: AskDeps): Promise<Decided> {
  const config = deps.config;
  const exclude = index.resolveExternalIds(options.exclude ?? []).keys;
  const queryVector = await embedQuestion(deps, index, question);
  const assessed = assessQuestion(index, question, {
    config,
    model: deps.model ?? GATE_MODEL,
    exclude,
    queryVector,
    ...(options.minAnswerability === undefined ? {} : { minAnswerability: options.minAnswerability }),
    retrieveHook: (retrieve) =>
      withSpanSync(
        SPAN.retrieve,
        { [ATTR.topK]: config.ask.topK, [ATTR.excluded]: exclude.size, [ATTR.vector]: queryVector !== undefined },
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
    };
  }
  if (deps.llm) {
    const generated = await generate(deps.llm, assessed.input.question, ranked, gate.verdicts, kb, config.telemetry.traceContent);
    // The model's answer keeps the gate's confidence: a medium-band question stays caveated whoever words the answer.
    if (generated.decision === 'answer' && gate.confidence === 'medium')
      return { ...generated, answerability, confidence: 'medium', caveat: formatCaveat(gate.doubts) };
    return { ...generated, answerability };
  }
  const cited = assessed.cited();
  const answer = withSpanSync(SPAN.answer, {}, () => formatExtractiveAnswer(cited, assessed.input.question));
  return {
    decision: 'answer',
    answer,
    reasons: gate.verdicts,
    evidence: cited.map(evidenceView),
    nearbyTopics: [],
    refusal: null,
    kb,
    answerability,
    confidence: gate.confidence,
    caveat: gate.confidence === 'medium' ? formatCaveat(gate.doubts) : null,
  };
}

/**
 * The question's embedding when the KB has fact embeddings. A failure here
 * costs only the vector half of retrieval: the lexical half still answers.
 */
async function embedQuestion(deps: AskDeps, index: KnowledgeIndex, question: string): Promise<Float32Array | undefined> {
  if (!deps.llm?.embeddingModel || !index.hasVectors) return undefined;
  try {
    const [vector] = await embedTexts(deps.llm, [question]);
    return vector;
  } catch (error) {
    deps.log?.('warn', 'question embedding failed; retrieving lexically', { error: describeError(error) });
    return undefined;
  }
}

function isHardLayer(layer: string | undefined): boolean {
  return (GATE_LAYER_NAMES as readonly string[]).includes(layer ?? '');
}

function unavailable(kbName: string, version: number): Decided {
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

function annotate(span: Span, decision: Decided): void {
  const top = decision.answerability?.features.relevance;
  const a = decision.answerability;
  span.setAttributes({
    ...(a
      ? {
          [ATTR.answerability]: a.score,
          [ATTR.answerabilityThreshold]: a.threshold,
          [ATTR.answerabilityThresholdSource]: a.thresholdSource,
          [ATTR.gateModel]: a.model,
        }
      : {}),
    ...Object.fromEntries(Object.entries(a?.features ?? {}).map(([name, value]) => [ATTR.answerabilityFeature(name), value])),
    [ATTR.decision]: decision.decision,
    [ATTR.confidence]: decision.confidence,
    [ATTR.evidenceCount]: decision.evidence.length,
    [ATTR.kbVersion]: decision.kb.version,
    ...(top === undefined ? {} : { [ATTR.topScore]: top }),
    ...(decision.decision === 'abstain' ? { [ATTR.reason]: decision.reasons[0]?.code ?? 'unknown' } : {}),
  });
}
