import { storableText } from './storable-text.js';

/** Outcome of cleaning a question: the text to ask, or why it cannot be asked. */
export type NormalisedQuestion = { ok: true; text: string } | { ok: false; problem: 'empty' | 'too_long' | 'not_text'; message: string };

/**
 * Chat markup, each pattern with a bounded inner length so that every one runs
 * in time linear in the input: an unclosed `<#A|` or `:emoji` repeated over a
 * long message scans at most the bound from each position, never to the end.
 * Slack ids, names and link labels, Teams mentions and emoji codes are all far
 * shorter than these bounds.
 */
export const MARKUP_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/<@[A-Z0-9]{1,32}(?:\|[^<>]{0,256})?>/g, ' '], // Slack user mentions
  [/<!(?:here|channel|everyone)(?:\|[^<>]{0,256})?>/g, ' '],
  [/<#[A-Z0-9]{1,32}\|([^<>]{0,256})>/g, '#$1'], // channel links keep their name
  [/<(?:https?|mailto):[^|<>\s]{1,2048}\|([^<>]{1,512})>/g, '$1'], // labelled links keep their label
  [/<((?:https?|mailto):[^<>\s]{1,2048})>/g, '$1'],
  [/<at>[^<]{0,256}<\/at>/gi, ' '], // Teams mentions
  [/:[a-z0-9_+-]{1,64}:/g, ' '], // emoji codes
  [/[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/gu, ' '],
  [/(^|\s)[*_~`]{1,8}|[*_~`]{1,8}(?=\s|$|[?.!,])/g, '$1'], // *bold* _italic_ ~strike~ `code`
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&amp;/g, '&'],
  [/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' '],
  [/\s+/g, ' '],
];

/** Markup takes room the question does not: a raw message may be this many times the limit before it is refused unread. */
const RAW_ALLOWANCE = 4;

/**
 * Strips chat markup (mentions, links, emoji codes, formatting) and control
 * characters, folds whitespace, and refuses empty, oversized or binary input.
 * The raw length is checked before any pattern runs.
 */
export function normaliseQuestion(raw: string, maxChars: number): NormalisedQuestion {
  if (raw.length > maxChars * RAW_ALLOWANCE) return tooLong(raw.length, maxChars);
  if (raw.includes('\u0000') || replacementShare(raw) > 0.1) {
    return { ok: false, problem: 'not_text', message: 'That does not look like text. Please ask your question in words.' };
  }
  const text = MARKUP_PATTERNS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), storableText(raw)).trim();
  if (text.length === 0) return { ok: false, problem: 'empty', message: 'The question is empty. Ask me something in words.' };
  if (text.length > maxChars) return tooLong(text.length, maxChars);
  return { ok: true, text };
}

function tooLong(length: number, maxChars: number): NormalisedQuestion {
  return {
    ok: false,
    problem: 'too_long',
    message: `The question is ${length} characters long; the limit is ${maxChars}. Please shorten it.`,
  };
}

function replacementShare(raw: string): number {
  if (raw.length === 0) return 0;
  let bad = 0;
  for (let at = raw.indexOf('\uFFFD'); at !== -1; at = raw.indexOf('\uFFFD', at + 1)) bad += 1;
  return bad / raw.length;
}
