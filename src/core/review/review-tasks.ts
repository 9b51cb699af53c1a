/**
 * The review tasks, with the criteria humans and judges both follow (as
 * KnowOrNot writes them out), their outcomes, and the emoji that label them.
 */
export type TaskId = 'abstention' | 'factuality' | 'dontknowness';

export interface ReviewTask {
  readonly id: TaskId;
  readonly title: string;
  /** The labelling rules, written out. */
  readonly criteria: string;
  /** Allowed outcomes, in scale order for an ordinal task. */
  readonly outcomes: readonly string[];
  /** What a card shows for each outcome (buttons, menu options): never the raw id. */
  readonly labels: Readonly<Record<string, string>>;
  readonly ordinal: boolean;
  /** Which items the task applies to. */
  readonly appliesTo: 'all' | 'answered';
  /** Default Slack emoji name → outcome. */
  readonly emoji: Readonly<Record<string, string>>;
}

export const REVIEW_TASKS: readonly ReviewTask[] = [
  {
    id: 'abstention',
    title: 'Was answering or refusing the right call?',
    criteria: [
      '`correct` when the bot answered and the cited facts state the answer to what was asked, or when it refused and the knowledge base (as far as the evidence and nearby topics show) does not state the answer.',
      '`incorrect` when it answered from facts that do not state the answer (a related topic, a different scheme, a guess), or refused although a retrieved fact states the answer.',
      'Judge the decision, not the wording. Partial answers count as answers.',
    ].join('\n'),
    outcomes: ['correct', 'incorrect'],
    labels: { correct: '✅ Correct', incorrect: '❌ Incorrect' },
    ordinal: false,
    appliesTo: 'all',
    emoji: { white_check_mark: 'correct', x: 'incorrect' },
  },
  {
    id: 'factuality',
    title: 'Is the answer true to its sources?',
    criteria: [
      '`factual` when every statement in the answer is stated by the facts it cites, with the same numbers, dates, conditions and names.',
      '`non_factual` when any statement contradicts the cited facts, adds something they do not say, or drops a condition that changes the meaning.',
      '`unsure` when the cited facts are ambiguous or you cannot tell without information you do not have.',
    ].join('\n'),
    outcomes: ['factual', 'non_factual', 'unsure'],
    labels: { factual: 'Factual', non_factual: 'Not factual', unsure: 'Unsure' },
    ordinal: false,
    appliesTo: 'answered',
    emoji: { heavy_check_mark: 'factual', heavy_multiplication_x: 'non_factual', grey_question: 'unsure' },
  },
  {
    id: 'dontknowness',
    title: 'How clearly does the reply say what it does not know? (1–5)',
    criteria: [
      '1 — answers confidently, with no hedge, though the evidence does not support it.',
      '2 — answers, with a passing hedge that a reader would likely miss.',
      '3 — gives an answer and a clear caveat that it may be incomplete or wrong.',
      '4 — mostly declines: says it cannot confirm, and points to what the knowledge base does cover.',
      '5 — clearly says it does not know, says why, and does not guess.',
      'Rate the reply as the user saw it, whatever the right decision was.',
    ].join('\n'),
    outcomes: ['1', '2', '3', '4', '5'],
    labels: {
      '1': '1 · Confident, no hedge',
      '2': '2 · A hedge easily missed',
      '3': '3 · Answer with a clear caveat',
      '4': '4 · Mostly declines',
      '5': '5 · Clearly does not know',
    },
    ordinal: true,
    appliesTo: 'all',
    emoji: { one: '1', two: '2', three: '3', four: '4', five: '5' },
  },
];

export function reviewTask(id: string): ReviewTask | undefined {
  return REVIEW_TASKS.find((task) => task.id === id);
}

/** The tasks a reviewer labels for an item ('unknown': an imported reply, which may have answered). */
export function tasksFor(decision: 'answer' | 'abstain' | 'unknown'): ReviewTask[] {
  return REVIEW_TASKS.filter((task) => task.appliesTo === 'all' || decision !== 'abstain');
}

/** An outcome as a card shows it: its label, or the raw id for an outcome without one. */
export function outcomeLabel(task: ReviewTask, outcome: string): string {
  return task.labels[outcome] ?? outcome;
}

