import { decodeEntities } from './entities.js';

const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';

/**
 * Removes inline Markdown: images are dropped, links keep their text, code spans
 * keep their content, emphasis markers and inline HTML tags go, backslash
 * escapes and entities are resolved.
 */
export function stripInlineMarkdown(text: string): string {
  const held: string[] = [];
  const hold = (value: string): string => `${HOLD_OPEN}${held.push(value) - 1}${HOLD_CLOSE}`;
  let out = text
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_whole, _ticks: string, code: string) => hold(code.trim()))
    .replace(/\\([!-/:-@[-`{-~])/g, (_whole, ch: string) => hold(ch))
    .replace(/!\[[^\]]*\](?:\((?:[^()]|\([^)]*\))*\)|\[[^\]]*\])?/g, '')
    .replace(/\[\^[^\]]+\]/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|ftp|mailto):[^>\s]+)>/gi, '$1')
    .replace(/<([^>\s@]+@[^>\s]+\.[^>\s]+)>/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '');
  for (let pass = 0; pass < 3; pass++) {
    out = out
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      .replace(/\*(?=[^\s*])([^*]*?[^\s*])\*|\*([^\s*])\*/g, '$1$2')
      .replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_]|[^\s_])_(?![\p{L}\p{N}_])/gu, '$1$2');
  }
  out = decodeEntities(out);
  return out.replace(new RegExp(`${HOLD_OPEN}(\\d+)${HOLD_CLOSE}`, 'g'), (_whole, index: string) => held[Number(index)] ?? '');
}
