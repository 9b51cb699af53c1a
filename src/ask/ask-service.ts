import type { Span } from '@opentelemetry/api';

import type { Config } from '../config.js';
import { formatExtractiveAnswer, formatRefusal, nearbyTopics } from '../core/answer/format-answer.js';
import { checkGrounding } from '../core/gate/grounding.js';
import { combineVerdicts, HARD_LAYER_NAMES, HARD_LAYERS, selectCitations } from '../core/gate/hard-gate.js';
import type { EvidenceFact, GateInput, Verdict } from '../core/gate/types.js';
import { analyseQuestion } from '../core/text/analyse-question.js';
import { normaliseQuestion } from '../core/text/normalise-question.js';
import { CandorError } from '../errors.js';
import type { KnowledgeIndex, KnowledgeIndexCache } from '../kb/knowledge-index.js';
import { checkEntailment } from '../llm/check-entailment.js';
import { embedTexts } from '../llm/embed.js';
import { ANSWER_PROMPT_REF, groundedAnswer } from '../llm/grounded-answer.js';
import type { Llm } from '../llm/llm-client.js';
import { LlmFailure } from '../llm/llm-failure.js';
import type { Log } from '../log.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { instruments } from '../telemetry/instruments.js';
import { withSpan, withSpanSync } from '../telemetry/with-span.js';
import type { Decision, EvidenceView } from './decision.js';
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
}

export interface AskDeps {
  readonly config: Pick<Config, 'ask' | 'gate' | 'kb' | 'telemetry'>;
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
        span.recordException(error as Error);
        decision = unavailable(kbName, index?.version ?? 0);
        deps.log?.('error', 'ask failed closed', { error: (error as Error).message });
      }
      const latencyMs = round(now() - started);
      annotate(span, decision);
      let interactionId: number | null = null;
      if (options.record !== false) {
        interactionId = await withSpan(SPAN.record, {}, () =>
          deps.recorder.record(request, cleaned.text, decision, index?.kbId ?? null, traceId, latencyMs),
        ).catch((error: unknown) => {
          // Losing the row must not lose the reply; the span and the log carry the error.
          deps.log?.('error', 'could not record interaction', { error: (error as Error).message, traceId });
          return null;
        });
      }
      const reason = decision.decision === 'abstain' ? (decision.reasons[0]?.code ?? 'unknown') : 'none';
      instruments.asks().add(1, { decision: decision.decision, reason, channel: request.channel });
      instruments.askDuration().record(latencyMs, { decision: decision.decision, channel: request.channel });
      return { ...decision, traceId, latencyMs, interactionId };
    });
  };
}

type Decided = Omit<Decision, 'latencyMs' | 'interactionId' | 'traceId'>;

async function decide(index: KnowledgeIndex, question: string, options: AskOptions, deps: AskDeps): Promise<Decided> {
  const config = deps.config;
  const exclude = index.resolveExternalIds(options.exclude ?? []).keys;
  const queryVector = await embedQuestion(deps, index, question);
  const ranked = withSpanSync(
    SPAN.retrieve,
    { [ATTR.topK]: config.ask.topK, [ATTR.excluded]: exclude.size, [ATTR.vector]: queryVector !== undefined },
    (span) => {
      const hits = index.retrieve(question, config.ask.topK, exclude, queryVector);
      span.setAttribute(ATTR.hits, hits.length);
      return hits;
    },
  );
  const cited = selectCitations(ranked, config.ask.maxCitations, config.ask.citeShare);
  const input: GateInput = {
    question: analyseQuestion(question),
    evidence: cited,
    ranked,
    vocabulary: index.vocabulary(exclude),
    thresholds: config.gate,
  };
  const verdicts = HARD_LAYERS.map((layer, i) =>
    withSpanSync(SPAN.gateLayer(HARD_LAYER_NAMES[i] ?? `layer${i}`), {}, (span) => {
      const verdict = layer(input);
      span.setAttributes({ [ATTR.layer]: verdict.layer, [ATTR.layerPass]: verdict.pass });
      if (verdict.code) span.setAttribute(ATTR.reason, verdict.code);
      if (verdict.score !== undefined) span.setAttribute(ATTR.layerScore, verdict.score);
      if (verdict.threshold !== undefined) span.setAttribute(ATTR.layerThreshold, verdict.threshold);
      return verdict;
    }),
  );
  const gate = combineVerdicts(verdicts);
  const kb = { name: index.name, version: index.version };
  if (!gate.pass) {
    const deciding = gate.verdicts[0] as Verdict;
    return {
      decision: 'abstain',
      answer: null,
      reasons: gate.verdicts,
      evidence: [],
      nearbyTopics: nearbyTopics(ranked),
      refusal: formatRefusal(deciding, ranked),
      kb,
    };
  }
  if (deps.llm) return generate(deps.llm, question, ranked, gate.verdicts, kb, config.telemetry.traceContent);
  const answer = withSpanSync(SPAN.answer, {}, () => formatExtractiveAnswer(cited));
  return { decision: 'answer', answer, reasons: gate.verdicts, evidence: cited.map(view), nearbyTopics: [], refusal: null, kb };
}

