import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { DEFAULT_INGEST_LIMITS } from '../../../src/config/ingest-limits.js';
import { addExpertFact } from '../../../src/kb/expert-facts.js';
import { kbStatus } from '../../../src/kb/ingest/ingest.js';
import { createFolderConnector } from '../../../src/kb/sources/folder-connector.js';
import { addSource, findSource, listSources, type SourceRow } from '../../../src/kb/sources/source-records.js';
import { syncSource } from '../../../src/kb/sources/sync-source.js';
import type { Db } from '../../../src/store/open-store.js';
import { facts, knowledgeBases } from '../../../src/store/schema.js';
import { DRIVERS, useTestStore } from '../../support/stores.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'candor-folder-source-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) write(root, name, text);
  return root;
}

/** Writes a file and moves its modification time on, so a rewrite within the same millisecond is still seen. */
function write(root: string, name: string, text: string): void {
  mkdirSync(join(root, name, '..'), { recursive: true });
  writeFileSync(join(root, name), text);
  const later = new Date(Date.now() + Math.floor(Math.random() * 1e6));
  utimesSync(join(root, name), later, later);
}

async function activeTexts(db: Db, kb: string): Promise<string[]> {
  const rows = await db
    .select({ text: facts.text })
    .from(facts)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, facts.kbId))
    .where(and(eq(knowledgeBases.name, kb), isNull(facts.retiredInVersion)));
  return rows.map((r) => r.text).sort();
}

async function sync(db: Db, source: SourceRow) {
  const fresh = (await findSource(db, source.id)) as SourceRow;
  return syncSource(db, fresh, { connector: createFolderConnector(fresh.source, fresh), limits: DEFAULT_INGEST_LIMITS });
}

describe.each(DRIVERS)('a folder source synced into its KB (%s)', (driver) => {
  const used = useTestStore(driver);

  it('stores new documents once, then a new version only for a changed or deleted file; expert facts stay', async () => {
    const db = used.store.db;
    const root = folder({
      'leave.md': '# Leave\n\nStaff get 25 days of annual leave.\n',
      'hr/travel.md': '# Travel\n\nTrain travel is booked in standard class.\n',
    });
    const source = (await addSource(
      db,
      { kb: 'synced', source: root, kind: 'folder', everySeconds: 3600, include: null, maxPages: 100 },
      new Date(),
    ))!;
    const first = await sync(db, source);
    expect(first).toMatchObject({
      outcome: 'changed',
      documents: { fetched: 2, changed: 2, removed: 0, failed: 0 },
      version: 1,
      error: null,
    });
    expect(await activeTexts(db, 'synced')).toEqual(['Staff get 25 days of annual leave.', 'Train travel is booked in standard class.']);

    const again = await sync(db, source);
    expect(again).toMatchObject({ outcome: 'unchanged', documents: { fetched: 2, changed: 0, removed: 0, failed: 0 }, version: 1 });

    await addExpertFact(db, {
      kb: 'synced',
      text: 'Parking permits are issued by facilities.',
      question: 'Who issues parking permits?',
      expert: 'cli:dana',
      name: 'Dana',
    });
    write(root, 'leave.md', '# Leave\n\nStaff get 27 days of annual leave.\n');
    rmSync(join(root, 'hr/travel.md'));
    const changed = await sync(db, source);
    expect(changed).toMatchObject({ outcome: 'changed', documents: { fetched: 1, changed: 1, removed: 1, failed: 0 }, version: 3 });
    expect(await activeTexts(db, 'synced')).toEqual(['Parking permits are issued by facilities.', 'Staff get 27 days of annual leave.']);

    // A file rewritten with the same bytes (a new modification time): read again, found unchanged, no new version.
    write(root, 'leave.md', '# Leave\n\nStaff get 27 days of annual leave.\n');
    expect(await sync(db, source)).toMatchObject({ outcome: 'unchanged', version: 3 });
    expect((await findSource(db, source.id))?.lastOutcome).toBe('unchanged');
  });

  it('a folder that vanishes, or lists nothing, is a recorded failure and the KB keeps its facts', async () => {
    const db = used.store.db;
    const root = folder({ 'gym.md': '# Gym\n\nThe gym on level 3 opens at 6 am on weekdays.\n' });
    const source = (await addSource(
      db,
      { kb: 'vanishing', source: root, kind: 'folder', everySeconds: 3600, include: null, maxPages: 100 },
      new Date(),
    ))!;
    expect((await sync(db, source)).outcome).toBe('changed');
    rmSync(join(root, 'gym.md'));
    const empty = await sync(db, source);
    expect(empty).toMatchObject({ outcome: 'failed', version: 1 });
    expect(empty.error).toMatch(/listed no documents; its 1 documents in the KB are kept/);
    rmSync(root, { recursive: true });
    const gone = await sync(db, source);
    expect(gone).toMatchObject({ outcome: 'failed', version: 1, documents: { fetched: 0, changed: 0, removed: 0, failed: 0 } });
    expect(gone.error).toMatch(/cannot be read \(ENOENT\)/);
    expect(await activeTexts(db, 'vanishing')).toEqual(['The gym on level 3 opens at 6 am on weekdays.']);
    const row = (await listSources(db, 'vanishing'))[0];
    expect(row).toMatchObject({ lastOutcome: 'failed', lastVersion: 1 });
    expect(row?.lastSuccessAt).not.toBeNull();
    expect(row!.lastSyncAt!.getTime()).toBeGreaterThan(row!.lastSuccessAt!.getTime() - 1);
  });

  it('reads only the files the glob includes, and a file that cannot be read keeps its previous facts', async () => {
    const db = used.store.db;
    const root = folder({
      'policies/leave.md': '# Leave\n\nCarers may take 5 days of carer leave a year.\n',
      'drafts/leave.md': '# Draft\n\nEveryone gets unlimited leave.\n',
      'policies/notes.txt': 'Notes are text too.\n',
    });
    const source = (await addSource(
      db,
      { kb: 'globbed', source: root, kind: 'folder', everySeconds: 3600, include: 'policies/**/*.md', maxPages: 100 },
      new Date(),
    ))!;
    expect(await sync(db, source)).toMatchObject({ outcome: 'changed', documents: { fetched: 1, changed: 1 } });
    expect(await activeTexts(db, 'globbed')).toEqual(['Carers may take 5 days of carer leave a year.']);
    write(root, 'policies/leave.md', Buffer.from([0x00, 0xff, 0xfe, 0x00, 0x01, 0x02, 0x03]).toString('latin1'));
    const failed = await sync(db, source);
    expect(failed).toMatchObject({ outcome: 'failed', documents: { fetched: 1, changed: 0, removed: 0, failed: 1 }, version: 1 });
    expect(failed.error).toMatch(/^policies\/leave\.md: /);
    expect(await activeTexts(db, 'globbed')).toEqual(['Carers may take 5 days of carer leave a year.']);
    expect((await kbStatus(db, 'globbed'))?.version).toBe(1);
  });
});
