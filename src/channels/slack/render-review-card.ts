import { criteriaLines, outcomeLabel, type ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewItem } from '../../review/review-items.js';
import { citeAnswer } from '../chat/cited-sources.js';
import { escapeMrkdwn, slackCitation } from './render-slack-reply.js';

/**
 * A label control's action id: `candor_label:<task>:<value>` on a button (whose value is the sample id),
 * `candor_label:<task>` on a menu (the chosen option's value is the outcome; the block id names the sample).
 */
export const LABEL_ACTION = /^candor_label:(abstention|factuality|dontknowness)(?::([a-z0-9_]+))?$/;
/** The card's overflow menu ("How to judge"); its option's value lists the card's task ids. */
export const HOW_TO_JUDGE_ACTION = 'candor_review_help';
/** A menu's block: `labels:<task>:<sampleId>`, so that a choice names its sample as a button's value does. */
export const LABEL_BLOCK = /^labels:[a-z]+:(\d+)$/;

/** What a card shows besides the item: everyone's labels, whose choices it marks, where the console is. */
export interface ReviewCardView {
  /** Every current label of the item (judges' are left out). */
  readonly labels?: readonly CurrentLabel[];
  /** The annotator ("slack:U…") whose choices show as selected: the reviewer who last pressed. */
  readonly viewer?: string | undefined;
  /** CANDOR_PUBLIC_URL: the card links to the interaction in the console. */
  readonly publicUrl?: string | undefined;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text: clip(text, 75), emoji: true });

/** "Refused — unknown entity" or "Answered". */
export function decisionLine(item: Pick<ReviewItem, 'decision' | 'reason'>): string {
  if (item.decision === 'answer') return 'Answered';
  if (item.decision === 'unknown') return 'Imported reply';
  return `Refused — ${(item.reason ?? 'unknown').replace(/_/g, ' ')}`;
}

/** Human annotators only: judges (llm:, rule:) never show on a card. */
export const humanLabels = (labels: readonly CurrentLabel[]) =>
  labels.filter((l) => !l.annotator.startsWith('llm:') && !l.annotator.startsWith('rule:'));

/**
 * A review card in at most ten blocks: the question (with "How to judge" in
 * its overflow menu), the reply, its sources, one context line, then per task
 * one control — ✅/❌ buttons for abstention, a menu for factuality and the
 * 1–5 scale — showing the viewer's choices, and who has labelled.
 */
export function renderReviewCard(
  item: ReviewItem,
  tasks: readonly ReviewTask[],
  view: ReviewCardView = {},
): { text: string; blocks: object[] } {
  const labels = humanLabels(view.labels ?? []);
  const chosen = (task: string) => labels.find((l) => l.annotator === view.viewer && l.task === task)?.value;
  const blocks: object[] = [
    {
      type: 'section',
      block_id: 'question',
      text: mrkdwn(clip(`*Question*\n${escapeMrkdwn(item.question)}`, 3000)),
      accessory: {
        type: 'overflow',
        action_id: HOW_TO_JUDGE_ACTION,
        options: [{ text: plain('How to judge'), value: tasks.map((t) => t.id).join(',') }],
      },
    },
    { type: 'section', block_id: 'reply', text: mrkdwn(clip(`*Reply* · ${decisionLine(item)}\n${escapeMrkdwn(item.reply)}`, 3000)) },
  ];
  const sources = sourceLines(item);
  if (sources.length > 0)
    blocks.push({ type: 'context', block_id: 'sources', elements: [mrkdwn(clip(`*Sources*  ${sources.join('   ')}`, 3000))] });
  blocks.push({ type: 'context', block_id: 'about', elements: [mrkdwn(contextLine(item, view.publicUrl))] }, { type: 'divider' });
  for (const task of tasks) blocks.push(...taskBlocks(task, item.sampleId, chosen(task.id)));
  blocks.push({ type: 'context', block_id: 'labelled', elements: [mrkdwn(labelledLine(labels, view.viewer))] });
  return { text: `Review #${item.sampleId}: ${decisionLine(item)} — ${clip(item.question, 200)}`, blocks };
}

