import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createAsk, type Ask } from '../../src/ask/ask-service.js';
import { createInteractionRecorder } from '../../src/ask/record-interaction.js';
import { loadConfig, type Config } from '../../src/config.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import type { Store } from '../../src/store/open-store.js';

/** Config as a deployment would load it, from an explicit environment (never process.env). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ CANDOR_DATA_DIR: 'memory://', LOG_LEVEL: 'silent', ...env });
}

/** The ask path over a given store, wired as src/app/main.ts wires it. */
export function composeAsk(store: Store, config: Config = testConfig()): { ask: Ask; indexes: KnowledgeIndexCache; config: Config } {
  const indexes = new KnowledgeIndexCache(store.db);
  const recorder = createInteractionRecorder(store.db, config.telemetry.userHashSalt);
  return { ask: createAsk({ config, indexes, recorder }), indexes, config };
}

/** A temporary directory with the given files; `cleanup` removes it. */
export function tempFiles(
  files: Record<string, string>,
  prefix = 'candor-test-',
): { dir: string; path: (name: string) => string; write: (name: string, content: string | Uint8Array) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = (name: string) => join(dir, name);
  const write = (name: string, content: string | Uint8Array) => {
    writeFileSync(path(name), content);
    return path(name);
  };
  for (const [name, content] of Object.entries(files)) write(name, content);
  return { dir, path, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A small facts file (JSON lines) about a fictional staff handbook. */
export const HANDBOOK_FACTS = [
  { id: 'HB-1', text: 'Full-time staff receive 18 days of annual leave in each calendar year.', source: 'handbook#leave' },
  { id: 'HB-2', text: 'Up to 5 days of unused annual leave may be carried forward into the next calendar year.', source: 'handbook#carry' },
  {
    id: 'HB-3',
    text: 'A medical certificate from a registered doctor is required for sick leave longer than two days.',
    source: 'handbook#sick',
  },
  { id: 'HB-4', text: 'Staff parking permits cost $45 per month and are renewed every January.', source: 'handbook#parking' },
  { id: 'HB-5', text: 'The office canteen serves breakfast from 7.30 am and lunch until 2.30 pm on weekdays.', source: 'handbook#canteen' },
  {
    id: 'HB-6',
    text: 'Laptops must be returned to the IT service desk on the last working day of employment.',
    source: 'handbook#laptops',
  },
  {
    id: 'HB-7',
    text: 'Expense claims are submitted through the finance portal with scanned receipts attached.',
    source: 'handbook#expenses',
  },
  { id: 'HB-8', text: 'The fire assembly point for the building is the open car park beside the north gate.', source: 'handbook#fire' },
] as const;

export function jsonl(rows: readonly object[]): string {
  return `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
}
