import { contentTerms } from '../text/tokenize.js';
import { ABOUT_THE_SOURCE, DECLINE_SHAPES, REDIRECT, SUBSTITUTE_ANSWER } from './decline-patterns.js';

/** The annotator id the detector's labels are stored under; a new version when the rules change. */
export const ABSTENTION_RULE_ID = 'rule:abstention@1';

/** What a sentence of a reply does. */
export type SentenceRole = 'decline' | 'redirect' | 'about_source' | 'substitute' | 'claim';

export interface AbstentionVerdict {
  readonly abstains: boolean;
  /** Which structure decided, in a few words (for the disagreement list). */
  readonly why: string;
  /** The declining shape found, if any (e.g. `source_does_not_state`). */
  readonly shape: string | null;
  readonly roles: readonly SentenceRole[];
}

export interface DetectorOptions {
  /**
   * A reply that answers first and declines later abstains only if its declining
   * sentences name at least this share of the question's content terms (they
   * say the very thing asked is missing, not a detail of it). @default 0.5
   */
  readonly coreCoverage?: number;
}

/**
 * Reads a reply and says whether it abstains: declines to answer, says it does
 * not know, or that its sources do not say. Judged on the reply's structure:
 * - no declining sentence → an answer;
 * - opening with a decline (then background, a referral or talk about the
 *   sources) → an abstention, unless it goes on to offer what is "typically"
 *   or "in a similar case" true (an attempt to answer);
 * - answering first, declining later → an answer with a caveat, unless the
 *   decline names the question's core (needs the question).
 * A decline given as the reason for an answer ("No, X, as the context does not
 * say Y") is part of that answer. Pure and deterministic.
 */
export function detectAbstention(reply: string, question?: string, options: DetectorOptions = {}): AbstentionVerdict {
  const sentences = splitSentences(normalise(reply));
  if (sentences.length === 0) return { abstains: true, why: 'empty reply', shape: null, roles: [] };
  const classified = sentences.map(classify);
  const roles = classified.map((c) => c.role);
  const declines = classified.filter((c) => c.role === 'decline');
  const shape = declines[0]?.shape ?? null;
  const verdict = (abstains: boolean, why: string): AbstentionVerdict => ({ abstains, why, shape, roles });

  if (declines.length === 0) return verdict(false, 'no declining sentence');
  const [first] = classified;
  if (first?.role === 'decline' || first?.role === 'about_source') {
    if (roles.includes('substitute')) return verdict(false, 'declines, then offers a general or similar-case answer');
    return verdict(true, 'opens by declining');
  }
  if (!question) return verdict(false, 'answers first; the decline is a caveat');
  const asked = new Set(contentTerms(question));
  if (asked.size === 0) return verdict(false, 'answers first; the decline is a caveat');
  const named = new Set(declines.flatMap((d) => contentTerms(d.text)));
  const share = [...asked].filter((t) => named.has(t)).length / asked.size;
  return share >= (options.coreCoverage ?? 0.5)
    ? verdict(true, `answers around it, then says the question's core is not stated (${Math.round(share * 100)}% of its terms)`)
    : verdict(false, `answers first; the decline is about a detail (${Math.round(share * 100)}% of the question's terms)`);
}

interface Classified {
  readonly text: string;
  readonly role: SentenceRole;
  readonly shape: string | null;
}

function classify(text: string): Classified {
  const shape = declineShape(text);
  if (shape) return { text, role: 'decline', shape };
  if (SUBSTITUTE_ANSWER.test(text)) return { text, role: 'substitute', shape: null };
  if (REDIRECT.test(text)) return { text, role: 'redirect', shape: null };
  if (ABOUT_THE_SOURCE.test(text)) return { text, role: 'about_source', shape: null };
  return { text, role: 'claim', shape: null };
}

/**
 * The declining shape of a sentence's main clause. "Yes, …" / "No, …" are read
 * on what follows; a decline that is only the stated reason for a claim
 * ("…, as the context does not say …") does not make the sentence a decline.
 */
function declineShape(sentence: string): string | null {
  const body = sentence.replace(/^(?:yes|no)\s*[,.:;-]\s*/, '');
  const reason =
    /(?:,\s+(?:as|since|given\s+that)|,?\s+because|\s+as(?=\s+(?:the|this)\s+(?:provided\s+|given\s+)?(?:context|information|facts?|sources?)\b))\s+/.exec(
      body,
    );
  const main = reason && reason.index > 0 ? body.slice(0, reason.index) : body;
  if (reason && !/^(?:if|when|while|although|though|based|according)\b/.test(main) && !firstShape(main)) return null;
  return firstShape(body);
}

function firstShape(text: string): string | null {
  return DECLINE_SHAPES.find((s) => s.pattern.test(text))?.name ?? null;
}

function normalise(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Sentences end at . ! ? followed by a space; abbreviations like "e.g." are kept whole. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=\S)/)
    .reduce<string[]>((out, part) => {
      const last = out[out.length - 1];
      if (last !== undefined && /\b(?:e\.g|i\.e|etc|vs|st|dr|mr|mrs|ms)\.$/.test(last)) out[out.length - 1] = `${last} ${part}`;
      else out.push(part);
      return out;
    }, [])
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
