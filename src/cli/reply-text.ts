import type { Decided } from '../ask/decision.js';
import { citationLabel, citeDecision } from '../channels/chat/cited-sources.js';

/**
 * A decision as plain text (`candor ask` without `--json`): the caveat on a
 * line of its own before the answer, the answer, then one line per source
 * ("  1. Title › Section — https://…"); or "I don't know." and the reason.
 */
export function formatReplyText(d: Decided): string {
  if (d.decision === 'abstain') return `I don't know. ${d.refusal}`;
  const { answer, citations } = citeDecision(d);
  const lines = d.caveat ? [`Caveat: ${d.caveat}`, answer] : [answer];
  if (citations.length > 0) {
    lines.push('', 'Sources:');
    for (const c of citations) lines.push(`  ${c.n}. ${citationLabel(c)}${c.url === null ? '' : ` — ${c.url}`}`);
  }
  return lines.join('\n');
}
