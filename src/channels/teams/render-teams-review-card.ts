import { criteriaLines, outcomeLabel, type ReviewTask } from '../../core/review/review-tasks.js';
import type { CurrentLabel } from '../../review/label-store.js';
import type { ReviewItem } from '../../review/review-items.js';
import { citeAnswer } from '../chat/cited-sources.js';
import { teamsCitation, type Block } from './render-teams-card.js';

/** Teams reactions that label (the Teams reaction set is small): shown under "How to judge" as its legend. */
export const TEAMS_REACTION_LABELS: Readonly<Record<string, { readonly task: string; readonly value: string }>> = {
  like: { task: 'abstention', value: 'correct' },
  sad: { task: 'abstention', value: 'incorrect' },
};

/** Action.Execute verbs: one label (a button), the menus' labels ("Save"), and the per-person refresh. */
export const REVIEW_VERBS = { label: 'candor.review.label', labels: 'candor.review.labels', refresh: 'candor.review.refresh' } as const;

/** Cards posted before Universal Actions submit `{ candor: 'label', sampleId, task, value }` (Action.Submit). */
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

/**
 * What a review card shows, as plain JSON: the card carries it in its refresh action, so that any replica
 * re-renders the card for one person (their choices selected) from the refresh invoke alone.
 */
export interface TeamsReviewModel {
  readonly sampleId: number;
  readonly interactionId: number;
  readonly decision: string;
  readonly channel: string;
  readonly kb: string | null;
  /** ISO time the question was asked. */
  readonly askedAt: string;
  readonly question: string;
  readonly reply: string;
  /** `n. [Title](url)` or `n. Title` per source. */
  readonly sources: readonly string[];
  readonly tasks: readonly string[];
  /** Human labels as [annotator, task, value]. */
  readonly labels: ReadonlyArray<readonly [string, string, string]>;
}

/** A review card as JSON (Adaptive Card 1.5, Universal Actions). */
export interface ReviewAdaptiveCard {
  readonly type: 'AdaptiveCard';
  readonly $schema: string;
  readonly version: '1.5';
  readonly refresh: Block;
  readonly body: ReadonlyArray<Block>;
  readonly actions: ReadonlyArray<Block>;
}

/** Who the card is drawn for: the annotator whose choices show, and the Teams user ids to refresh it for. */
export interface TeamsReviewView {
  readonly viewer?: string | undefined;
  /** Teams user ids (`from.id`) whose client refreshes the card to their own view. @default none */
  readonly refreshFor?: readonly string[];
  /** CANDOR_PUBLIC_URL: an "Open in console" button. */
  readonly publicUrl?: string | undefined;
}

const MAX_TEXT = 2000;
const clip = (text: string, max = MAX_TEXT) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const text = (value: string, extra: Block = {}): Block => ({ type: 'TextBlock', text: value, wrap: true, ...extra });
const heading = (value: string, extra: Block = {}): Block => text(value, { weight: 'Bolder', size: 'Small', isSubtle: true, ...extra });

/** The model of a card: the item, its tasks and its current human labels. */
export function reviewModel(item: ReviewItem, tasks: readonly ReviewTask[], labels: readonly CurrentLabel[]): TeamsReviewModel {
  const decision =
    item.decision === 'answer'
      ? 'Answered'
      : item.decision === 'unknown'
        ? 'Imported reply'
        : `Refused — ${(item.reason ?? 'unknown').replace(/_/g, ' ')}`;
  return {
    sampleId: item.sampleId,
    interactionId: item.interactionId,
    decision,
    channel: item.channel,
    kb: item.kb,
    askedAt: item.askedAt.toISOString(),
    question: clip(item.question),
    reply: clip(item.reply),
    sources: citeAnswer('', item.evidence, { markers: false })
      .citations.slice(0, 5)
      .map((c) => teamsCitation(c)),
    tasks: tasks.map((t) => t.id),
    labels: labels
      .filter((l) => !l.annotator.startsWith('llm:') && !l.annotator.startsWith('rule:'))
      .map((l) => [l.annotator, l.task, l.value] as const),
  };
}

/**
 * The review card for Teams: question, reply, sources, a fact set (review,
 * channel, KB, time), then ✅/❌ buttons for abstention and menus (with one
 * "Save") for the other tasks, drawn with the viewer's choices; "How to judge"
 * shows the criteria. Every button is an Action.Execute, so a press is answered
 * with the card as the presser now sees it.
 */
