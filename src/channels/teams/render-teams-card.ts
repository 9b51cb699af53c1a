import type { Reply } from '../chat/chat-message.js';

/** Teams rejects messages above ~28 KB; answers are shortened well before that. */
export const TEAMS_MAX_TEXT = 12_000;

export interface AdaptiveCard {
  readonly type: 'AdaptiveCard';
  readonly $schema: string;
  readonly version: '1.4';
  readonly body: ReadonlyArray<Record<string, unknown>>;
}

/**
 * The Adaptive Card for a decision: the answer and its numbered sources, or
 * "I don't know." with the reason and nearby topics. Pure JSON, no botbuilder.
 */
export function renderTeamsCard(reply: Extract<Reply, { kind: 'decision' }>): AdaptiveCard {
  const d = reply.decision;
  const body: Record<string, unknown>[] = [];
  if (d.decision === 'answer') {
    body.push(text(shorten(d.answer ?? '')));
    if (d.evidence.length > 0) {
      body.push({ ...text('Sources'), weight: 'Bolder', size: 'Small', separator: true, spacing: 'Medium' });
      d.evidence.forEach((e, i) => body.push({ ...text(`[${i + 1}] ${e.source}`), size: 'Small', isSubtle: true, spacing: 'None' }));
    }
    body.push({ ...text(`Knowledge base ${d.kb.name} v${d.kb.version}`), size: 'Small', isSubtle: true });
  } else {
    const refusal = d.refusal ?? "I couldn't find an answer in the knowledge base.";
    body.push({ ...text("I don't know."), weight: 'Bolder' });
    body.push(text(shorten(refusal)));
    const unmentioned = d.nearbyTopics.filter((t) => !refusal.includes(t));
    if (unmentioned.length > 0) {
      body.push({
        ...text(`The knowledge base does cover: ${unmentioned.map((t) => `“${t}”`).join('; ')}`),
        size: 'Small',
        isSubtle: true,
      });
    }
  }
  return { type: 'AdaptiveCard', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', version: '1.4', body };
}

function text(value: string): Record<string, unknown> {
  return { type: 'TextBlock', text: value, wrap: true };
}

function shorten(value: string): string {
  return value.length <= TEAMS_MAX_TEXT ? value : `${value.slice(0, TEAMS_MAX_TEXT - 40).trimEnd()}… (shortened: too long for Teams)`;
}
