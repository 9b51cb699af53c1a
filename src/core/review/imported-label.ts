import type { TaskId } from './review-tasks.js';

export type ImportedLabel =
  | { readonly kind: 'label'; readonly value: string }
  | { readonly kind: 'not_applicable' }
  | { readonly kind: 'invalid'; readonly message: string };

/**
 * PolicyBench's factuality tiers (KnowOrNot: tier 1 functionally equivalent to
 * the expected answer, tier 2 substitutable with minor non-critical
 * deviations, tier 3 unacceptable) read as Candor's factuality outcomes; "NA"
 * marks a reply that abstained, for which factuality does not apply.
 */
export const FACTUALITY_TIERS: Readonly<Record<string, string>> = { tier_1: 'factual', tier_2: 'factual', tier_3: 'non_factual' };

const ABSTAINED: Readonly<Record<string, boolean>> = {
  yes: true,
  true: true,
  abstain: true,
  abstained: true,
  no: false,
  false: false,
  answer: false,
  answered: false,
};

/**
 * An outside annotator's label as a Candor label for `task`. Candor's own
 * outcomes pass as they are. For abstention, a label saying whether the reply
 * abstained (yes/no, as PolicyBench publishes it) becomes `correct` when that
 * was the right decision and `incorrect` otherwise, which needs the item's
 * expected decision; without one it is refused, never guessed.
 */
export function importedLabel(
  task: TaskId,
  raw: string,
  expected: 'answer' | 'abstain' | null,
  outcomes: readonly string[],
): ImportedLabel {
  const value = raw.trim().toLowerCase();
  if (outcomes.includes(value)) return { kind: 'label', value };
  if (task === 'abstention' && value in ABSTAINED) {
    if (expected === null) {
      return {
        kind: 'invalid',
        message: `"${raw}" says whether the reply abstained; to score it as correct/incorrect the line needs "answerable": true|false (or PolicyBench's "experiment_type": "removal")`,
      };
    }
    return { kind: 'label', value: ABSTAINED[value] === (expected === 'abstain') ? 'correct' : 'incorrect' };
  }
  if (task === 'factuality') {
    if (value === 'na' || value === 'n/a') return { kind: 'not_applicable' };
    const tier = FACTUALITY_TIERS[value];
    if (tier) return { kind: 'label', value: tier };
  }
  const extra = task === 'abstention' ? ', or yes/no (did it abstain)' : task === 'factuality' ? ', tier_1/tier_2/tier_3 or NA' : '';
  return { kind: 'invalid', message: `"${raw}" is not a label for ${task} (${outcomes.join('/')}${extra})` };
}
