import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';

import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import type { Db } from '../../src/store/open-store.js';
import { interactions, knowledgeBases } from '../../src/store/schema.js';

/** An HR handbook and IT policies: two KBs that share no topic, for channel → KB tests. */
export const HR_FACTS = [
  { id: 'hr-leave', text: 'Full-time staff get 18 days of annual leave per calendar year.', source: 'HR handbook, Leave' },
  { id: 'hr-leave-managers', text: 'Managers get 21 days of annual leave per calendar year.', source: 'HR handbook, Leave' },
  {
    id: 'hr-sick',
    text: 'Staff on sick leave must submit a medical certificate within two working days.',
    source: 'HR handbook, Sick leave',
  },
  {
    id: 'hr-parental',
    text: 'Parents get 16 weeks of paid parental leave after the birth of a child.',
    source: 'HR handbook, Parental leave',
  },
] as const;

export const IT_FACTS = [
  {
    id: 'it-laptop',
    text: 'A lost or stolen laptop must be reported to the IT service desk within one hour.',
    source: 'IT policies, Devices',
  },
  {
    id: 'it-password',
    text: 'Passwords must be at least 14 characters long and are changed every 180 days.',
    source: 'IT policies, Accounts',
  },
  { id: 'it-vpn', text: 'The VPN must be on whenever staff work from a public Wi-Fi network.', source: 'IT policies, Remote work' },
] as const;

/** Ingests facts as .jsonl into `kb`; returns a cleanup for the temp folder. */
export async function ingestFacts(db: Db, kb: string, facts: readonly object[]): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), `candor-${kb}-`));
  writeFileSync(join(dir, `${kb}.jsonl`), facts.map((f) => JSON.stringify(f)).join('\n'));
  await ingestPaths(db, [dir], { kb });
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The stored interaction of an event, with the name of the KB that answered it. */
export async function rowWithKb(db: Db, eventId: string) {
  const [row] = await db
    .select({
      status: interactions.status,
      decision: interactions.decision,
      question: interactions.question,
      typedQuestion: interactions.typedQuestion,
      understoodBy: interactions.understoodBy,
      threadRef: interactions.threadRef,
      kb: knowledgeBases.name,
    })
    .from(interactions)
    .leftJoin(knowledgeBases, eq(knowledgeBases.id, interactions.kbId))
    .where(eq(interactions.eventId, eventId));
  return row;
}
