import { checkDraft } from '../../ask/post-generation-checks.js';
import type { ClaimSupport } from '../../core/gate/grounding.js';
import { detectAbstention } from '../../core/judge/abstention-detector.js';
import type { Llm } from '../../llm/llm-client.js';
import type { GroundingRow } from './grounding-rows.js';

/** One check's outcome on one response. */
export interface CheckOutcome {
  readonly pass: boolean;
  /** Why it failed: `ungrounded`, or the model failure's code (`llm_unavailable`, `invalid_output`); null on a pass. */
  readonly code: string | null;
  readonly detail: string;
}

/** A response as `eval grounding` judged it. */
export type ScoredResponse =
  | {
      readonly id: string;
      readonly supported: boolean | null;
      readonly configuration: string;
      readonly declined: true;
      /** Why the refusal rule judge read it as declining. */
      readonly declineWhy: string;
    }
  | {
      readonly id: string;
      readonly supported: boolean | null;
      readonly configuration: string;
      readonly declined: false;
      readonly lexical: CheckOutcome;
      /** Present when a model is configured with CANDOR_LLM_ENTAILMENT. */
      readonly entailment?: CheckOutcome;
      /** Every check passed: the ask path would have given the answer. */
      readonly pass: boolean;
      readonly support: number;
      readonly supportAnyEvidence: number;
      readonly threshold: number;
      /** The claim with the least support, and what it says that its best cited sentence does not. */
      readonly weakestClaim: { readonly claim: string; readonly support: number; readonly adds: readonly string[] } | null;
    };

/**
 * Judges one response as the ask path would: a reply that declines (rule:abstention@1) is no
 * grounding failure and is set aside; any other runs the production post-generation checks with
 * its context as the facts shown and its 0-based `cited` as the answer's 1-based citations.
 * Every check runs on every answer, so each can be measured on its own.
 */
export async function scoreResponse(llm: Llm | null, row: GroundingRow): Promise<ScoredResponse> {
  const prompt = row.system_prompt?.replace(/_(llm_)?prompt$/, '');
  const configuration = [row.retrieval_type, prompt].filter(Boolean).join(' ') || 'all';
  const base = { id: row.id, supported: row.supported ?? null, configuration };
  const refusal = detectAbstention(row.response, row.question);
  if (refusal.abstains) return { ...base, declined: true, declineWhy: refusal.why };
  const draft = { answer: row.response, citations: (row.cited ?? []).map((i) => i + 1) };
  const checked = await checkDraft(
    llm,
    draft,
    row.context.map((text) => ({ text })),
    { question: row.question, runAll: true, againstAllEvidence: true },
  );
  const g = checked.grounding;
  const entailment = checked.verdicts.find((v) => v.layer === 'entailment');
  return {
    ...base,
    declined: false,
    lexical: { pass: g.pass, code: g.code, detail: g.detail },
    ...(entailment ? { entailment: { pass: entailment.pass, code: entailment.code, detail: entailment.detail } } : {}),
    pass: checked.failed === undefined,
    support: g.support,
    supportAnyEvidence: g.supportAnyEvidence ?? 0,
    threshold: g.threshold,
    weakestClaim: weakest(g.claims),
  };
}

function weakest(claims: readonly ClaimSupport[]): { claim: string; support: number; adds: readonly string[] } | null {
  const [first, ...rest] = claims;
  if (!first) return null;
  const w = rest.reduce((low, c) => (c.support < low.support ? c : low), first);
  return { claim: w.claim, support: w.support, adds: w.unsupported };
}
