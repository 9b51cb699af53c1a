// Import boundaries (STYLE.md rule 6), checked on every `npm test`:
// core is pure; vendor SDKs stay inside their adapter folder; only config reads the environment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const files = walk(join(root, 'src')).filter((f) => f.endsWith('.ts'));
const rules = [
  {
    name: 'src/core imports only src/core (no I/O, no SDKs)',
    applies: (f) => f.startsWith(`src${sep}core${sep}`),
    bad: (spec, f) => !spec.startsWith('.') || !join(f, '..', spec).startsWith(`src${sep}core`),
  },
  {
    name: '@slack/bolt only in src/channels/slack',
    applies: (f) => !f.startsWith(`src${sep}channels${sep}slack`),
    bad: (s) => s.startsWith('@slack/'),
  },
  {
    name: 'botbuilder only in src/channels/teams',
    applies: (f) => !f.startsWith(`src${sep}channels${sep}teams`),
    bad: (s) => /^botbuilder|^botframework/.test(s),
  },
  { name: 'openai only in src/llm', applies: (f) => !f.startsWith(`src${sep}llm`), bad: (s) => s === 'openai' || s.startsWith('openai/') },
  {
    name: 'OpenTelemetry SDK packages only in src/telemetry and the composition root',
    applies: (f) => !f.startsWith(`src${sep}telemetry`) && f !== `src${sep}main.ts`,
    bad: (s) => s.startsWith('@opentelemetry/') && s !== '@opentelemetry/api',
  },
];
const problems = [];
for (const abs of files) {
  const file = relative(root, abs);
  const text = readFileSync(abs, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
  for (const rule of rules) {
    if (!rule.applies(file)) continue;
    for (const spec of specs) if (rule.bad(spec, file)) problems.push(`${file}: imports "${spec}" (${rule.name})`);
  }
  if (file !== `src${sep}config.ts` && /process\.env\b/.test(text)) {
    problems.push(`${file}: reads process.env (only src/config.ts may; pass settings through Config)`);
  }
}
if (problems.length > 0) {
  console.error(`Import boundary violations:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`boundaries ok (${files.length} files)`);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