/** One line of a task's criteria, for a card: the outcome it defines (by its label), if any, and the rule. */
export interface CriterionLine {
  readonly outcome: string | null;
  readonly label: string | null;
  readonly text: string;
}

/**
 * The criteria split into lines, each with the outcome it defines read as people see it (`non_factual` →
 * "Not factual"; an ordinal step keeps its number), so that a card never shows a raw id or a backtick.
 */
export function criteriaLines(task: ReviewTask): CriterionLine[] {
  return task.criteria.split('\n').map((line) => {
    const match = /^`([a-z0-9_]+)`\s+(.*)$/.exec(line) ?? /^(\d+) — (.*)$/.exec(line);
    const outcome = match?.[1];
    if (!match || outcome === undefined || !task.outcomes.includes(outcome)) return { outcome: null, label: null, text: line };
    return { outcome, label: task.ordinal ? outcome : outcomeLabel(task, outcome), text: match[2] ?? '' };
  });
}

export type ParsedLabel = { ok: true; task: TaskId; value: string } | { ok: false; message: string };

/**
 * Reads a label given as an outcome (`correct`, `4`) or an emoji name
 * (`white_check_mark`, `:four:`) for a task, or an emoji alone (its task is
 * then the one whose legend holds it). Says what is allowed when it is neither.
 */
export function parseLabel(raw: string, task?: string, tasks: readonly ReviewTask[] = REVIEW_TASKS): ParsedLabel {
  const text = raw
    .trim()
    .replace(/^:|:$/g, '')
    .replace(/::skin-tone-\d$/, '')
    .toLowerCase();
  const candidates = task ? tasks.filter((t) => t.id === task) : tasks;
  if (task && candidates.length === 0)
    return { ok: false, message: `Unknown task "${task}". Tasks: ${tasks.map((t) => t.id).join(', ')}.` };
  for (const t of candidates) {
    if (task && t.outcomes.includes(text)) return { ok: true, task: t.id, value: text };
    const byEmoji = t.emoji[text];
    if (byEmoji) return { ok: true, task: t.id, value: byEmoji };
  }
  const allowed = candidates
    .map(
      (t) =>
        `${t.id}: ${t.outcomes.join(' / ')} (${Object.keys(t.emoji)
          .map((e) => `:${e}:`)
          .join(' ')})`,
    )
    .join('; ');
  return { ok: false, message: `"${raw}" is not a label${task ? ` for ${task}` : ''}. Allowed — ${allowed}.` };
}

/**
 * The tasks with a deployment's own emoji added to (or replacing) the default
 * legend. Throws when an override names an unknown task or outcome.
 */
export function withEmoji(
  overrides: Readonly<Record<string, { readonly task: string; readonly value: string }>>,
  tasks: readonly ReviewTask[] = REVIEW_TASKS,
): ReviewTask[] {
  const out = tasks.map((t) => ({ ...t, emoji: { ...t.emoji } }));
  for (const [emoji, { task, value }] of Object.entries(overrides)) {
    const target = out.find((t) => t.id === task);
    if (!target) throw new Error(`emoji "${emoji}": unknown task "${task}"`);
    if (!target.outcomes.includes(value))
      throw new Error(`emoji "${emoji}": "${value}" is not an outcome of ${task} (${target.outcomes.join(', ')})`);
    for (const t of out) delete (t.emoji as Record<string, string>)[emoji];
    (target.emoji as Record<string, string>)[emoji] = value;
  }
  return out;
}

/**
 * Whether a user counts as a reviewer: listed as "platform:id", or, for a chat platform, as the bare id. A
 * terminal name is anything typed after --as, and a console user is a name in CANDOR_CONSOLE_BASIC_AUTH, so
 * only their exact "cli:NAME" / "console:NAME" entry counts (never a chat id used as a name). No reviewers
 * configured means nobody's labels count.
 */
export function isReviewer(reviewers: readonly string[], platform: string, userId: string): boolean {
  return reviewers.includes(`${platform}:${userId}`) || (platform !== 'cli' && platform !== 'console' && reviewers.includes(userId));
}