export function renderTeamsReviewCard(
  model: TeamsReviewModel,
  allTasks: readonly ReviewTask[],
  view: TeamsReviewView = {},
): ReviewAdaptiveCard {
  const tasks = model.tasks.flatMap((id) => allTasks.filter((t) => t.id === id));
  const chosen = (task: string) => model.labels.find(([a, t]) => a === view.viewer && t === task)?.[2];
  const body: Block[] = [
    heading('Question'),
    text(model.question, { spacing: 'None' }),
    heading(`Reply · ${model.decision}`),
    text(model.reply, { spacing: 'None' }),
  ];
  if (model.sources.length > 0) body.push(heading('Sources'), ...model.sources.map((s) => text(s, { spacing: 'None', size: 'Small' })));
  body.push({
    type: 'FactSet',
    separator: true,
    facts: [
      { title: 'Review', value: `#${model.sampleId}` },
      { title: 'Channel', value: model.channel },
      ...(model.kb ? [{ title: 'Knowledge base', value: model.kb }] : []),
      { title: 'Asked', value: `${model.askedAt.slice(0, 16).replace('T', ' ')} UTC` },
    ],
  });
  const menus = tasks.filter((t) => t.id !== 'abstention');
  for (const task of tasks) body.push(...taskBlocks(task, model.sampleId, chosen(task.id)));
  if (menus.length > 0)
    body.push({ type: 'ActionSet', actions: [execute('Save', REVIEW_VERBS.labels, { candor: 'labels', sampleId: model.sampleId })] });
  body.push(text(labelledLine(model, view.viewer), { size: 'Small', isSubtle: true, separator: true }));
  const actions: Block[] = [{ type: 'Action.ShowCard', title: 'How to judge', card: { type: 'AdaptiveCard', body: howToJudge(tasks) } }];
  if (view.publicUrl)
    actions.push({ type: 'Action.OpenUrl', title: 'Open in console', url: `${view.publicUrl}/interactions/${model.interactionId}` });
  return {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.5',
    refresh: {
      action: { type: 'Action.Execute', title: 'Refresh', verb: REVIEW_VERBS.refresh, data: { candor: 'review', model } },
      ...(view.refreshFor && view.refreshFor.length > 0 ? { userIds: [...view.refreshFor] } : {}),
    },
    body,
    actions,
  };
}

function execute(title: string, verb: string, data: Block, style?: string): Block {
  return { type: 'Action.Execute', title, verb, data, ...(style ? { style } : {}) };
}

/** Abstention: ✅/❌ buttons (the viewer's ✓ and coloured, the other plain); other tasks: a menu (compact, the default). */
function taskBlocks(task: ReviewTask, sampleId: number, chosen: string | undefined): Block[] {
  const title = text(task.title, { weight: 'Bolder', spacing: 'Medium' });
  if (task.id === 'abstention') {
    const styles = ['positive', 'destructive'];
    const buttons = task.outcomes.map((value, i) =>
      execute(
        chosen === value ? `${outcomeLabel(task, value)} ✓` : outcomeLabel(task, value),
        REVIEW_VERBS.label,
        { candor: 'label', sampleId, task: task.id, value },
        chosen === undefined || chosen === value ? styles[i] : undefined,
      ),
    );
    return [title, { type: 'ActionSet', actions: buttons }];
  }
  return [
    title,
    {
      type: 'Input.ChoiceSet',
      id: task.id,
      placeholder: 'Choose…',
      spacing: 'None',
      choices: task.outcomes.map((value) => ({ title: outcomeLabel(task, value), value })),
      ...(chosen !== undefined ? { value: chosen } : {}),
    },
  ];
}

function labelledLine(model: TeamsReviewModel, viewer: string | undefined): string {
  const who = new Set(model.labels.map(([a]) => a));
  if (who.size === 0) return 'Not labelled yet.';
  const yours = viewer && who.has(viewer) ? ' (you among them; your choices are shown)' : '';
  return `Labelled by ${who.size} ${who.size === 1 ? 'reviewer' : 'reviewers'}${yours}.`;
}

/** Each task's rules as a fact set (outcome → rule), its notes as text, and the reactions that label. */
function howToJudge(tasks: readonly ReviewTask[]): Block[] {
  const body: Block[] = [];
  for (const task of tasks) {
    const lines = criteriaLines(task);
    body.push(text(task.title, { weight: 'Bolder' }), {
      type: 'FactSet',
      facts: lines.filter((l) => l.label !== null).map((l) => ({ title: l.label, value: l.text })),
    });
    for (const note of lines.filter((l) => l.label === null)) body.push(text(note.text, { size: 'Small', spacing: 'Small' }));
  }
  const legend = Object.entries(TEAMS_REACTION_LABELS)
    .filter(([, l]) => tasks.some((t) => t.id === l.task))
    .map(
      ([reaction, l]) => `${reaction === 'like' ? '👍' : '😢'} ${outcomeLabel(tasks.find((t) => t.id === l.task) as ReviewTask, l.value)}`,
    );
  if (legend.length > 0) body.push(text(`Or react to the card: ${legend.join(', ')}.`, { size: 'Small', isSubtle: true, separator: true }));
  return body;
}
