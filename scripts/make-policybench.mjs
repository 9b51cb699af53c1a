// Builds the PolicyBench evaluation files from ../shared/data/policybench (see its README):
// one KB per domain whose facts are the answers; questions point at their own answer.
// A fact links to the public FAQ page it came from (faq/*.json `link`) when exactly one FAQ pair has its answer verbatim.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const source = process.argv[2] ?? '../shared/data/policybench/questions/policybench_cpf_ica.jsonl';
const faqDir = process.argv[3] ?? join(dirname(source), '..', 'faq');
const rows = readFileSync(source, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

/** Answer text → the http(s) links of the FAQ pairs that give it. */
const linksByAnswer = new Map();
for (const file of readdirSync(faqDir).filter((f) => f.endsWith('.json'))) {
  for (const pair of JSON.parse(readFileSync(join(faqDir, file), 'utf8'))) {
    if (typeof pair.answer !== 'string' || !/^https?:\/\//.test(pair.link ?? '')) continue;
    linksByAnswer.set(pair.answer, new Set([...(linksByAnswer.get(pair.answer) ?? []), pair.link]));
  }
}

for (const domain of [...new Set(rows.map((r) => r.domain))]) {
  const mine = rows.filter((r) => r.domain === domain);
  const name = domain.toLowerCase();
  let linked = 0;
  const facts = mine.map((r) => {
    const links = [...(linksByAnswer.get(r.answer) ?? [])];
    const url = links.length === 1 ? links[0] : undefined;
    if (url) linked += 1;
    return JSON.stringify({ id: r.identifier, text: r.answer, source: `PolicyBench ${r.knowledge_base_identifier} ${r.identifier}`, url });
  });
  const questions = mine.map((r) => JSON.stringify({ id: r.identifier, question: r.question, factId: r.identifier }));
  writeFileSync(`examples/policybench/${name}-facts.jsonl`, `${facts.join('\n')}\n`);
  writeFileSync(`examples/policybench/${name}-questions.jsonl`, `${questions.join('\n')}\n`);
  console.log(`${domain}: ${mine.length} facts and questions, ${linked} facts linked to their FAQ page`);
}
