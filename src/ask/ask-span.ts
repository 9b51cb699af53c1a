import type { Span } from '@opentelemetry/api';

import { ATTR } from '../telemetry/attributes.js';
import { groundingSupport, reasonLabel, type Decided } from './decision.js';

/** The ask span's attributes of a decision: the score and why, the outcome, the evidence and the KB. */
export function annotate(span: Span, decision: Decided): void {
  const top = decision.answerability?.features.relevance;
  const support = groundingSupport(decision);
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
    ...(support === null ? {} : { [ATTR.groundingSupport]: support }),
    [ATTR.evidenceCount]: decision.evidence.length,
    [ATTR.kbVersion]: decision.kb.version,
    ...(top === undefined ? {} : { [ATTR.topScore]: top }),
    ...(reasonLabel(decision) === 'none' ? {} : { [ATTR.reason]: reasonLabel(decision) }),
  });
}
