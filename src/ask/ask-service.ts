import { GATE_LAYER_NAMES } from '../core/gate/gate.js';
import { normaliseQuestion } from '../core/text/normalise-question.js';
import type { KnowledgeIndex } from '../kb/knowledge-index.js';
import { CandorError, describeError } from '../kernel/errors.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { instruments } from '../telemetry/instruments.js';
import { withMetricKb } from '../telemetry/metric-context.js';
import { recordError, withSpan } from '../telemetry/with-span.js';
import type { AskRequest } from './ask-request.js';
import { annotate } from './ask-span.js';
import { decideAcross, readIndexes, unavailable, type DecideDeps, type DecideOptions } from './decide-across.js';
import { round } from './decision-parts.js';
import { reasonLabel, type Decided, type Decision } from './decision.js';
import type { InteractionRecorder } from './record-interaction.js';

export interface AskOptions extends DecideOptions {
  /** Store the interaction. Evaluation runs pass false so they do not pollute monitoring. @default true */
  readonly record?: boolean;
}

export interface AskDeps extends DecideDeps {
  readonly recorder: InteractionRecorder;
  readonly now?: () => number;
}

export type Ask = (request: AskRequest, options?: AskOptions) => Promise<Decision>;

/** A gated ask before its row is written: what the writer of the row needs. */
export interface Asked {
  /** The whole decision, with what a refusal considered (the row keeps it; the reply does not). */
  readonly decision: Decided;
  readonly kbId: number | null;
  readonly traceId: string;
  readonly latencyMs: number;
}

/**
 * The ask on a question its caller has already normalised (the one normalisation: `ask()` for a one-off ask, the
 * chat ask for a chat event). `write` stores the interaction row inside the ask's span; absent: no row here.
 */
export type GatedAsk = (
  request: AskRequest,
  question: string,
  options?: DecideOptions,
  write?: (asked: Asked) => Promise<number | null>,
) => Promise<Decision>;

/**
 * The one ask path every channel uses: normalise, retrieve, hard gate, answer
 * extractively or refuse, record, trace. Dependency failures fail closed.
 * Throws CandorError only for the caller's mistakes (bad question, unknown KB).
 */
export function createAsk(deps: AskDeps): Ask {
  const gated = createGatedAsk(deps);
  return async (request, options = {}) => {
    const cleaned = normaliseQuestion(request.question, deps.config.ask.maxQuestionChars);
    if (!cleaned.ok) throw new CandorError('input_invalid', cleaned.message, { status: 400 });
    const record = (asked: Asked) =>
      deps.recorder.record(request, cleaned.text, asked.decision, asked.kbId, asked.traceId, asked.latencyMs);
    return gated(request, cleaned.text, options, options.record === false ? undefined : record);
  };
}

/** Retrieve, gate, answer or refuse, trace and count; the row is the caller's `write`. */
export function createGatedAsk(deps: Omit<AskDeps, 'recorder'>): GatedAsk {
  const now = deps.now ?? (() => performance.now());

  return async (request, question, options = {}, write) => {
    const started = now();
    const kbNames = request.kbs && request.kbs.length > 0 ? [...new Set(request.kbs)] : [request.kb ?? deps.config.kb.defaultName];
    const kbName = kbNames.join('+');

    return withSpan(SPAN.ask, { [ATTR.channel]: request.channel, [ATTR.kbName]: kbName }, async (span) => {
      span.setAttribute(ATTR.questionLength, question.length);
      if (deps.config.telemetry.traceContent) span.setAttribute(ATTR.question, question);
      const traceId = span.spanContext().traceId;
      let decision: Decided;
      let index: KnowledgeIndex | undefined;
      try {
        const indexes = await readIndexes(deps, kbNames);
        index = indexes[0];
        ({ decision, index } = await withMetricKb(kbName, () => decideAcross(indexes, question, options, deps)));
        if (deps.llm && decision.decision === 'abstain' && isHardLayer(decision.reasons[0]?.layer)) {
          instruments.llmCallsAvoided().add(1, { channel: request.channel, kb: decision.kb.name });
          span.setAttribute(ATTR.llmCallAvoided, true);
        }
      } catch (error) {
        // The caller's mistake (no such KB) or a KB still loading (come back shortly): not a refusal to record.
        if (error instanceof CandorError && (error.code === 'kb_not_found' || error.code === 'kb_warming')) throw error;
        recordError(span, error);
        decision = unavailable(index?.name ?? kbNames[0] ?? kbName, index?.version ?? 0);
        deps.log?.('error', 'ask failed closed', { error: describeError(error) });
      }
      const latencyMs = round(now() - started);
      annotate(span, decision);
      const asked: Asked = { decision, kbId: index?.kbId ?? null, traceId, latencyMs };
      const interactionId = write
        ? await withSpan(SPAN.record, {}, () => write(asked)).catch((error: unknown) => {
            // Losing the row must not lose the reply; the span and the log carry the error.
            deps.log?.('error', 'could not record interaction', { error: describeError(error), traceId });
            return null;
          })
        : null;
      const reason = reasonLabel(decision);
      const kb = decision.kb.name;
      instruments.asks().add(1, { decision: decision.decision, reason, confidence: decision.confidence, channel: request.channel, kb });
      instruments.askDuration().record(latencyMs / 1000, { decision: decision.decision, channel: request.channel, kb });
      return { ...withoutConsidered(decision), traceId, latencyMs, interactionId };
    });
  };
}

/** The reply leaves out the facts a refusal considered: the interaction row keeps them (the ask's JSON contract is unchanged). */
function withoutConsidered(decision: Decided): Decided {
  if (decision.decision !== 'abstain' || decision.considered === undefined) return decision;
  const { considered: _kept, ...reply } = decision;
  return reply;
}

function isHardLayer(layer: string | undefined): boolean {
  return (GATE_LAYER_NAMES as readonly string[]).includes(layer ?? '');
}
