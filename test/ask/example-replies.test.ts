import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Ask } from '../../src/ask/ask-service.js';
import { sectionName } from '../../src/core/answer/format-answer.js';
import { isFragment } from '../../src/core/gate/answer-bearing.js';
import { analyseQuestion } from '../../src/core/text/analyse-question.js';
import { readExampleQuestions } from '../../src/eval/example-questions/example-questions.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { KnowledgeIndex } from '../../src/kb/knowledge-index.js';
import { composeAsk } from '../support/compose.js';
import { useTestStore } from '../support/stores.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/kb', import.meta.url));
const QUESTIONS = fileURLToPath(new URL('../../examples/questions/example-kb.jsonl', import.meta.url));
const KB = 'examples';

/**
 * Regular English forms of a word, as a person might type it instead of the KB's form, in groups of
 * spellings of which one is the real word ("Making" → "mak" or "make"; "Stopping" → "stop"): plural
 * and singular, the bare verb behind an -ing form, the -ing and -ed forms of a verb ending in "e".
 */
function otherForms(word: string): string[][] {
  const w = word.toLowerCase();
  if (w.endsWith('ing') && w.length > 5) {
    const base = w.slice(0, -3);
    return /([bdgmnprt])\1$/.test(base) ? [[base.slice(0, -1)]] : [[base, `${base}e`]];
  }
  if (w.endsWith('ies')) return [[`${w.slice(0, -3)}y`]];
  if (/(?:ches|shes|xes|sses)$/.test(w)) return [[w.slice(0, -2)]];
  if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return [[w.slice(0, -1)]];
  const plural = /(?:s|x|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
  return [[plural], ...(/[^aeiou]e$/.test(w) ? [[`${w.slice(0, -1)}ing`], [`${w}d`]] : [])];
}

describe('replies on the example knowledge base', () => {
  const handle = useTestStore('pglite');
  let ask: Ask;
  let index: KnowledgeIndex;

  beforeAll(async () => {
    await ingestPaths(handle.store.db, [EXAMPLES], { kb: KB });
    const composed = composeAsk(handle.store);
    ask = composed.ask;
    index = await composed.indexes.get(KB);
  });

  it('never claims the KB lacks a word its headings hold in another form', async () => {
    const vocabulary = index.vocabulary();
    const words = new Set(
      index
        .allFacts()
        .flatMap((f) => (f.heading ?? '').split(/[^\p{L}]+/u))
        .filter((w) => /^\p{L}{4,}$/u.test(w)),
    );
    expect(words.size).toBeGreaterThan(300);
    const unknown: string[] = [];
    // "Never mentions" is said only of a question term the vocabulary lacks: every form must be known.
    const known = (form: string) => analyseQuestion(`What about ${form}?`).terms.every((t) => vocabulary.has(t));
    for (const word of words) {
      if (analyseQuestion(word).terms.length === 0) continue; // a function word ("within"): no topic to mention
      for (const group of otherForms(word)) if (!group.some(known)) unknown.push(`${group.join('/')} (of ${word})`);
    }
    expect(unknown).toEqual([]);
    // And end to end, the case: the booklet's "Making a claim" asked as "make".
    const d = await ask({ question: 'How do I make a claim for my hospital bill?', kb: KB, channel: 'test' });
    expect(`${d.refusal ?? ''} ${d.decision === 'answer' ? (d.caveat ?? '') : ''}`).not.toMatch(/never mentions[^.]*"make"/);
  });

  it('never leads a reply with a heading or a label (every example question)', async () => {
    const headings = new Set(index.allFacts().flatMap((f) => (f.heading ? [sectionName(f.heading).toLowerCase()] : [])));
    let answered = 0;
    for (const q of readExampleQuestions(QUESTIONS)) {
      const d = await ask({ question: q.question, kb: KB, channel: 'test' }, { record: false });
      if (d.decision !== 'answer') continue;
      answered += 1;
      // The tier and its caveat go together: a caveat exactly when confidence is medium.
      expect(d.confidence === 'medium', `${q.id}: confidence ${d.confidence}, caveat ${d.caveat}`).toBe(d.caveat !== null);
      const first = d.answer.split('\n')[0] ?? '';
      expect(headings.has(first.trim().toLowerCase()), `${q.id} leads with a heading: ${first}`).toBe(false);
      const lead = d.evidence[0]!;
      expect(isFragment({ text: lead.text, heading: lead.section ?? null }), `${q.id} leads with a fragment: ${lead.text}`).toBe(false);
    }
    expect(answered).toBeGreaterThan(20);
  });

  it('answers the demo question that `npm start` prints and help shows', async () => {
    const d = await ask({ question: 'What does MediShield Life cover?', kb: KB, channel: 'test' }, { record: false });
    expect(d.decision).toBe('answer');
    if (d.decision !== 'answer') return;
    expect(d.answer.split('\n')[0]).toMatch(/MediShield Life/);
    // What it covers: bills, hospitalisation, treatments — not a fact that merely holds the word "cover".
    expect(d.answer.split('\n')[0]).toMatch(/\b(?:bills?|hospitali[sz]ations?|treatments?)\b/i);
  });
});
