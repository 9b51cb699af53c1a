import { formatRefusal, nearbyTopics } from '../core/answer/format-answer.js';
import { checkGrounding } from '../core/gate/grounding.js';
import type { EvidenceFact, Verdict } from '../core/gate/types.js';
import { checkEntailment } from '../llm/check-entailment.js';
import { ANSWER_PROMPT_REF, groundedAnswer } from '../llm/grounded-answer.js';
import type { Llm } from '../llm/llm-client.js';
import { LlmFailure } from '../llm/llm-failure.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/with-span.js';
import { evidenceView } from './decision-parts.js';
import type { Decided } from './decision.js';

/**
 * The LLM layers, after the hard gate has passed: the model's own
 * answerability judgement (soft refusal) and a grounded answer in one call,
 * then the grounding check. Any model failure is an honest refusal.
 */
export async function generate(
  llm: Llm,
  question: string,
  shown: readonly EvidenceFact[],
  hard: readonly Verdict[],
  kb: Decided['kb'],
  traceContent: boolean,
): Promise<Decided> {
  const generation = { model: llm.chatModel, prompt: ANSWER_PROMPT_REF };
  const refuse = (verdict: Verdict): Decided => ({
    decision: 'abstain',
    answer: null,
    reasons: [verdict, ...hard],
    evidence: [],
    nearbyTopics: nearbyTopics(shown),
    refusal: formatRefusal(verdict, shown),
    kb,
    generation,
  });
  return withSpan(SPAN.answer, { [ATTR.answerMode]: 'llm' }, async () => {
    let draft;
    try {
      draft = await groundedAnswer(llm, question, shown, { traceContent });
    } catch (error) {
      if (!(error instanceof LlmFailure)) throw error;
      return refuse({ layer: 'llm', pass: false, code: error.code, detail: error.message });
    }
    if (!draft.answerable) {
      return refuse({
        layer: 'llm',
        pass: false,
        code: 'llm_unanswerable',
        detail: `the model judged the facts do not answer it: ${draft.reasoning.slice(0, 500)}`,
      });
    }
    const llmVerdict: Verdict = { layer: 'llm', pass: true, code: null, detail: 'the model judged the facts answer it' };
    const grounding = checkGrounding(draft, shown);
    if (!grounding.pass) return refuse({ ...grounding, detail: grounding.detail });
    const cited = [...new Set(draft.citations)].map((n) => shown[n - 1] as EvidenceFact);
    const checks = [llmVerdict, grounding];
    if (llm.entailment) {
      let entailed;
      try {
        entailed = await checkEntailment(
          llm,
          draft.answer,
          cited.map((f) => f.text),
        );
      } catch (error) {
        if (!(error instanceof LlmFailure)) throw error;
        return refuse({ layer: 'entailment', pass: false, code: error.code, detail: error.message });
      }
      if (!entailed.entailed)
        return refuse({
          layer: 'entailment',
          pass: false,
          code: 'ungrounded',
          detail: `the cited facts do not entail the answer: ${entailed.reasoning.slice(0, 500)}`,
        });
      checks.push({ layer: 'entailment', pass: true, code: null, detail: 'the model found the answer entailed by the cited facts' });
    }
    return {
      decision: 'answer',
      answer: draft.answer,
      reasons: [...hard, ...checks],
      evidence: cited.map(evidenceView),
      nearbyTopics: [],
      refusal: null,
      kb,
      generation,
    };
  });
}
