import { STOPWORDS } from './stopwords.js';
import { contentTerms, tokenize } from './tokenize.js';

/**
 * The no-model reading of a follow-up in a thread, `rule:follow-up@1`.
 *
 * A follow-up borrows the earlier question's topic words when it cannot stand alone:
 * - **it refers back**: a pronoun (it, its, they, them, their, he, she, …) or a
 *   demonstrative pointing back ("this subsidy", "that one", "for that?"); the dummy
 *   "it" of "is it possible to …" or "how long does it take" does not count;
 * - **it is elliptical**: it opens with "and", "but", "also", "what about", "how about",
 *   "is it the same …", "same question …" and names at most three topic words of its own
 *   ("and for children?", "what about the Merdeka Generation?");
 * - **it is a fragment**: no topic word at all ("why?"), or one without a question of its
 *   own ("class A?").
 * Anything else names its own topic and is used as asked — a standalone question, and a
 * topic shift, where borrowing would mix two topics.
 *
 * Topic words are content terms (`tokenize`: no stopwords, one stem per word form) less
 * question scaffolding ("how much", "how long", "thanks") and bare numbers (a number is
 * a value, not a topic). Borrowed are the earlier question's topic words as written, in
 * order, that the follow-up does not already hold; its numbers only when the follow-up
 * names none (then the follow-up's number replaces them: "and for a 70 year old?"); with
 * `knows`, only words the KB holds (a word the KB never mentions cannot help the gate).
 * The result is `<follow-up> (<borrowed words>)?`: the words the gate judges are the
 * follow-up's and the earlier topic's. What the rule cannot know: which earlier word a
 * new one replaces ("and for class A?" keeps "class C ward" beside it), and a
 * topic shift that still says "it".
 */
export const FOLLOW_UP_RULE = 'rule:follow-up@1';

export interface FollowUpOptions {
  /**
   * Whether the KB holds a term (as `contentTerms` gives it). When given, only known
   * words are borrowed and only known words count as the follow-up's own topic.
   */
  readonly knows?: ((term: string) => boolean) | undefined;
  /** Borrow at most this many words. @default 12 */
  readonly maxBorrowed?: number;
}

/** Why a follow-up was read with the earlier question, or null when it stands alone. */
export type FollowUpCue = 'refers_back' | 'elliptical' | 'fragment';

export interface FollowUpReading {
  /** The question to judge. */
  readonly question: string;
  readonly method: 'as_asked' | 'borrowed';
  readonly cue: FollowUpCue | null;
  /** The earlier question's words added, as written there. */
  readonly borrowed: readonly string[];
}

/** Content words that ask rather than name a topic. */
const SCAFFOLD: ReadonlySet<string> = new Set(
  contentTerms(
    `much many long often soon far know tell want wonder wondering ask asking thank thanks ok okay hi hello
     mean exactly actually really still same different question thing way anyone someone something kind sort
     happen true case`,
  ),
);

/** Openers that continue the earlier question, removed (repeatedly) before counting the follow-up's own words. */
const OPENERS: readonly RegExp[] = [
  /^(?:thanks|thank you|ok|okay|cool|great|got it|i see)\b[\s,.!]*/i,
  /^(?:and|but|also|so|or|plus|then)\b[\s,]*/i,
  /^(?:what|how)\s+about\b\s*/i,
  /^(?:is|are|was|would|will|does|do)\s+(?:it|that|this|they|those)\s+(?:also\s+)?(?:the\s+)?(?:same|different|similar)\b\s*/i,
  /^(?:the\s+)?same\s+(?:question|thing|goes)?\b\s*/i,
];