/**
 * The LLM layers, after the hard gate has passed: the model's own
 * answerability judgement (soft refusal) and a grounded answer in one call,
 * then the grounding check. Any model failure is an honest refusal.
 */
async function generate(
  llm: Llm,
  question: string,
  shown: readonly EvidenceFact[],
  hard: readonly Verdict[],
  kb: Decided['kb'],
  traceContent: boolean,
): Promise<Decided> {
  const generation = { model: llm.chatModel, prompt: ANSWER_PROMPT_REF };
  const refuse = (verdict: Verdict): Decided => ({
    decision: 'abstain',
    answer: null,
    reasons: [verdict, ...hard],
    evidence: [],
    nearbyTopics: nearbyTopics(shown),
    refusal: formatRefusal(verdict, shown),
    kb,
    generation,
  });
  return withSpan(SPAN.answer, { [ATTR.answerMode]: 'llm' }, async () => {
    let draft;
    try {
      draft = await groundedAnswer(llm, question, shown, { traceContent });
    } catch (error) {
      if (!(error instanceof LlmFailure)) throw error;
      return refuse({ layer: 'llm', pass: false, code: error.code, detail: error.message });
    }
    if (!draft.answerable) {
      return refuse({
        layer: 'llm',
        pass: false,
        code: 'llm_unanswerable',
        detail: `the model judged the facts do not answer it: ${draft.reasoning.slice(0, 500)}`,
      });
    }
    const llmVerdict: Verdict = { layer: 'llm', pass: true, code: null, detail: 'the model judged the facts answer it' };
    const grounding = checkGrounding(draft, shown);
    if (!grounding.pass) return refuse({ ...grounding, detail: grounding.detail });
    const cited = [...new Set(draft.citations)].map((n) => shown[n - 1] as EvidenceFact);
    const checks = [llmVerdict, grounding];
    if (llm.entailment) {
      let entailed;
      try {
        entailed = await checkEntailment(
          llm,
          draft.answer,
          cited.map((f) => f.text),
        );
      } catch (error) {
        if (!(error instanceof LlmFailure)) throw error;
        return refuse({ layer: 'entailment', pass: false, code: error.code, detail: error.message });
      }
      if (!entailed.entailed)
        return refuse({
          layer: 'entailment',
          pass: false,
          code: 'ungrounded',
          detail: `the cited facts do not entail the answer: ${entailed.reasoning.slice(0, 500)}`,
        });
      checks.push({ layer: 'entailment', pass: true, code: null, detail: 'the model found the answer entailed by the cited facts' });
    }
    return {
      decision: 'answer',
      answer: draft.answer,
      reasons: [...hard, ...checks],
      evidence: cited.map(view),
      nearbyTopics: [],
      refusal: null,
      kb,
      generation,
    };
  });
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
    deps.log?.('warn', 'question embedding failed; retrieving lexically', { error: (error as Error).message });
    return undefined;
  }
}

function isHardLayer(layer: string | undefined): boolean {
  return (HARD_LAYER_NAMES as readonly string[]).includes(layer ?? '');
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
  };
}

function view(fact: EvidenceFact): EvidenceView {
  return { factId: fact.externalId ?? String(fact.factId), text: fact.text, source: fact.source, score: round(fact.score) };
}

function annotate(span: Span, decision: Decided): void {
  const top = decision.reasons.find((r) => r.layer === 'relevance')?.score;
  span.setAttributes({
    [ATTR.decision]: decision.decision,
    [ATTR.evidenceCount]: decision.evidence.length,
    [ATTR.kbVersion]: decision.kb.version,
    ...(top === undefined ? {} : { [ATTR.topScore]: top }),
    ...(decision.decision === 'abstain' ? { [ATTR.reason]: decision.reasons[0]?.code ?? 'unknown' } : {}),
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
