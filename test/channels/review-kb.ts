import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { Db } from '../../src/store/open-store.js';
import { FACTS } from './kb-fixture.js';

/** The channel fixture's facts, the MediShield Life ones with a link each (review cards show sources as links). */
export async function ingestWithLinks(db: Db, kb = 'default'): Promise<{ cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'candor-review-kb-'));
  const lines = FACTS.map((f) => (f.id.startsWith('ms-') ? { ...f, url: `https://example.org/medishield#${f.id}` } : f));
  writeFileSync(join(dir, 'facts.jsonl'), lines.map((f) => JSON.stringify(f)).join('\n'));
  await ingestPaths(db, [dir], { kb });
  return { cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
