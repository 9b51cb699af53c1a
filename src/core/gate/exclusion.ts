import type { EvidenceFact } from './types.js';

const EXCLUDING_HEADING = /\b(?:exclusions?|excluded|not covered|not claimable|not payable|not eligible|what (?:is|are) not)\b/i;
const EXCLUDING_TEXT =
  /\b(?:(?:is|are|will be) not (?:covered|claimable|payable|eligible|allowed|permitted)|not (?:covered|claimable|payable)|(?:is|are) excluded|exclusions?|must not|prohibited|shall not|cannot be claimed|not allowed to)\b/i;

/**
 * Where a fact says "no": the name of the section that excludes it ("Exclusions", "What is not covered"), or the
 * excluding phrase of its own sentence ("not claimable", "must not"); null when it excludes nothing.
 */
export function exclusionContext(fact: Pick<EvidenceFact, 'text' | 'heading'>): string | null {
  const sections = fact.heading?.split(' > ') ?? [];
  for (let i = sections.length - 1; i >= 0; i--) {
    const name = (sections[i] as string).trim();
    if (EXCLUDING_HEADING.test(name)) return name.replace(/^(?:\d{1,2}(?:\.\d{1,2})*\.?|[A-Z]\.)\s+/, '');
  }
  return EXCLUDING_TEXT.exec(fact.text)?.[0] ?? null;
}

/** An exclusion with an exception ("except for accidents", "unless", "other than") does not answer "no" outright. */
export function hasException(text: string): boolean {
  return /\b(?:except|unless|other than|apart from|excluding|save for|but not|however)\b/i.test(text);
}
