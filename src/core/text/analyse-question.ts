import type { ExpectedAnswer, QuestionAnalysis } from '../gate/types.js';
import { withoutScaffolding } from './scaffolding.js';
import { contentTerms, tokenize } from './tokenize.js';

const CODE_TOKEN = /[A-Za-z0-9]+(?:[-_/.][A-Za-z0-9]+)*/g;
const NUMBERED_THING =
  /\b(form|section|clause|rule|regulation|article|chapter|annex|schedule|appendix|adr|rfc|iso|policy|circular)\s*(?:no\.?\s*)?#?\s*([0-9][0-9A-Za-z]*(?:[-.][0-9A-Za-z]+)*)\b/gi;
const NOT_AN_IDENTIFIER = /^(?:\d+(?:st|nd|rd|th|s)|\d+(?:\.\d+)?(?:km|kg|cm|mm|m|g|h|hr|hrs|min|am|pm|k|mb|gb|l|ml|yo))$/i;

/** Normalises an identifier the same way for questions and facts: lower case, no separators. */
export function normaliseIdentifier(raw: string): string {
  return raw.toLowerCase().replace(/[-_/.\s#]|no\.?/g, '');
}

/**
 * Code-like identifiers in a text: tokens mixing letters and digits (ADR-0050,
 * IR8A, S1234567A) and numbered references ("Form 12", "section 3.2").
 */
export function extractIdentifiers(text: string): string[] {
  return [...identifierMentions(text).keys()];
}

/** Each identifier in a text (normalised) with the way it was first written there. */
export function identifierMentions(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const note = (raw: string): void => {
    const id = normaliseIdentifier(raw);
    if (!found.has(id)) found.set(id, raw);
  };
  if (!/\d/.test(text)) return found; // both kinds hold a digit
  for (const match of text.matchAll(CODE_TOKEN)) {
    const token = match[0];
    if (/\d/.test(token) && /[A-Za-z]/.test(token) && !NOT_AN_IDENTIFIER.test(token)) note(token);
  }
  for (const match of text.matchAll(NUMBERED_THING)) note(match[0]);
  return found;
}

const DEFINITION = /((?:[\p{Lu}][\p{L}\p{N}'’-]*\s+(?:(?:of|and|for|the|&)\s+)?){1,8})\(([\p{Lu}][\p{L}-]{1,11})\)/gu;
/** Shaped like a name whatever its place in the sentence: an inner capital (MediShield, iPod) or an acronym (CPF, REPs). */
const NAME_SHAPE = /^(?:\p{L}+\p{Lu}\p{L}*|\p{Lu}{2,}s?)$/u;

/**
 * Names in a question, each as alternative terms (known when the KB holds any):
 * words shaped like names (MediShield, CPF) and defined acronyms ("Central
 * Depository (CDP)": the acronym or its long form). A capitalised common word
 * ("Account" in "MediSave Account", "France") is not taken for a name: only its
 * shape could say so, and capitals alone do not.
 */
function extractNames(text: string): string[][] {
  const names: string[][] = [];
  const rest = text.replace(DEFINITION, (_all, longForm: string, acronym: string) => {
    const terms = [...tokenize(acronym), ...tokenize(longForm)].map((t) => t.term);
    if (terms.length > 0) names.push([...new Set(terms)]);
    return ' , ';
  });
  const seen = new Set(names.flat());
  for (const raw of rest.split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/, '');
    if (!NAME_SHAPE.test(word)) continue;
    for (const token of tokenize(word)) {
      if (!seen.has(token.term)) names.push([token.term]);
      seen.add(token.term);
    }
  }
  return names;
}

/** Each content term with the word it came from, as the user wrote it (first occurrence). */
function wordsByTerm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu)) {
    for (const token of tokenize(match[0])) {
      if (out[token.term] !== undefined) continue;
      // The token's own spelling within the typed word ("Premiums" for "premium", "France" for "franc").
      const at = match[0].toLowerCase().indexOf(token.word);
      out[token.term] = at >= 0 ? match[0].slice(at, at + token.word.length) : match[0];
    }
  }
  return out;
}

/** A limit, a fine, a charge: asked about with "what's the …", it is answered by an amount or a number. */
const VALUE_NOUN = String.raw`(?:cost|fee|price|charge|amount|rate|limit|cap|maximum|minimum|fine|penalty|premium|deductible|rebate|age)s?`;

const EXPECTATIONS: readonly [ExpectedAnswer, RegExp][] = [
  [
    'amount',
    new RegExp(
      String.raw`\bhow much\b|\bwhat(?: is|'s| are)? (?:the|my|a) (?:[\p{L}-]+ ){0,3}?${VALUE_NOUN}\b(?! (?:sign|rule|law|system|table)s?\b)`,
      'iu',
    ),
  ],
  ['number', /\bhow many\b|\bhow (?:fast|old|far|heavy)\b|\bat what (?:age|speed)\b/i],
  ['duration', /\bhow long\b/i],
  ['date', /^\s*(?:by )?when\b|\bwhat (?:date|day|year|month)\b|\bwhat is the deadline\b/i],
  ['party', /^\s*who\b|\bwhich (?:agency|organisation|organization|department|office|company|person|bank|ministry)\b/i],
];

/** Identifier tags a fact is indexed under, so the entity layer can look them up. */
export function identifierTags(text: string): string[] {
  return extractIdentifiers(text).map((id) => `#${id}`);
}

/** Everything the pure gate needs to know about a question, computed once. */
export function analyseQuestion(text: string): QuestionAnalysis {
  const expects = EXPECTATIONS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
  const mentions = identifierMentions(text);
  return {
    text,
    // "How many days…" asks for a count: "many" is not part of the topic (nor of a refusal's "never mentions").
    terms: contentTerms(withoutScaffolding(text)),
    wordOf: wordsByTerm(text),
    identifiers: [...mentions.keys()],
    identifierText: Object.fromEntries(mentions),
    names: extractNames(text),
    expects,
  };
}
