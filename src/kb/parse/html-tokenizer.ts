import { Parser } from 'htmlparser2';

export type HtmlToken =
  | { kind: 'text'; text: string }
  | { kind: 'open'; name: string; selfClosing: boolean; attributes: Readonly<Record<string, string>> }
  | { kind: 'close'; name: string };

/**
 * HTML as a flat token stream (text with every named and numeric character
 * reference decoded, opening and closing tags with lower-cased names), read
 * by htmlparser2 (attribute names lower-cased, values decoded): its tokenizer knows the full WHATWG entity table and the
 * browser's tolerance for broken markup (quoted ">" in attributes, stray "<",
 * unclosed elements, raw-text elements such as script and style). Comments,
 * doctypes and processing instructions are dropped; CDATA is text. Every
 * element gets a close token, implied ones included, so a void or self-closed
 * element is an open token followed at once by its close.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let text = '';
  const flushText = (): void => {
    if (text !== '') tokens.push({ kind: 'text', text });
    text = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        flushText();
        tokens.push({ kind: 'open', name, selfClosing: false, attributes });
      },
      onclosetag(name) {
        flushText();
        tokens.push({ kind: 'close', name });
      },
      ontext(data) {
        text += data;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeCDATA: true },
  );
  parser.end(html);
  flushText();
  return tokens;
}
