import type { TaskId } from '../review/review-tasks.js';
import { ABSTENTION_RULE_ID, detectAbstention } from './abstention-detector.js';

/** What a rule judge sees of an item. */
export interface RuleJudgeItem {
  readonly question: string;
  readonly reply: string;
  readonly expected: 'answer' | 'abstain' | null;
}

/** A judge that needs no model: a pure function from an item to one of the task's outcomes, or null when it cannot tell. */
export interface RuleJudge {
  /** Stored as the annotator, e.g. `rule:abstention@1`. */
  readonly annotator: string;
  readonly task: TaskId;
  label(item: RuleJudgeItem): string | null;
  /** Why it gave the label it gives (the disagreement list shows it); null when it gives none. */
  explain?(item: RuleJudgeItem): string | null;
}

/**
 * `rule:abstention@1` on the abstention task: whether the reply abstains
 * (the rule detector), scored against the decision that was right — `correct`
 * when they match. Items whose right decision is unknown get no label.
 */
export const ABSTENTION_RULE_JUDGE: RuleJudge = {
  annotator: ABSTENTION_RULE_ID,
  task: 'abstention',
  label(item) {
    if (item.expected === null) return null;
    return detectAbstention(item.reply, item.question).abstains === (item.expected === 'abstain') ? 'correct' : 'incorrect';
  },
  explain(item) {
    if (item.expected === null) return null;
    const read = detectAbstention(item.reply, item.question);
    return `The reply ${read.abstains ? 'abstains' : 'answers'} (${read.why}); the right decision was to ${item.expected === 'abstain' ? 'abstain' : 'answer'}.`;
  },
};

export const RULE_JUDGES: readonly RuleJudge[] = [ABSTENTION_RULE_JUDGE];
