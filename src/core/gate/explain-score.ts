import type { FeatureName, FeatureReport } from './answerability-features.js';
import type { AnswerabilityScore } from './answerability-model.js';
import type { QuestionAnalysis, ReasonCode } from './types.js';

/** Features that say the same thing to a user, and the reason code a refusal they lead gets. */
const SIGNALS: readonly { readonly code: ReasonCode | 'unknown_terms' | 'numbers'; readonly features: readonly FeatureName[] }[] = [
  { code: 'low_relevance', features: ['relevance'] },
  { code: 'unknown_terms', features: ['unknownTerms', 'anyUnknownTerm'] },
  { code: 'numbers', features: ['numbersAgree', 'numbersConflict'] },
  { code: 'low_margin', features: ['passageMargin', 'runnerUpRatio'] },
  { code: 'answer_type_mismatch', features: ['answerTypeMissing'] },
  {
    code: 'low_coverage',
    features: [
      'coverage',
      'coverageTop3',
      'coverageLead',
      'rarestTermHeld',
      'rareTermsHeld',
      'adjacentPairs',
      'phraseCoverage',
      'precision',
    ],
  },
];

/**
 * Why a score is low, in plain words: the feature that pulled it down most,
 * told as the signal it belongs to. A user sees words as they typed them, never a stem.
 */
export function explainLowScore(
  scored: AnswerabilityScore,
  report: FeatureReport,
  question: QuestionAnalysis,
): { code: ReasonCode; detail: string } {
  const why = deciding(scored, report, question);
  // Words the KB never mentions are worth naming whatever weighed most: the user can rephrase or ask the KB owner.
  if (!why.detail.includes('never mentions') && report.unknownToKb.length > 0 && scored.contributions.unknownTerms < 0) {
    return { ...why, detail: `${why.detail}; the knowledge base never mentions ${quote(report.unknownToKb)}` };
  }
  return why;
}

const quote = (words: readonly string[]) =>
  words
    .slice(0, 3)
    .map((w) => `"${w}"`)
    .join(', ');

function deciding(scored: AnswerabilityScore, report: FeatureReport, question: QuestionAnalysis): { code: ReasonCode; detail: string } {
  let worst = SIGNALS[SIGNALS.length - 1] as (typeof SIGNALS)[number];
  let worstPull = 0;
  for (const signal of SIGNALS) {
    for (const name of signal.features) {
      if (scored.contributions[name] < worstPull) [worst, worstPull] = [signal, scored.contributions[name]];
    }
  }
  switch (worst.code) {
    case 'unknown_terms': {
      if (report.unknownToKb.length === 0) break;
      const names = new Set(question.names.flat());
      const isName = report.unknownToKb.some((word) => question.terms.some((t) => names.has(t) && question.wordOf?.[t] === word));
      return { code: isName ? 'unknown_entity' : 'low_coverage', detail: `the knowledge base never mentions ${quote(report.unknownToKb)}` };
    }
    case 'numbers':
      if (report.missingNumbers.length > 0)
        return { code: 'low_coverage', detail: `the closest fact does not mention ${quote(report.missingNumbers)}` };
      break;
    case 'low_relevance':
      return { code: 'low_relevance', detail: 'the closest facts match too little of the question' };
    case 'low_margin':
      return { code: 'low_margin', detail: 'several passages match about equally and none stands out as the answer' };
    case 'answer_type_mismatch':
      return {
        code: 'answer_type_mismatch',
        detail: `the question asks for ${article(question.expects ?? 'value')} and none of the closest facts holds one`,
      };
    default:
      break;
  }
  if (report.missingFromBest.length > 0)
    return { code: 'low_coverage', detail: `the closest fact does not mention ${quote(report.missingFromBest)}` };
  return { code: 'low_coverage', detail: 'the closest fact mentions these words, but not together as the question asks' };
}

/** "a date", "an amount". */
export function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}
