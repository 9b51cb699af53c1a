import type { ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewItem } from '../../review/review-items.js';
import { escapeMrkdwn } from './render-slack-reply.js';

/** Buttons carry `candor_label:<task>:<value>` as action id and the sample id as value. */
export const LABEL_ACTION = /^candor_label:(abstention|factuality|dontknowness):([a-z0-9_]+)$/;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A review card: the question, the reply with its decision and reason, the
 * evidence, and for each task its written criteria, its emoji legend and a
 * button per label. Current labels are shown at the bottom.
 */
export function renderReviewCard(
  item: ReviewItem,
  tasks: readonly ReviewTask[],
  labels: readonly CurrentLabel[] = [],
): { text: string; blocks: object[] } {
  const decision = item.decision === 'answer' ? 'Answered' : `Refused (${item.reason ?? 'unknown'})`;
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: `Review #${item.sampleId}: ${decision}`, emoji: false } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: clip(`*Question* (${escapeMrkdwn(item.channel)})\n${escapeMrkdwn(item.question)}`, 3000) },
    },
    { type: 'section', text: { type: 'mrkdwn', text: clip(`*Reply*\n${escapeMrkdwn(item.reply)}`, 3000) } },
  ];
  if (item.evidence.length > 0) {
    blocks.push({
      type: 'context',
      elements: item.evidence
        .slice(0, 10)
        .map((e, i) => ({ type: 'mrkdwn', text: clip(`[${i + 1}] ${escapeMrkdwn(e.text)} — ${escapeMrkdwn(e.source)}`, 3000) })),
    });
  }
  for (const task of tasks) {
    const legend = Object.entries(task.emoji)
      .map(([emoji, value]) => `:${emoji}: ${value}`)
      .join('   ');
    blocks.push(
      { type: 'divider' },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: clip(`*${task.id}* — ${escapeMrkdwn(task.title)}\n${escapeMrkdwn(task.criteria)}`, 3000) },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `React to label: ${legend}` }] },
      {
        type: 'actions',
        block_id: `labels:${task.id}`,
        elements: task.outcomes.map((value) => ({
          type: 'button',
          action_id: `candor_label:${task.id}:${value}`,
          text: { type: 'plain_text', text: value, emoji: false },
          value: String(item.sampleId),
        })),
      },
    );
  }
  const current = labels.filter((l) => !l.annotator.startsWith('llm:'));
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text:
          current.length === 0
            ? 'No labels yet.'
            : `Labels: ${current.map((l) => `${escapeMrkdwn(l.annotator)} ${l.task}=${l.value}`).join(', ')}`,
      },
    ],
  });
  return { text: `Review #${item.sampleId}: ${decision} — ${clip(item.question, 200)}`, blocks };
}
