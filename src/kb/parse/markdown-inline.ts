import { tokenizeHtml } from './html-tokenizer.js';

interface InlineToken {
  readonly type: string;
  readonly content: string;
  readonly children: readonly InlineToken[] | null;
}

/** "[text][label]" whose label is defined nowhere: markdown-it leaves it literal; a reader sees just the text. */
const UNRESOLVED_REFERENCE = /\[([^\]]+)\]\[[^\]]*\]/g;
/** Footnote references ("[^1]"): markers, not text. */
const FOOTNOTE_REFERENCE = /\[\^[^\]]+\]/g;

/**
 * The plain text of a markdown-it inline token: text and code spans keep their
 * content (entities and backslash escapes already resolved by the parser),
 * line breaks become spaces, emphasis and link markup go, images are dropped,
 * and inline HTML keeps only its text.
 */
export function inlineText(token: InlineToken | undefined): string {
  let out = '';
  let run = '';
  const endRun = (): void => {
    out += run.replace(UNRESOLVED_REFERENCE, '$1').replace(FOOTNOTE_REFERENCE, '');
    run = '';
  };
  for (const child of token?.children ?? []) {
    if (child.type === 'text') {
      run += child.content;
      continue;
    }
    endRun();
    if (child.type === 'code_inline') out += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') out += ' ';
    else if (child.type === 'html_inline') out += htmlText(child.content);
  }
  endRun();
  return out;
}

/** An inline HTML tag contributes nothing but a space for a line break; text inside a whole fragment is kept. */
function htmlText(html: string): string {
  return tokenizeHtml(html)
    .map((token) => (token.kind === 'text' ? token.text : token.kind === 'open' && token.name === 'br' ? ' ' : ''))
    .join('');
}
