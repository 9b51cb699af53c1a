import { randomBytes } from 'node:crypto';
import { truncateSync } from 'node:fs';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { ingestPaths, kbStatus } from '../../../src/kb/ingest/ingest.js';
import { decodeText } from '../../../src/kb/parse/decode-text.js';
import { facts, kbVersions, knowledgeBases } from '../../../src/store/schema.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles } from '../../support/compose.js';
import { DRIVERS, useTestStore } from '../../support/stores.js';

/** `n` facts of about 300 bytes a line that no handbook question is about. */
function filler(n: number, from = 1): { id: string; text: string; heading: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `FILL-${from + i}`,
    text: `Archive shelf ${from + i} in the basement store holds bound minutes of the gardening committee, catalogued under reference ${(from + i) * 7} for the records office, which keeps them for seven years before review.`,
    heading: `Archive ${(from + i) % 50}`,
  }));
}

const PARKING = 'How much does a staff parking permit cost per month?';
const SMALL_LIMIT = 4096;

describe.each(DRIVERS)('a .jsonl is streamed and stored in batches (%s)', (driver) => {
  const handle = useTestStore(driver);
  const files = tempFiles({}, 'candor-jsonl-');
  afterAll(() => files.cleanup());
  const db = () => handle.store.db;
  const kbId = async (name: string) => {
    const [kb] = await db().select().from(knowledgeBases).where(eq(knowledgeBases.name, name));
    return kb!.id;
  };
  const activeFacts = async (name: string) =>
    db()
      .select({ externalId: facts.externalId, position: facts.position, version: facts.addedInVersion })
      .from(facts)
      .where(and(eq(facts.kbId, await kbId(name)), isNull(facts.retiredInVersion)))
      .orderBy(asc(facts.position));

  it('a .jsonl over CANDOR_INGEST_MAX_FILE_BYTES is stored whole, a batch at a time; a document over it is still refused', async () => {
    const rows = filler(100);
    const path = files.write('big.jsonl', jsonl(rows));
    const note = files.write('big-note.md', `# Note\n\n${'The archive opens at nine. '.repeat(200)}\n`);
    const summary = await ingestPaths(db(), [path, note], { kb: 'big', limits: { maxFileBytes: SMALL_LIMIT }, batchSize: 7 });

    expect(summary).toMatchObject({ kb: { version: 1 }, documents: 1, added: 1, facts: 100, skipped: [] });
    expect(summary.errors).toEqual([{ path: note, reason: '5.3 KiB, larger than the limit of 4 KiB (CANDOR_INGEST_MAX_FILE_BYTES=4096)' }]);
    expect(summary.byType.jsonl).toEqual({ files: 1, facts: 100, tableRows: 0, skipped: 0, errors: 0 });
    const stored = await activeFacts('big');
    expect(stored.map((f) => f.externalId)).toEqual(rows.map((r) => r.id));
    expect(stored.map((f) => f.position)).toEqual(rows.map((_, i) => i));
  });

  it('a line longer than the limit is skipped with its number, the rest of the file stored', async () => {
    const rows = [...filler(3), { id: 'LONG', text: 'x'.repeat(SMALL_LIMIT * 3) }, ...filler(3, 4)];
    const path = files.write('long-line.jsonl', jsonl(rows));
    const summary = await ingestPaths(db(), [path], { kb: 'long', limits: { maxFileBytes: SMALL_LIMIT }, batchSize: 2 });
    expect(summary).toMatchObject({
      facts: 6,
      skipped: [{ path, reason: 'line 4: longer than the limit of 4 KiB (CANDOR_INGEST_MAX_FILE_BYTES=4096)' }],
    });
    expect((await activeFacts('long')).map((f) => f.externalId)).toEqual(['FILL-1', 'FILL-2', 'FILL-3', 'FILL-4', 'FILL-5', 'FILL-6']);
  });

  it('bad lines mid-file are skipped with their numbers and why; the facts around them keep their order', async () => {
    const lines = filler(60).map((row) => JSON.stringify(row));
    lines[24] = '{"id": "BROKEN", "text": "cut short';
    lines[39] = JSON.stringify({ id: 'FILL-3', text: 'A second fact under an id already used.' });
    lines[49] = JSON.stringify({ id: 'NO-TEXT' });
    lines[54] = JSON.stringify({ id: 'NUL', text: 'A fact with a \u0000 in it, which PostgreSQL cannot store.' });
    lines[55] = JSON.stringify({ id: 'LONE', text: 'A lone \ud800 surrogate is stored as the replacement character.' });
    const path = files.write('bad-lines.jsonl', `${lines.join('\n')}\n`);
    const summary = await ingestPaths(db(), [path], { kb: 'bad-lines', batchSize: 8 });

    expect(summary).toMatchObject({ documents: 1, facts: 56 });
    expect(summary.skipped).toEqual([
      { path, reason: 'line 25: not valid JSON' },
      { path, reason: 'line 40: duplicate id "FILL-3"' },
      { path, reason: expect.stringMatching(/^line 50: text /) },
      { path, reason: 'line 55: text holds a NUL character (\\u0000), which cannot be stored' },
    ]);
    expect(summary.byType.jsonl).toMatchObject({ files: 1, facts: 56, skipped: 4 });
    const stored = await activeFacts('bad-lines');
    expect(stored).toHaveLength(56);
    expect(stored.map((f) => f.position)).toEqual([...Array(56).keys()]);
    expect(stored.map((f) => f.externalId)).not.toContain('BROKEN');
    expect(stored[24]?.externalId).toBe('FILL-26');
    const [lone] = await db().select({ text: facts.text }).from(facts).where(eq(facts.externalId, 'LONE'));
    expect(lone?.text).toBe('A lone \ufffd surrogate is stored as the replacement character.');
  });

  it('an unchanged file re-ingested makes no new version; a changed one retires all its facts in the next', async () => {
    const path = files.write('same.jsonl', jsonl([...HANDBOOK_FACTS, ...filler(40)]));
    const first = await ingestPaths(db(), [path], { kb: 'same', batchSize: 10 });
    expect(first).toMatchObject({ kb: { version: 1 }, added: 1, facts: 48 });

    const again = await ingestPaths(db(), [path], { kb: 'same', batchSize: 10 });
    expect(again).toMatchObject({ kb: { version: 1 }, documents: 1, added: 0, changed: 0, unchanged: 1, facts: 0, retiredFacts: 0 });
    const versions = await db()
      .select()
      .from(kbVersions)
      .where(eq(kbVersions.kbId, await kbId('same')));
    expect(versions).toHaveLength(1);

    files.write('same.jsonl', jsonl([...HANDBOOK_FACTS, ...filler(41)]));
    const changed = await ingestPaths(db(), [path], { kb: 'same', batchSize: 10 });
    expect(changed).toMatchObject({ kb: { version: 2 }, changed: 1, facts: 49, retiredFacts: 48 });
    expect(await kbStatus(db(), 'same')).toEqual({ version: 2, facts: 49, documents: 1 });
  });

  describe('a failure midway leaves the previous version answering', () => {
    const v1 = HANDBOOK_FACTS;
    const v2 = [
      ...HANDBOOK_FACTS.map((f) => (f.id === 'HB-4' ? { ...f, text: 'Staff parking permits cost $60 per month.' } : f)),
      ...filler(25_000),
    ];

    const previousVersionAnswers = async (kb: string) => {
      expect(await kbStatus(db(), kb)).toEqual({ version: 1, facts: v1.length, documents: 1 });
      const rows = await db()
        .select({ id: facts.id })
        .from(facts)
        .where(eq(facts.kbId, await kbId(kb)));
      expect(rows).toHaveLength(v1.length); // nothing half-stored left behind
      const { ask } = composeAsk(handle.store);
      const answer = await ask({ question: PARKING, kb, channel: 'test' });
      expect(answer).toMatchObject({ decision: 'answer', kb: { name: kb, version: 1 } });
      expect(answer.evidence[0]?.text).toContain('$45');
    };

    it('a file cut short while its facts are stored fails alone; its previous version stays', async () => {
      const path = files.write('cut.jsonl', jsonl(v1));
      await ingestPaths(db(), [path], { kb: 'cut' });
      files.write('cut.jsonl', jsonl(v2));
      // Cut off once 10,000 facts are written: the rest of the file is gone from under the reader.
      const summary = await ingestPaths(db(), [path], {
        kb: 'cut',
        batchSize: 500,
        onProgress: (message) => void (message === 'stored 10000 facts' && truncateSync(path, 0)),
      });
      expect(summary).toMatchObject({ kb: { version: 1 }, documents: 0, added: 0, changed: 0, facts: 0, skipped: [] });
      expect(summary.errors).toEqual([{ path, reason: 'it changed while its facts were stored; ingest it again' }]);
      expect(summary.byType.jsonl).toEqual({ files: 0, facts: 0, tableRows: 0, skipped: 0, errors: 1 });
      await previousVersionAnswers('cut');
    });

    it('any other failure midway rolls the whole ingest back', async () => {
      const path = files.write('fails.jsonl', jsonl(v1));
      const other = files.write('fails-other.jsonl', jsonl(filler(3, 90_000)));
      await ingestPaths(db(), [path], { kb: 'fails' });
      files.write('fails.jsonl', jsonl(v2));
      const failing = ingestPaths(db(), [other, path], {
        kb: 'fails',
        batchSize: 500,
        onProgress: (message) => {
          if (message.startsWith('stored ')) throw new Error('progress output closed');
        },
      });
      await expect(failing).rejects.toThrow('progress output closed');
      await previousVersionAnswers('fails');
    });
  });
});

describe('a .jsonl that is not text is refused as decodeText refuses it', () => {
  const handle = useTestStore('pglite');
  const files = tempFiles({}, 'candor-jsonl-text-');
  afterAll(() => files.cleanup());

  it('random bytes: the same share of undecodable characters, to the digit', async () => {
    const bytes = randomBytes(256 * 1024).map((byte) => byte || 1);
    const path = files.write('random.jsonl', bytes);
    const decoded = decodeText(bytes);
    const summary = await ingestPaths(handle.store.db, [path], { kb: 'random' });
    expect(decoded.ok).toBe(false);
    expect(summary.errors).toEqual([{ path, reason: decoded.ok ? '' : decoded.reason }]);
  });

  it('UTF-16: NUL bytes', async () => {
    const path = files.write('utf16.jsonl', Buffer.from(jsonl(HANDBOOK_FACTS), 'utf16le'));
    const summary = await ingestPaths(handle.store.db, [path], { kb: 'utf16' });
    expect(summary.errors).toEqual([{ path, reason: 'binary content (NUL bytes), not text' }]);
    expect(summary.documents).toBe(0);
  });
});
