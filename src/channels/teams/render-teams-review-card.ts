import type { ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewItem } from '../../review/review-items.js';
import type { AdaptiveCard } from './render-teams-card.js';

/** Teams reactions that label (the Teams reaction set is small): shown on the card as its legend. */
export const TEAMS_REACTION_LABELS: Readonly<Record<string, { readonly task: string; readonly value: string }>> = {
  like: { task: 'abstention', value: 'correct' },
  sad: { task: 'abstention', value: 'incorrect' },
};

/** Card buttons submit `{ candor: 'label', sampleId, task, value }`. */
export interface LabelSubmit {
  readonly candor: 'label';
  readonly sampleId: number;
  readonly task: string;
  readonly value: string;
}

export function isLabelSubmit(value: unknown): value is LabelSubmit {
  const v = value as Partial<LabelSubmit> | null;
  return !!v && v.candor === 'label' && Number.isInteger(v.sampleId) && typeof v.task === 'string' && typeof v.value === 'string';
}

const text = (value: string, extra: Record<string, unknown> = {}) => ({ type: 'TextBlock', text: value, wrap: true, ...extra });

/** The review card for Teams: what Slack's card shows, with Action.Submit buttons per label. */
export function renderTeamsReviewCard(item: ReviewItem, tasks: readonly ReviewTask[], labels: readonly CurrentLabel[] = []): AdaptiveCard {
  const decision = item.decision === 'answer' ? 'Answered' : `Refused (${item.reason ?? 'unknown'})`;
  const body: Record<string, unknown>[] = [
    text(`Review #${item.sampleId}: ${decision}`, { weight: 'Bolder', size: 'Medium' }),
    text(`Question (${item.channel}): ${item.question}`),
    text(`Reply: ${item.reply}`),
    ...item.evidence.map((e, i) => text(`[${i + 1}] ${e.text} — ${e.source}`, { size: 'Small', isSubtle: true, spacing: 'None' })),
  ];
  const legend = Object.entries(TEAMS_REACTION_LABELS)
    .map(([reaction, l]) => `${reaction} = ${l.task} ${l.value}`)
    .join(', ');
  for (const task of tasks) {
    body.push(
      text(`${task.id} — ${task.title}`, { weight: 'Bolder', separator: true, spacing: 'Medium' }),
      text(task.criteria, { size: 'Small' }),
      {
        type: 'ActionSet',
        actions: task.outcomes.map((value) => ({
          type: 'Action.Submit',
          title: value,
          data: { candor: 'label', sampleId: item.sampleId, task: task.id, value } satisfies LabelSubmit,
        })),
      },
    );
  }
  body.push(text(`Or react: ${legend}.`, { size: 'Small', isSubtle: true }));
  const current = labels.filter((l) => !l.annotator.startsWith('llm:'));
  body.push(
    text(current.length === 0 ? 'No labels yet.' : `Labels: ${current.map((l) => `${l.annotator} ${l.task}=${l.value}`).join(', ')}`, {
      size: 'Small',
      isSubtle: true,
    }),
  );
  return { type: 'AdaptiveCard', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', version: '1.4', body };
}
