import type { EvidenceFact, ReasonCode, Verdict } from '../gate/types.js';

const REASON_TEXT: Record<ReasonCode, string> = {
  no_evidence: "I couldn't find anything about this in the knowledge base.",
  low_relevance: 'The knowledge base has nothing close enough to your question for me to answer it reliably.',
  // The layer's detail says it all: "the knowledge base never mentions "ADR-0050"".
  unknown_entity: '',
  low_coverage: "The closest facts I found don't cover what you're asking",
  low_margin: 'Several facts touch on this, but none of them answers your question specifically.',
  answer_type_mismatch: "I found related facts, but none of them states what you're asking for",
  llm_unanswerable: "The facts I found don't answer this question.",
  ungrounded: "I drafted an answer, but could not back every part of it with the knowledge base, so I won't give it.",
  llm_unavailable: "I can't answer that right now: the language model is unavailable. Please try again later.",
  invalid_output: "I can't answer that right now: I could not produce a reliable answer. Please try again later.",
  unavailable: "I can't answer that right now because part of the system is unavailable. Please try again later.",
};

/** Plain-words reason for a refusal, with the layer's own detail where it adds something. */
export function explainRefusal(deciding: Verdict): string {
  const base = REASON_TEXT[deciding.code ?? 'unavailable'];
  if (base === '') return `${deciding.detail.charAt(0).toUpperCase()}${deciding.detail.slice(1)}.`;
  if (base.endsWith('.')) return base;
  return `${base}: ${deciding.detail}.`;
}

/** Short labels for facts near the question, so a refusal can say what the KB does cover. */
export function nearbyTopics(facts: readonly EvidenceFact[], max = 3): string[] {
  const topics: string[] = [];
  for (const fact of facts) {
    const topic = fact.heading ?? firstWords(fact.text, 10);
    if (!topics.includes(topic)) topics.push(topic);
    if (topics.length === max) break;
  }
  return topics;
}

function firstWords(text: string, n: number): string {
  const words = text.split(/\s+/);
  return words.length <= n ? text : `${words.slice(0, n).join(' ')}…`;
}

/** The refusal a user sees: why, and what nearby topics the KB does cover. */
export function formatRefusal(deciding: Verdict, nearby: readonly EvidenceFact[]): string {
  const topics = nearbyTopics(nearby);
  const why = explainRefusal(deciding);
  if (topics.length === 0 || deciding.code === 'llm_unavailable' || deciding.code === 'unavailable') return why;
  return `${why}\nThe knowledge base does cover: ${topics.map((t) => `“${t}”`).join('; ')}.`;
}

/** Extractive answer: the cited facts quoted with their sources, numbered. */
export function formatExtractiveAnswer(cited: readonly EvidenceFact[]): string {
  const lines = cited.map((fact, i) => `[${i + 1}] ${fact.text} (source: ${fact.source})`);
  return `From the knowledge base:\n${lines.join('\n')}`;
}
