import { createHash } from 'node:crypto';
import { isSpanContextValid, ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Attributes, type SpanContext } from '@opentelemetry/api';

import { ATTR, GEN_AI, GEN_AI_EVENT, SCOPE, SPAN } from './attributes.js';

export type AnnotatorType = 'human' | 'llm_judge' | 'rule_judge' | 'asker';

/** The interaction an evaluation is about, as stored. */
export interface EvaluatedInteraction {
  readonly interactionId: number;
  /** The ask's trace id; null (imported replies, rows from before traces were kept): nothing is emitted. */
  readonly traceId: string | null;
  /** The span evaluated, when it is known; otherwise a stand-in parent derived from the trace id (see evaluationParent). */
  readonly spanId?: string | null | undefined;
}

/** One `gen_ai.evaluation.result`: a human label, a judge's verdict or an asker's feedback. */
export interface EvaluationResult {
  /** gen_ai.evaluation.name: the review task (`abstention`, `factuality`, `dontknowness`) or `asker_feedback`. */
  readonly name: string;
  readonly scoreLabel?: string | undefined;
  readonly scoreValue?: number | undefined;
  /** Candor's own words (a fixed reason): never what a person typed. */
  readonly explanation?: string | undefined;
  /**
   * Free text that can quote what people typed (a feedback comment, an LLM judge's reasoning): added to the
   * explanation only with CANDOR_TRACE_CONTENT.
   */
  readonly userText?: string | null | undefined;
  /** A judge's id as is; a person's `<platform>:<id>` (human) is hashed here; an asker's arrives hashed. */
  readonly annotator: string;
  readonly annotatorType: AnnotatorType;
  readonly via?: string | undefined;
  /** @default 'set' */
  readonly action?: 'set' | 'remove' | undefined;
}

export interface EvaluationEventSettings {
  /** CANDOR_TRACE_CONTENT: free text that can quote users (comments, judges' reasoning) goes into the explanation. */
  readonly traceContent: boolean;
  /** Hashes a person's platform id as askers' ids are hashed (hashUserId with CANDOR_USER_HASH_SALT). */
  readonly hashUser: (id: string) => string;
}

// Until the composition root configures them, people's ids are left out and no free text is kept.
let settings: EvaluationEventSettings = { traceContent: false, hashUser: () => 'unknown' };

/** Set once by the composition root (like the tracer provider these events go to). */
export function configureEvaluationEvents(next: EvaluationEventSettings): void {
  settings = next;
}

/**
 * Emits one evaluation in the trace of the interaction it is about. A label
 * arrives long after its ask's spans have ended, so it gets a short span of
 * its own (`candor.evaluation`) whose parent is the ask's trace, and the
 * result is that span's `gen_ai.evaluation.result` event (the attributes are on
 * the span too, for backends that search span attributes). Returns false when
 * the interaction has no trace id. Never throws: the label is stored already.
 */
export function emitEvaluationResult(target: EvaluatedInteraction, result: EvaluationResult): boolean {
  const parent = evaluationParent(target);
  if (!parent) return false;
  const attributes = evaluationAttributes(target, result);
  const span = trace
    .getTracer(SCOPE.candor)
    .startSpan(SPAN.evaluation, { kind: SpanKind.INTERNAL, attributes }, trace.setSpanContext(ROOT_CONTEXT, parent));
  span.addEvent(GEN_AI_EVENT.evaluationResult, attributes);
  span.end();
  return true;
}

/**
 * The ask's trace as a remote parent. Interactions keep their trace id only, so
 * without a span id the parent is a stand-in span id derived from the trace id:
 * every evaluation of one interaction hangs off the same (unexported) parent,
 * and a trace backend shows them in the ask's trace, at its top level.
 */
export function evaluationParent(target: EvaluatedInteraction): SpanContext | null {
  if (!target.traceId) return null;
  const spanId = target.spanId || createHash('sha256').update(`candor.ask:${target.traceId}`).digest('hex').slice(0, 16);
  const parent: SpanContext = { traceId: target.traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(parent) ? parent : null;
}

function evaluationAttributes(target: EvaluatedInteraction, result: EvaluationResult): Attributes {
  const userText = settings.traceContent && result.userText ? result.userText : undefined;
  const explanation = [result.explanation, userText].filter((part): part is string => Boolean(part)).join(': ');
  return {
    [GEN_AI.evaluationName]: result.name,
    ...(result.scoreLabel === undefined ? {} : { [GEN_AI.evaluationScoreLabel]: result.scoreLabel }),
    ...(result.scoreValue === undefined ? {} : { [GEN_AI.evaluationScoreValue]: result.scoreValue }),
    ...(explanation ? { [GEN_AI.evaluationExplanation]: explanation } : {}),
    [ATTR.evaluationAnnotator]: result.annotatorType === 'human' ? hashedPerson(result.annotator) : result.annotator,
    [ATTR.evaluationAnnotatorType]: result.annotatorType,
    ...(result.via ? { [ATTR.evaluationVia]: result.via } : {}),
    [ATTR.evaluationAction]: result.action ?? 'set',
    [ATTR.interactionId]: target.interactionId,
  };
}

/** `slack:U123` → `slack:<hash of U123>`: telemetry never holds a person's id in the clear. */
function hashedPerson(annotator: string): string {
  const colon = annotator.indexOf(':');
  return colon < 0 ? settings.hashUser(annotator) : `${annotator.slice(0, colon)}:${settings.hashUser(annotator.slice(colon + 1))}`;
}
