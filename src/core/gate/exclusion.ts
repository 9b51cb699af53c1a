import { contentTerms } from '../text/tokenize.js';
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

/** What a fact excludes for one question: the item asked about, where it is excluded, and whether it makes an exception. */
export interface ExcludedItem {
  /** The item as the fact states it: the fact itself, or the one item of a list ("…the following: A; B; C") the question names. */
  readonly item: string;
  /** Whether the item is the whole fact (a list item or sentence of its own) rather than one entry of a joined list. */
  readonly whole: boolean;
  /** The excluding section or phrase (see exclusionContext). */
  readonly context: string;
  /** The item makes an exception ("except …", "unless …"): it does not say "no" outright. */
  readonly exception: boolean;
}

/**
 * The exclusion a fact states about what a question asks, or null when it excludes nothing. A list joined to its
 * lead-in line ("The plan does not pay for the following: Cosmetic surgery; Vaccinations; Dental treatment, except …")
 * is read item by item: the item sharing most of the question's terms is the one that answers.
 */
export function excludedItem(fact: Pick<EvidenceFact, 'text' | 'heading'>, questionTerms: readonly string[]): ExcludedItem | null {
  const context = exclusionContext(fact);
  if (context === null) return null;
  const text = fact.text.trim();
  const list = /^([^:]{3,200}):\s+(.+;.+)$/.exec(text);
  if (list) {
    const asked = new Set(questionTerms);
    let best: { item: string; shared: number } | null = null;
    for (const item of (list[2] as string).split(/;\s*/)) {
      const shared = contentTerms(item).filter((t) => asked.has(t)).length;
      if (shared > 0 && (best === null || shared > best.shared)) best = { item: item.trim(), shared };
    }
    if (best !== null) return { item: best.item, whole: false, context, exception: hasException(best.item) };
  }
  return { item: text, whole: true, context, exception: hasException(text) };
}
