import type { Decision, EvidenceView } from '../../../src/ask/decision.js';

export const CAVEAT = "I'm not certain this answers your question — this is the closest the knowledge base says. Please check the source.";

/** A cited fact; only what a test names differs from a plain one. */
export function evidence(source: string, extra: Partial<EvidenceView> = {}): EvidenceView {
  return { factId: `f-${source}`, text: 'x', source, score: 0.9, ...extra };
}

/** An answer as `ask()` delivers it, confident unless a caveat is given. */
export function answerDecision(
  text: string,
  cited: readonly EvidenceView[],
  extra: { caveat?: string; generation?: { model: string; prompt: string } } = {},
): Decision {
  return {
    decision: 'answer',
    answer: text,
    reasons: [],
    evidence: cited,
    nearbyTopics: [],
    refusal: null,
    kb: { name: 'default', version: 4 },
    confidence: extra.caveat ? 'medium' : 'high',
    caveat: extra.caveat ?? null,
    ...(extra.generation ? { generation: extra.generation } : {}),
    traceId: '0'.repeat(32),
    latencyMs: 1,
    interactionId: null,
  };
}

/** The premium page of the MediShield Life booklet, cited twice (two facts of one section) and a second source. */
export const BOOKLET_EVIDENCE = [
  evidence('medishield-life/page_7.txt › 3. Coverage', {
    title: 'MediShield Life & You <2025>',
    section: '3. Coverage > 3.2 How much is the premium?',
    url: 'https://www.cpf.gov.sg/medishield-life?page=7&lang=en',
  }),
  evidence('medishield-life/page_7.txt › 3. Coverage', {
    factId: 'f-second',
    title: 'MediShield Life & You <2025>',
    section: '3. Coverage > 3.2 How much is the premium?',
    url: 'https://www.cpf.gov.sg/medishield-life?page=7&lang=en',
  }),
  evidence('premiums.jsonl#P-2', { title: 'Premium table | 2025', section: null, url: null }),
] as const;
