import { join } from 'node:path';
import { z } from 'zod';

import { splitSentences } from '../../kb/parse/index.js';
import { readJsonl } from '../../kb/read-jsonl.js';
import { factsFromJsonl, type BenchmarkQuestion, type BenchmarkSet } from './benchmark-set.js';

const Paragraph = z.object({ title: z.string(), paragraph_index: z.number().int(), context: z.string() });
const Question = z.object({
  id: z.string(),
  title: z.string(),
  paragraph_index: z.number().int(),
  question: z.string(),
  is_impossible: z.boolean(),
  answers: z.array(z.string()),
});

/** The KB as the data's README describes it: one fact per sentence of every context, the article and paragraph as its source. */
export function squadFactLines(dataDir: string): string[] {
  return readJsonl(join(dataDir, 'paragraphs.jsonl'), Paragraph, { expected: '{"title","paragraph_index","context"}' })
    .map((r) => r.value)
    .flatMap((p) =>
      splitSentences(p.context).map((text, i) =>
        JSON.stringify({ id: `${p.title}#${p.paragraph_index}#${i}`, text, source: `${p.title} ¶${p.paragraph_index}` }),
      ),
    );
}

/**
 * SQuAD 2.0 (10 train articles): answerable questions should be answered citing
 * a sentence that holds an answer; the adversarial unanswerable ones refused.
 * Reported on the articles that have unanswerable questions; the rest still train.
 */
export function loadSquad2(dataDir: string): BenchmarkSet {
  const lines = squadFactLines(dataDir);
  const facts = factsFromJsonl(lines.join('\n'), 'squad2-facts.jsonl');
  const sentencesOf = new Map<string, { id: string; text: string }[]>();
  for (const fact of facts) {
    const key = (fact.externalId as string).replace(/#\d+$/, '');
    sentencesOf.set(key, [...(sentencesOf.get(key) ?? []), { id: fact.externalId as string, text: fact.text.toLowerCase() }]);
  }
  const raw = readJsonl(join(dataDir, 'questions.jsonl'), Question, {
    expected: '{"id","title","paragraph_index","question","is_impossible","answers"}',
  }).map((r) => r.value);
  const withUnanswerable = new Set(raw.filter((q) => q.is_impossible).map((q) => q.title));
  const questions: BenchmarkQuestion[] = raw.map((q) => {
    const sentences = sentencesOf.get(`${q.title}#${q.paragraph_index}`) ?? [];
    const answers = q.answers.filter((a) => a.trim() !== '');
    return {
      id: q.id,
      question: q.question,
      factIds: q.is_impossible ? [] : sentences.filter((s) => answers.some((a) => s.text.includes(a.toLowerCase()))).map((s) => s.id),
      answers,
      answerable: !q.is_impossible,
      reported: withUnanswerable.has(q.title),
    };
  });
  return { name: 'squad2', facts, questions, kind: 'unanswerable' };
}
