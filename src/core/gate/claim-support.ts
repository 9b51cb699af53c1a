import { splitSentences } from '../judge/abstention-detector.js';
import { extractIdentifiers } from '../text/analyse-question.js';
import { stem } from '../text/stem.js';
import { tokenize, tokenTerms } from '../text/tokenize.js';

/**
 * What one claim of an answer says that a sentence of its evidence does not. Each kind is a unit
 * test of its own (`test/core/gate/claim-support.test.ts`): content words (as word forms, the
 * tokenizer's stems), numbers with their units, dates, names and identifiers, negation, modality,
 * and comparatives.
 */
export interface ClaimGap {
  /** Content words of the claim the sentence lacks in every word form, as the claim wrote them. */
  readonly words: readonly string[];
  /** Numbers, dates, identifiers and names the sentence does not state. */
  readonly specifics: readonly string[];
  /** "not" against a sentence that affirms, or the reverse. */
  readonly negation: boolean;
  /** "must" against "may" (an obligation against a permission), or the reverse. */
  readonly modality: boolean;
  /** A comparative or bound ("more", "at least", "before") the sentence does not state. */
  readonly comparatives: readonly string[];
  /** The claim's content words in all (their count, for the covered share). */
  readonly wordCount: number;
  /** The terms behind `words`. */
  readonly missingTerms: readonly string[];
}

/** Words that speak of the documents or of the answer itself, not of the world: never a claim. */
const ABOUT_THE_SOURCE = new Set(
  `context contexts provided provide information info mention mentioned mentions state stated states
  specify specified specifies specific detail details according base based indicate indicated indicates
  document documents text passage passages fact facts source sources note noted answer question refer
  referred outline outlined describe described say says said explicit explicitly clarify clarified
  also however therefore thus additionally furthermore generally typically usually further more information`
    .split(/\s+/)
    .filter(Boolean)
    .map(stem),
);

const NEGATION = /\b(?:not|no|never|none|neither|nor|cannot|without|unable|ineligible|n't)\b|n't\b/gi;
const OBLIGATION = /\b(?:must|required?|requires|mandatory|compulsory|shall|obliged|obligatory|need(?:s)? to|have to|has to)\b/i;
const PERMISSION = /\b(?:may|can|could|optional|allowed|permitted|eligible|able to|voluntary|choose|option)\b/i;
const COMPARATIVE =
  /\b(?:more|less|fewer|greater|higher|lower|larger|smaller|longer|shorter|earlier|later|exceed(?:s|ing)?|at least|at most|up to|maximum|minimum|only|always)\b/gi;
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/gi;

/** A share of `weights` whose terms `has` holds: 1 when there is nothing to hold. */
export function coveredShare(weights: ReadonlyMap<string, number>, has: (term: string) => boolean): number {
  let total = 0;
  let covered = 0;
  for (const [term, weight] of weights) {
    total += weight;
    if (has(term)) covered += weight;
  }
  return total === 0 ? 1 : covered / total;
}

/**
 * One word family: the same stem, or one stem the start of the other (at least five letters:
 * "remov" of "removal", "distribut" of "distribution"), or the same first six letters
 * ("eligibl", "eligibility"). Inflections are the tokenizer's stems; this adds derivations.
 */
export function sameFamily(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 5 && long.startsWith(short)) return true;
  return short.length >= 6 && long.slice(0, 6) === short.slice(0, 6) && !/\d/.test(short);
}

/** Terms read once, answering for a term's word family through the terms' first five letters. */
export class TermSet {
  readonly terms: ReadonlySet<string>;
  /** Terms of five letters or more by their first five, built on the first miss. */
  private byStart: Map<string, string[]> | null = null;

  constructor(terms: Iterable<string>) {
    this.terms = new Set(terms);
  }

  /** True when the set holds the term or a word of its family (`sameFamily`). */
  holds(term: string): boolean {
    if (this.terms.has(term)) return true;
    if (term.length < 5) return false;
    return (
      this.starts()
        .get(term.slice(0, 5))
        ?.some((t) => sameFamily(t, term)) ?? false
    );
  }

