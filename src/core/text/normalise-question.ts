/** Outcome of cleaning a question: the text to ask, or why it cannot be asked. */
export type NormalisedQuestion = { ok: true; text: string } | { ok: false; problem: 'empty' | 'too_long' | 'not_text'; message: string };

/**
 * Strips chat markup (mentions, links, emoji codes, formatting) and control
 * characters, folds whitespace, and refuses empty, oversized or binary input.
 */
export function normaliseQuestion(raw: string, maxChars: number): NormalisedQuestion {
  if (/\u0000/.test(raw) || replacementShare(raw) > 0.1) {
    return { ok: false, problem: 'not_text', message: 'That does not look like text. Please ask your question in words.' };
  }
  const text = raw
    .replace(/<@[A-Z0-9]+(?:\|[^>]*)?>/g, ' ') // Slack user mentions
    .replace(/<!(?:here|channel|everyone)(?:\|[^>]*)?>/g, ' ')
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, '#$1') // channel links keep their name
    .replace(/<(?:https?|mailto):[^|>]+\|([^>]+)>/g, '$1') // labelled links keep their label
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1')
    .replace(/<at>[^<]*<\/at>/gi, ' ') // Teams mentions
    .replace(/:[a-z0-9_+-]+:/g, ' ') // emoji codes
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/gu, ' ')
    .replace(/(^|\s)[*_~`]+|[*_~`]+(?=\s|$|[?.!,])/g, '$1') // *bold* _italic_ ~strike~ `code`
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length === 0) return { ok: false, problem: 'empty', message: 'The question is empty. Ask me something in words.' };
  if (text.length > maxChars) {
    return {
      ok: false,
      problem: 'too_long',
      message: `The question is ${text.length} characters long; the limit is ${maxChars}. Please shorten it.`,
    };
  }
  return { ok: true, text };
}

function replacementShare(raw: string): number {
  if (raw.length === 0) return 0;
  const bad = raw.match(/\uFFFD/g)?.length ?? 0;
  return bad / raw.length;
}
