import type { Decision } from '../ask/decision.js';
import type { ExpertsEntry } from '../config/experts-setting.js';
import { FAILURE_REASONS } from './sync-gaps.js';

/**
 * Whether a reply goes to the KB's experts without anyone pressing: the KB
 * sets autoAsk, the reply is a refusal for lack of knowledge (not an outage),
 * and it is a stored interaction.
 */
export function shouldAutoAsk(decision: Decision, entry: ExpertsEntry | undefined): decision is Decision & { interactionId: number } {
  if (!entry?.autoAsk || decision.decision !== 'abstain' || decision.interactionId === null) return false;
  const code = decision.reasons[0]?.code ?? null;
  return code === null || !(FAILURE_REASONS as readonly string[]).includes(code);
}
