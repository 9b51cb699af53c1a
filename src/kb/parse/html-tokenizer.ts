import { decodeEntities } from './entities.js';

export type HtmlToken =
  { kind: 'text'; text: string } | { kind: 'open'; name: string; selfClosing: boolean } | { kind: 'close'; name: string };

/** Elements whose content is raw text up to their closing tag (never parsed for tags). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'iframe', 'plaintext']);
/** Raw-text elements whose content is also entity-decoded (RCDATA). */
const DECODED_RAW_TEXT = new Set(['textarea', 'title']);
const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;

/**
 * A small tolerant HTML tokenizer: text (entities decoded), opening and closing
 * tags with lower-cased names. Comments, doctypes and processing instructions
 * are dropped; a "<" that does not start a tag is text; quoted attribute values
 * may contain ">"; script/style/title… content is taken verbatim to its end tag.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  const lower = html.toLowerCase();
  const pushText = (text: string, decode = true): void => {
    if (text !== '') tokens.push({ kind: 'text', text: decode ? decodeEntities(text) : text });
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      pushText(html.slice(i));
      break;
    }
    pushText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      i = skipPast(html, '-->', lt + 4);
      continue;
    }
    if (html.startsWith('<![CDATA[', lt)) {
      const end = html.indexOf(']]>', lt);
      pushText(html.slice(lt + 9, end < 0 ? html.length : end), false);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      i = skipPast(html, '>', lt + 2);
      continue;
    }
    TAG_NAME.lastIndex = lt;
    const match = TAG_NAME.exec(html);
    if (match === null) {
      pushText('<');
      i = lt + 1;
      continue;
    }
    const closing = match[1] === '/';
    const name = match[2]!.toLowerCase();
    const end = tagEnd(html, TAG_NAME.lastIndex);
    const selfClosing = html[end - 1] === '/';
    i = end + 1;
    if (closing) {
      tokens.push({ kind: 'close', name });
      continue;
    }
    tokens.push({ kind: 'open', name, selfClosing });
    if (RAW_TEXT.has(name) && !selfClosing) {
      const close = lower.indexOf(`</${name}`, i);
      const contentEnd = close < 0 ? html.length : close;
      pushText(html.slice(i, contentEnd), DECODED_RAW_TEXT.has(name));
      tokens.push({ kind: 'close', name });
      i = close < 0 ? html.length : skipPast(html, '>', close);
    }
  }
  return tokens;
}

function skipPast(html: string, marker: string, from: number): number {
  const at = html.indexOf(marker, from);
  return at < 0 ? html.length : at + marker.length;
}

/** Index of the ">" closing a tag whose attributes start at `from`, skipping quoted attribute values. */
function tagEnd(html: string, from: number): number {
  let quote: string | null = null;
  let previous = '';
  for (let j = from; j < html.length; j++) {
    const ch = html[j] ?? '';
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if ((ch === '"' || ch === "'") && previous === '=') {
      quote = ch; // only a value opened right after "=" is quoted; a stray quote is not
    } else if (ch === '>') {
      return j;
    }
    if (!/\s/.test(ch)) previous = ch;
  }
  return html.length;
}