  private starts(): Map<string, string[]> {
    if (this.byStart) return this.byStart;
    const byStart = new Map<string, string[]>();
    for (const t of this.terms) {
      if (t.length < 5) continue;
      const start = t.slice(0, 5);
      const list = byStart.get(start);
      if (list) list.push(t);
      else byStart.set(start, [t]);
    }
    return (this.byStart = byStart);
  }
}

/**
 * A sentence of evidence, read once: its terms up front, and its numbers, specifics and markers when a
 * claim first asks for them (most claims hold no number or comparative, and a sentence is held to several).
 */
export class EvidenceSentence {
  readonly terms: TermSet;
  private readonly lower: string;
  private cache: {
    numbers?: ReadonlySet<string>;
    identifiers?: ReadonlySet<string>;
    negated?: boolean;
    obliges?: boolean;
    permits?: boolean;
    comparatives?: ReadonlySet<string>;
    months?: ReadonlySet<string>;
  } = {};

  constructor(readonly text: string) {
    this.terms = new TermSet(tokenTerms(text));
    this.lower = lowered(text);
  }

  get numbers(): ReadonlySet<string> {
    return (this.cache.numbers ??= new Set(numbersIn(this.text)));
  }
  get identifiers(): ReadonlySet<string> {
    return (this.cache.identifiers ??= new Set(extractIdentifiers(this.text)));
  }
  get negated(): boolean {
    return (this.cache.negated ??= negations(this.lower) % 2 === 1);
  }
  get obliges(): boolean {
    return (this.cache.obliges ??= OBLIGATION.test(this.lower));
  }
  get permits(): boolean {
    return (this.cache.permits ??= PERMISSION.test(this.lower));
  }
  get comparatives(): ReadonlySet<string> {
    return (this.cache.comparatives ??= new Set(matchesOf(this.lower, COMPARATIVE)));
  }
  get months(): ReadonlySet<string> {
    return (this.cache.months ??= new Set(matchesOf(this.lower, MONTH).map((m) => m.slice(0, 3))));
  }
}

export function readSentence(text: string): EvidenceSentence {
  return new EvidenceSentence(text);
}

/** A claim read once, to be held to many sentences. */
export interface ClaimReading {
  readonly text: string;
  /** Content terms (word forms folded) with the word as written, leaving out words about the source. */
  readonly words: ReadonlyMap<string, string>;
  readonly specifics: readonly { readonly kind: 'number' | 'identifier' | 'month'; readonly value: string }[];
  readonly negated: boolean;
  readonly obliges: boolean;
  readonly permits: boolean;
  readonly comparatives: readonly string[];
  /** Terms of the words written as names: capitalised inside a sentence, or shaped like one (MediSave, CPF). */
  readonly names: ReadonlySet<string>;
}

export function readClaim(text: string): ClaimReading {
  const lower = lowered(text);
  return {
    text,
    words: claimWords(text),
    specifics: [
      ...numbersIn(text).map((value) => ({ kind: 'number' as const, value })),
      ...extractIdentifiers(text).map((value) => ({ kind: 'identifier' as const, value })),
      ...matchesOf(lower, MONTH)
        .map((m) => m.slice(0, 3))
        .filter((m) => m !== 'may')
        .map((value) => ({ kind: 'month' as const, value })),
    ],
    negated: negations(lower) % 2 === 1,
    obliges: OBLIGATION.test(lower),
    permits: PERMISSION.test(lower),
    comparatives: [...new Set(matchesOf(lower, COMPARATIVE))],
    names: nameTerms(text),
  };
}

const NAME = /^(?:\p{Lu}[\p{Ll}\p{N}]*\p{Lu}[\p{L}\p{N}]*|\p{Lu}[\p{Ll}]+)$/u;

