import { checkGrounding, type DraftAnswer, type GroundingVerdict } from '../core/gate/grounding.js';
import type { Verdict } from '../core/gate/types.js';
import { checkEntailment } from '../llm/check-entailment.js';
import type { Llm } from '../llm/llm-client.js';
import { LlmFailure } from '../llm/llm-failure.js';

/** What the checks after generation found, in the order they ran. */
export interface DraftChecks {
  /** One plain verdict per check that ran (grounding, then entailment), as a decision's reasons hold them. */
  readonly verdicts: readonly Verdict[];
  /** The first check that failed; absent when every check passed. */
  readonly failed?: Verdict;
  /** The grounding verdict in full, with each claim's support (for reports; too large for stored reasons). */
  readonly grounding: GroundingVerdict;
}

export interface DraftCheckOptions {
  /** The question answered: the grounding check holds what the answer repeats of it to the evidence. */
  readonly question?: string;
  /**
   * Run every check even after one has failed (an evaluation measures each check on every answer).
   * The ask path stops at the first failure, which saves the entailment call. @default false
   */
  readonly runAll?: boolean;
  /** Also score the grounding against every fact shown, cited or not (reports only). @default false */
  readonly againstAllEvidence?: boolean;
  /** The grounding threshold and where it came from (the KB's calibrated setting). @default GROUNDING_THRESHOLD, `default` */
  readonly grounding?: GroundingThreshold;
}

/** The support a draft must reach, and where that threshold came from: `kb@N` (the KB's setting) or `default`. */
export interface GroundingThreshold {
  readonly threshold: number;
  readonly source: string;
}

/**
 * The checks an answer must pass after the model wrote it: the lexical grounding check against the
 * facts it cites, then, when a model is configured with CANDOR_LLM_ENTAILMENT, the model's judgement
 * that the cited facts entail it. A model failure fails the entailment check (closed, never open).
 * `shown` are the facts the model was shown; the draft's citations are 1-based numbers into them.
 */
export async function checkDraft(
  llm: Llm | null,
  draft: DraftAnswer,
  shown: readonly { readonly text: string }[],
  options: DraftCheckOptions = {},
): Promise<DraftChecks> {
  const grounding = checkGrounding(draft, shown, {
    ...(options.question === undefined ? {} : { question: options.question }),
    againstAllEvidence: options.againstAllEvidence ?? false,
    ...(options.grounding ? { threshold: options.grounding.threshold } : {}),
  });
  const verdicts: Verdict[] = [groundingReason(grounding, options.grounding?.source ?? 'default')];
  const done = () => ({ verdicts, grounding, ...firstFailure(verdicts) });
  if (!grounding.pass && !options.runAll) return done();
  if (!llm?.entailment) return done();
  const cited = [...new Set(draft.citations)].flatMap((n) => {
    const fact = Number.isInteger(n) && n >= 1 ? shown[n - 1] : undefined;
    return fact ? [fact.text] : [];
  });
  verdicts.push(await entailmentVerdict(llm, draft.answer, cited));
  return done();
}

/** The grounding verdict as a decision's reasons store it: the support as its score, the threshold and its source, without the claims. */
export function groundingReason(g: GroundingVerdict, thresholdSource = 'default'): Verdict {
  return { layer: g.layer, pass: g.pass, code: g.code, detail: g.detail, score: g.support, threshold: g.threshold, thresholdSource };
}

async function entailmentVerdict(llm: Llm, answer: string, facts: readonly string[]): Promise<Verdict> {
  let entailed;
  try {
    entailed = await checkEntailment(llm, answer, facts);
  } catch (error) {
    if (!(error instanceof LlmFailure)) throw error;
    return { layer: 'entailment', pass: false, code: error.code, detail: error.message };
  }
  return entailed.entailed
    ? { layer: 'entailment', pass: true, code: null, detail: 'the model found the answer entailed by the cited facts' }
    : {
        layer: 'entailment',
        pass: false,
        code: 'ungrounded',
        detail: `the cited facts do not entail the answer: ${entailed.reasoning.slice(0, 500)}`,
      };
}

function firstFailure(verdicts: readonly Verdict[]): { failed?: Verdict } {
  const failed = verdicts.find((v) => !v.pass);
  return failed ? { failed } : {};
}
