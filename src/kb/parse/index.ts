import { parseHtml } from './parse-html.js';
import { parseMarkdown } from './parse-markdown.js';
import { parseText } from './parse-text.js';
import type { DocumentFormat, ParsedDocument } from './types.js';

export { splitSentences } from './split-sentences.js';
export type { DocumentFormat, ParsedDocument, ParsedFact } from './types.js';

const EXTENSIONS: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
};

/** The format implied by a file name's extension (case-insensitive), or null when it is not one we parse. */
export function formatFromPath(path: string): DocumentFormat | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * Splits a document into atomic facts (one sentence, list item or table row
 * each) with their heading path and 0-based position. Pure: no I/O.
 */
export function parseDocument(content: string, format: DocumentFormat): ParsedDocument {
  const text = content.replace(/^\uFEFF/, '');
  switch (format) {
    case 'text':
      return parseText(text);
    case 'markdown':
      return parseMarkdown(text);
    case 'html':
      return parseHtml(text);
  }
}
