import { formatRefusal, nearbyTopics } from '../core/answer/format-answer.js';
import type { EvidenceFact, QuestionAnalysis, Verdict } from '../core/gate/types.js';
import { ANSWER_PROMPT_REF, groundedAnswer } from '../llm/grounded-answer.js';
import type { Llm } from '../llm/llm-client.js';
import { LlmFailure } from '../llm/llm-failure.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/with-span.js';
import { evidenceView } from './decision-parts.js';
import type { Decided } from './decision.js';
import { checkDraft, type GroundingThreshold } from './post-generation-checks.js';

/** What the model layers made of a question: the decision, and a draft the checks withheld. */
export interface Generated {
  /** The model's answer, or a refusal (the model declined or failed, or a check withheld the draft). */
  readonly decided: Decided;
  /**
   * Present when the model answered but a post-generation check found the draft unsupported (`ungrounded`): the
   * model's verdict and every check that ran, the failing one last. The draft's text is never kept.
   */
  readonly withheld?: { readonly verdicts: readonly Verdict[] };
}

/**
 * The LLM layers, after the hard gate has passed: the model's own
 * answerability judgement (soft refusal) and a grounded answer in one call,
 * then the post-generation checks (checkDraft). Any model failure is an honest refusal; a draft the checks
 * find unsupported is a refusal too, with `withheld` saying so (the caller may quote the evidence instead).
 */
export async function generate(
  llm: Llm,
  question: QuestionAnalysis,
  shown: readonly EvidenceFact[],
  hard: readonly Verdict[],
  kb: Decided['kb'],
  traceContent: boolean,
  /** The KB's calibrated grounding threshold, when it has one. @default GROUNDING_THRESHOLD */
  grounding?: GroundingThreshold,
): Promise<Generated> {
  const generation = { model: llm.chatModel, prompt: ANSWER_PROMPT_REF };
  const topics = nearbyTopics(shown, question);
  const refuse = (verdict: Verdict): Decided => ({
    decision: 'abstain',
    answer: null,
    reasons: [verdict, ...hard],
    evidence: [],
    nearbyTopics: topics,
    refusal: formatRefusal(verdict, topics),
    kb,
    generation,
    confidence: 'low',
    caveat: null,
  });
  return withSpan(SPAN.answer, { [ATTR.answerMode]: 'llm' }, async () => {
    let draft;
    try {
      draft = await groundedAnswer(llm, question.text, shown, { traceContent });
    } catch (error) {
      if (!(error instanceof LlmFailure)) throw error;
      return { decided: refuse({ layer: 'llm', pass: false, code: error.code, detail: error.message }) };
    }
    if (!draft.answerable) {
      const declined = refuse({
        layer: 'llm',
        pass: false,
        code: 'llm_unanswerable',
        detail: `the model judged the facts do not answer it: ${draft.reasoning.slice(0, 500)}`,
      });
      return { decided: declined };
    }
    const llmVerdict: Verdict = { layer: 'llm', pass: true, code: null, detail: 'the model judged the facts answer it' };
    const checked = await checkDraft(llm, draft, shown, { question: question.text, ...(grounding ? { grounding } : {}) });
    const checks = [llmVerdict, ...checked.verdicts];
    if (checked.failed) {
      const decided = refuse(checked.failed);
      // Only a draft found unsupported may be replaced by a quote; a check that could not run (model failure) fails closed.
      return checked.failed.code === 'ungrounded' ? { decided, withheld: { verdicts: checks } } : { decided };
    }
    const order = [...new Set(draft.citations)];
    const cited = order.map((n) => shown[n - 1] as EvidenceFact);
    const answered: Decided = {
      decision: 'answer',
      answer: renumberMarkers(draft.answer, order),
      reasons: [...hard, ...checks],
      evidence: cited.map(evidenceView),
      nearbyTopics: [],
      refusal: null,
      kb,
      generation,
      confidence: 'high',
      caveat: null,
    };
    return { decided: answered };
  });
}

/**
 * The model numbers the facts it was shown; a decision's evidence is only the cited ones, in citation
 * order. Any "[n]" the model wrote in its answer is renumbered to the evidence it names ("[3]" → "[1]"
 * when fact 3 was cited first); a marker naming a fact it did not cite is dropped.
 */
export function renumberMarkers(answer: string, citationOrder: readonly number[]): string {
  return answer
    .replace(/\s?\[(\d{1,2})\]/g, (marker, n: string) => {
      const at = citationOrder.indexOf(Number(n));
      return at < 0 ? '' : marker.replace(n, String(at + 1));
    })
    .trim();
}
