import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';

import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { Db } from '../../src/store/open-store.js';
import { interactions } from '../../src/store/schema.js';

/** A small KB: two MediShield Life facts (with the section each sits in) and two driving facts, each with its source. */
export const FACTS = [
  {
    id: 'ms-cover',
    text: 'MediShield Life covers large hospital bills and selected costly outpatient treatments such as dialysis and chemotherapy for cancer.',
    source: 'MediShield Life booklet, p. 3',
    heading: 'MediShield Life coverage',
  },
  {
    id: 'ms-deductible',
    text: 'The MediShield Life deductible for a Class B2 or C ward is $1,500 per policy year.',
    source: 'MediShield Life booklet, p. 7',
    heading: 'MediShield Life deductibles',
  },
  {
    id: 'btt-lplate',
    text: 'Learner drivers must display L plates on the front and rear of the vehicle.',
    source: 'Basic Theory of Driving, ch. 2',
  },
  {
    id: 'btt-expressway',
    text: 'The speed limit on expressways is 90 km/h unless traffic signs show a different limit.',
    source: 'Basic Theory of Driving, ch. 5',
  },
] as const;

/** Writes the facts as .jsonl into a fresh temp dir and ingests them into `kb`. */
export async function ingestFixture(db: Db, kb = 'default'): Promise<{ dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'candor-channel-kb-'));
  writeFileSync(join(dir, 'facts.jsonl'), FACTS.map((f) => JSON.stringify(f)).join('\n'));
  await ingestPaths(db, [dir], { kb });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function rowsFor(db: Db, channel: string, eventId: string) {
  return db
    .select()
    .from(interactions)
    .where(eq(interactions.eventId, eventId))
    .then((rows) => rows.filter((r) => r.channel === channel));
}
