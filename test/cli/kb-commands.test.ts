import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { candorInProcess } from '../support/cli-in-process.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { migratedStore } from '../support/migrated-store.js';

/** `candor kb …`: what its help offers is what it runs. */
describe('candor kb', () => {
  const files = tempFiles(
    { 'handbook.jsonl': jsonl(HANDBOOK_FACTS), 'notes.md': '# Notes\n\nThe office opens at 8 am.\n' },
    'candor-kb-cli-',
  );
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { CANDOR_DATA_DIR: await migratedStore(files.path('data')), CANDOR_KB: 'handbook', LOG_LEVEL: 'warn' };
  });
  afterAll(() => files.cleanup());

  it('the help offers list, facts, retire and confirm, and each is a command', async () => {
    const help = await candorInProcess(['kb', '--help']);
    expect(help.code).toBe(0);
    const commands = [...help.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(['list', 'facts', 'retire', 'confirm', 'help']);
    expect(help.stdout).toMatch(/knowledge bases: list them/);
  });

  it('kb list lists every knowledge base with its version, documents and facts, the default marked', async () => {
    const none = await candorInProcess(['kb', 'list'], env);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('No knowledge base yet. Make one with: candor ingest PATH --kb NAME\n');

    expect((await candorInProcess(['ingest', files.path('handbook.jsonl'), '--kb', 'handbook'], env)).code).toBe(0);
    expect((await candorInProcess(['ingest', files.path('notes.md'), '--kb', 'notes'], env)).code).toBe(0);
    const list = await candorInProcess(['kb', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe(
      [
        '2 knowledge bases:',
        `  handbook  version 1, 1 document, ${HANDBOOK_FACTS.length} facts  (default: CANDOR_KB)`,
        '  notes     version 1, 1 document, 1 fact',
        '',
      ].join('\n'),
    );
    const json = await candorInProcess(['kb', 'list', '--json'], { ...env, CANDOR_KB: 'other' });
    expect(JSON.parse(json.stdout)).toEqual({
      default: 'other',
      kbs: [
        { name: 'handbook', version: 1, documents: 1, facts: HANDBOOK_FACTS.length },
        { name: 'notes', version: 1, documents: 1, facts: 1 },
      ],
    });
    expect((await candorInProcess(['kb', 'list'], { ...env, CANDOR_KB: 'other' })).stdout).toContain(
      'The default, "other" (CANDOR_KB), does not exist yet.',
    );
  });
});