/** Words written as names: capitalised anywhere but a sentence's first word, or with an inner capital. */
function nameTerms(text: string): Set<string> {
  const names = new Set<string>();
  for (const sentence of splitSentences(text)) {
    const words = sentence.split(/\s+/);
    words.forEach((raw, i) => {
      const word = raw.replace(/^[^\p{L}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/, '');
      if (!NAME.test(word) || (i === 0 && !/\p{Lu}.*\p{Lu}/u.test(word))) return;
      for (const token of tokenize(word)) names.add(token.term);
    });
  }
  return names;
}

/**
 * What a claim adds to its evidence (one sentence): the gap is empty when the sentence states
 * everything the claim says.
 */
export function claimGap(claim: ClaimReading | string, evidence: EvidenceSentence): ClaimGap {
  const c = typeof claim === 'string' ? readClaim(claim) : claim;
  const missingTerms = [...c.words.keys()].filter((term) => !evidence.terms.holds(term));
  const held = (kind: ClaimReading['specifics'][number]['kind']) =>
    kind === 'number' ? evidence.numbers : kind === 'identifier' ? evidence.identifiers : evidence.months;
  const modality =
    (c.obliges && !evidence.obliges && evidence.permits) || (c.permits && !c.obliges && evidence.obliges && !evidence.permits);
  return {
    words: missingTerms.map((term) => c.words.get(term) ?? term),
    missingTerms,
    specifics: [...new Set(c.specifics.filter((s) => !held(s.kind).has(s.value)).map((s) => s.value))],
    negation: c.negated !== evidence.negated,
    modality,
    comparatives: c.comparatives.length === 0 ? [] : c.comparatives.filter((x) => !evidence.comparatives.has(x)),
    wordCount: c.words.size,
  };
}

/** A claim's content terms (word forms folded) with the word as written, leaving out words about the source. */
export function claimWords(claim: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const token of tokenize(claim))
    if (!ABOUT_THE_SOURCE.has(token.term) && !words.has(token.term)) words.set(token.term, asWritten(claim, token.word));
  return words;
}

/** A token's word with the claim's own capitals ("Medisafe", not "medisafe"). */
function asWritten(text: string, word: string): string {
  const at = text.toLowerCase().indexOf(word);
  return at < 0 ? word : text.slice(at, at + word.length);
}

/** Numbers as values: "$1,500.00" and "1500" are the same; "30%" is 30; citation brackets are not claims. */
export function numbersIn(text: string): string[] {
  const out: string[] = [];
  const withoutCitations = text.replace(/\[\d+\]/g, ' ');
  for (const match of withoutCitations.matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
    const raw = match[0].replace(/,(?=\d{3}\b)/g, '').replace(/,$/, '');
    const value = Number(raw);
    if (Number.isFinite(value)) out.push(String(value));
  }
  return out;
}

/** "(Fact 2)", "as stated in Answer 0", "Context 1": the answer pointing at its evidence, not a claim. */
const SOURCE_REFERENCE = /\(?\b(?:fact|answer|context|source|document|passage)s?\s+\d+(?:\s*(?:,|and)\s*\d+)*\)?/gi;

/** A claim's parts: its sentences, and clauses joined by ";" or a list's lines. */
export function splitClaims(answer: string): string[] {
  const clean = answer
    .replace(/\s?\[\d{1,2}\]/g, '')
    .replace(/\*\*/g, '')
    .replace(SOURCE_REFERENCE, '');
  return clean
    .split(/\n+/)
    .flatMap((line) => splitSentences(line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')))
    .flatMap((s) => s.split(/;\s+/))
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Negations that say what the text states: a leading "No," answers the question, it negates nothing stated. */
function negations(lower: string): number {
  return matchesOf(lower.replace(/^\s*(?:yes|no)\b[,.!:;]?/, ''), NEGATION).length;
}

/** Lower case with typographic apostrophes made plain: what the marker patterns read. */
function lowered(text: string): string {
  return text.toLowerCase().replace(/’/g, "'");
}

function matchesOf(lower: string, pattern: RegExp): string[] {
  return [...lower.matchAll(pattern)].map((m) => m[0].replace(/\s+/g, ' '));
}