/** The dummy "it" (only the word is matched): it refers to nothing ("is it possible to …", "how long does it take"). */
const DUMMY_IT =
  /\bit(?=(?:['’]s| is| was| will be| would be)?\s+(?:possible|necessary|ok|okay|allowed|legal|illegal|true|mandatory|compulsory|required|advisable|safe|unsafe|better|worth|an offence|against the law|too late|raining)\b)|\b(?<=(?:does|did|will|would|can) )it(?= take\b)|\bit(?= takes?\b)/gi;

const PERSONAL = /\b(?:it|its|they|them|their|theirs|he|him|his|she|her|hers)\b/i;
/** Groups: the word before (absent at the start), the demonstrative, the word after, or the punctuation that ends it. */
const DEMONSTRATIVE = /(?:^|([\p{L}\p{N}'’]+)[\s,]+)(this|that|these|those)\b(?:\s+([\p{L}\p{N}'’-]+)|\s*([?.!,]|$))/giu;
/** Verbs whose object "that" is a pronoun, not a conjunction ("cover that", "pay that"). */
const VERB_BEFORE_THAT: ReadonlySet<string> = new Set(['pay', 'cover', 'claim', 'use', 'apply', 'combine', 'include', 'exclude']);
const QUESTION_START =
  /^(?:what|whats|what's|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|shall|may|must|have|has)\b/i;
const WORD = /[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu;
const NUMBER = /^\d[\d,.]*$/;

/**
 * Reads a follow-up with the earlier question of its thread (the rule above). Pure.
 * @returns the follow-up as asked, or with the earlier question's topic words borrowed.
 */
export function readFollowUp(previous: string, followUp: string, options: FollowUpOptions = {}): FollowUpReading {
  const asked = followUp.trim();
  const asIs: FollowUpReading = { question: asked, method: 'as_asked', cue: null, borrowed: [] };
  if (previous.trim() === '' || asked === '') return asIs;
  const { remainder, opened } = stripOpeners(asked);
  // The follow-up's own words count whether or not the KB holds them: a question about something the KB lacks
  // must stay about it (and be refused), never borrow the earlier topic and be answered from that.
  const topic = topicTerms(remainder);
  const cue: FollowUpCue | null = refersBack(asked)
    ? 'refers_back'
    : opened && topic.length <= 3
      ? 'elliptical'
      : topic.length === 0 || (topic.length <= 1 && !QUESTION_START.test(remainder))
        ? 'fragment'
        : null;
  if (cue === null) return asIs;
  const borrowed = borrowableWords(previous, asked, options).slice(0, options.maxBorrowed ?? 12);
  if (borrowed.length === 0) return { ...asIs, cue };
  const phrases = joinPhrases(borrowed);
  return { question: `${asked.replace(/[\s?.!]+$/, '')} (${phrases})?`, method: 'borrowed', cue, borrowed: borrowed.map((w) => w.text) };
}

function stripOpeners(text: string): { remainder: string; opened: boolean } {
  let remainder = text;
  let opened = false;
  for (let changed = true; changed;) {
    changed = false;
    for (const opener of OPENERS) {
      const next = remainder.replace(opener, '');
      if (next !== remainder) {
        remainder = next;
        opened = true;
        changed = true;
      }
    }
  }
  return { remainder, opened };
}

/** The follow-up's own topic terms: content terms less scaffolding and bare numbers. */
function topicTerms(text: string): string[] {
  return contentTerms(text).filter((t) => !SCAFFOLD.has(t) && !NUMBER.test(t));
}

/** A pronoun or a demonstrative that points back to something the follow-up does not name. */
export function refersBack(text: string): boolean {
  const plain = text.replace(DUMMY_IT, ' ');
  if (PERSONAL.test(plain)) return true;
  for (const match of plain.matchAll(DEMONSTRATIVE)) {
    const before = (match[1] ?? '').toLowerCase().replace(/’/g, "'");
    const after = match[3]?.toLowerCase();
    // "that" after a content word is a conjunction or a relative ("true that …", "the fine that applies").
    if (match[2]!.toLowerCase() === 'that' && before !== '' && !STOPWORDS.has(before) && !VERB_BEFORE_THAT.has(before)) continue;
    if (match[4] !== undefined || after === 'one' || (after !== undefined && !STOPWORDS.has(after))) return true;
  }
  return false;
}

interface BorrowedWord {
  readonly text: string;
  /** Index among the earlier question's words, to join neighbours into phrases. */
  readonly at: number;
}

function borrowableWords(previous: string, followUp: string, options: FollowUpOptions): BorrowedWord[] {
  const held = new Set(contentTerms(followUp));
  const followUpHasNumber = tokenize(followUp).some((t) => NUMBER.test(t.term));
  const words = [...previous.matchAll(WORD)].map((m) => m[0]);
  const out: BorrowedWord[] = [];
  const seen = new Set<string>();
  words.forEach((raw, at) => {
    const terms = tokenize(raw).map((t) => t.term);
    const keep = terms.some(
      (t) => !held.has(t) && !SCAFFOLD.has(t) && (NUMBER.test(t) ? !followUpHasNumber : !options.knows || options.knows(t)),
    );
    if (!keep || seen.has(raw.toLowerCase())) return;
    seen.add(raw.toLowerCase());
    out.push({ text: raw, at });
  });
  // A one-letter word between two borrowed ones stays with them ("class C ward").
  const single = words.flatMap((raw, at) =>
    /^\p{Lu}$/u.test(raw) && out.some((w) => w.at === at - 1) && out.some((w) => w.at === at + 1) ? [{ text: raw, at }] : [],
  );
  return [...out, ...single].sort((a, b) => a.at - b.at);
}

/** Neighbouring words as one phrase, phrases separated by commas: "MediShield Life, deductible". */
function joinPhrases(words: readonly BorrowedWord[]): string {
  const phrases: string[][] = [];
  words.forEach((w, i) => {
    if (i > 0 && words[i - 1]!.at === w.at - 1) phrases.at(-1)!.push(w.text);
    else phrases.push([w.text]);
  });
  return phrases.map((p) => p.join(' ')).join(', ');
}
