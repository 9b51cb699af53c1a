import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../support/cli-in-process.js';
import { tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

interface Example {
  readonly args: string[];
  readonly output: string;
}

/** Splits a shell line's arguments: words and double-quoted strings (what the README's examples use). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] as string),
  );
}

/** Every `$ npm run -s candor -- …` line of the README's console blocks, with the output printed under it. */
export function readmeExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const [, block] of markdown.matchAll(/```console\n([\s\S]*?)```/g)) {
    const lines = (block as string).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const command = /^\$ npm run -s candor -- (.+)$/.exec(lines[i] as string);
      if (!command) continue;
      const output: string[] = [];
      for (let j = i + 1; j < lines.length && !(lines[j] as string).startsWith('$ '); j++) output.push(lines[j] as string);
      examples.push({ args: shellWords(command[1] as string), output: output.join('\n').trim() });
    }
  }
  return examples;
}

/** The README's examples, run against the code as it is: on the example KB, default settings, as `npm start` sets it up. */
describe('the README’s examples', () => {
  const examples = readmeExamples(readFileSync(README, 'utf8'));
  const dirs = tempFiles({}, 'candor-readme-');
  const env = { CANDOR_DATA_DIR: dirs.path('data'), LOG_LEVEL: 'warn' };
  afterAll(() => dirs.cleanup());

  beforeAll(async () => {
    await migratedStore(env.CANDOR_DATA_DIR);
    const run = await candorInProcess(['ingest', 'examples/kb'], env);
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);

  it('are there to check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.every((e) => e.output !== '')).toBe(true);
  });

  for (const example of examples) {
    it(`candor ${example.args.join(' ')}`, async () => {
      const run = await candorInProcess(example.args, env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(example.output);
    }, 60_000);
  }
});