/** Up to five sources: `[n] <url|Title>` (a link when the evidence has one), deduplicated. */
function sourceLines(item: ReviewItem): string[] {
  return citeAnswer('', item.evidence, { markers: false })
    .citations.slice(0, 5)
    .map((c) => slackCitation(c));
}

/** Review number, channel, KB, when (in the reader's time zone), and the console link when there is one. */
function contextLine(item: ReviewItem, publicUrl: string | undefined): string {
  const seconds = Math.floor(item.askedAt.getTime() / 1000);
  const when = `<!date^${seconds}^{date_short_pretty} {time}|${item.askedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;
  const parts = [`Review #${item.sampleId}`, escapeMrkdwn(item.channel), ...(item.kb ? [`KB ${escapeMrkdwn(item.kb)}`] : []), when];
  if (publicUrl) parts.push(`<${publicUrl}/interactions/${item.interactionId}|Open in console>`);
  return parts.join(' · ');
}

/** Abstention: a title and ✅/❌ buttons (the viewer's choice ✓ and coloured, the other grey); others: a menu. */
function taskBlocks(task: ReviewTask, sampleId: number, chosen: string | undefined): object[] {
  if (task.id === 'abstention') {
    const styles = ['primary', 'danger'];
    return [
      { type: 'section', block_id: `title:${task.id}`, text: mrkdwn(`*${escapeMrkdwn(task.title)}*`) },
      {
        type: 'actions',
        block_id: `labels:${task.id}`,
        elements: task.outcomes.map((value, i) => {
          const style = chosen === undefined || chosen === value ? styles[i] : undefined;
          return {
            type: 'button',
            action_id: `candor_label:${task.id}:${value}`,
            text: plain(chosen === value ? `${outcomeLabel(task, value)} ✓` : outcomeLabel(task, value)),
            value: String(sampleId),
            ...(style ? { style } : {}),
          };
        }),
      },
    ];
  }
  const option = (value: string) => ({ text: plain(outcomeLabel(task, value)), value });
  return [
    {
      type: 'section',
      block_id: `labels:${task.id}:${sampleId}`,
      text: mrkdwn(`*${escapeMrkdwn(task.title)}*`),
      accessory: {
        type: 'static_select',
        action_id: `candor_label:${task.id}`,
        placeholder: plain('Choose…'),
        options: task.outcomes.map(option),
        ...(chosen !== undefined && task.outcomes.includes(chosen) ? { initial_option: option(chosen) } : {}),
      },
    },
  ];
}

/** "Labelled by <@U1>, <@U2> · ✓ marks <@U2>'s labels", or how to start. */
function labelledLine(labels: readonly CurrentLabel[], viewer: string | undefined): string {
  const who = [...new Set(labels.map((l) => l.annotator))];
  if (who.length === 0) return 'Not labelled yet: press, choose, or react with an emoji from "How to judge".';
  const name = (annotator: string) => (annotator.startsWith('slack:') ? `<@${annotator.slice(6)}>` : escapeMrkdwn(annotator));
  const marks = viewer && who.includes(viewer) ? ` · selections show ${name(viewer)}'s labels` : '';
  return `Labelled by ${who.map(name).join(', ')}${marks}`;
}

/** The "How to judge" modal: each task's criteria, outcomes by their labels, and the emoji that label it. */
export function renderHowToJudge(tasks: readonly ReviewTask[]): object {
  const blocks: object[] = [];
  for (const task of tasks.slice(0, 20)) {
    const lines = criteriaLines(task).map((l) =>
      l.label === null ? escapeMrkdwn(l.text) : `*${escapeMrkdwn(l.label)}* — ${escapeMrkdwn(l.text)}`,
    );
    const legend = Object.entries(task.emoji)
      .map(([emoji, value]) => `:${emoji}: ${escapeMrkdwn(outcomeLabel(task, value))}`)
      .join('   ');
    blocks.push(
      { type: 'header', text: plain(task.title) },
      { type: 'section', text: mrkdwn(clip(lines.join('\n'), 3000)) },
      { type: 'context', elements: [mrkdwn(`React on the card to label: ${legend}`)] },
    );
  }
  return {
    type: 'modal',
    callback_id: 'candor_review_how_to_judge',
    title: plain('How to judge'),
    close: plain('Close'),
    blocks,
  };
}
