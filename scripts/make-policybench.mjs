// Builds the PolicyBench evaluation files from ../shared/data/policybench (see its README):
// one KB per domain whose facts are the answers; questions point at their own answer.
import { readFileSync, writeFileSync } from 'node:fs';

const source = process.argv[2] ?? '../shared/data/policybench/questions/policybench_cpf_ica.jsonl';
const rows = readFileSync(source, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
for (const domain of [...new Set(rows.map((r) => r.domain))]) {
  const mine = rows.filter((r) => r.domain === domain);
  const name = domain.toLowerCase();
  const facts = mine.map((r) =>
    JSON.stringify({ id: r.identifier, text: r.answer, source: `PolicyBench ${r.knowledge_base_identifier} ${r.identifier}` }),
  );
  const questions = mine.map((r) => JSON.stringify({ id: r.identifier, question: r.question, factId: r.identifier }));
  writeFileSync(`examples/policybench/${name}-facts.jsonl`, `${facts.join('\n')}\n`);
  writeFileSync(`examples/policybench/${name}-questions.jsonl`, `${questions.join('\n')}\n`);
  console.log(`${domain}: ${mine.length} facts and questions`);
}
