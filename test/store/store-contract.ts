import { readFileSync } from 'node:fs';
import { and, asc, eq, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashUserId } from '../../src/ask/record-interaction.js';
import { ingestPaths, kbStatus } from '../../src/kb/ingest/ingest.js';
import * as schema from '../../src/store/schema.js';
import { documents, facts, interactions, kbVersions, knowledgeBases } from '../../src/store/schema.js';
import { setupTelemetry, type Telemetry } from '../../src/telemetry/setup-telemetry.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { useTestStore, type DriverName } from '../support/stores.js';

const HANDBOOK_MD = `# Staff handbook

## Working hours
Core working hours are from 10 am to 4 pm on weekdays. Staff may start work as early as 7 am.

## Travel
Business travel must be approved by a department head before any ticket is booked.
`;

const MIGRATION_TAGS = (
  JSON.parse(readFileSync(new URL('../../migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: { tag: string }[] }
).entries.map((e) => e.tag);

/** Every table the drizzle schema declares: the migrations must create exactly these. */
const TABLES = (Object.values(schema) as unknown[]).flatMap((t) => (is(t, PgTable) ? [getTableName(t)] : [])).sort();

/**
 * The storage contract every driver must keep (drizzle's pg-common pattern):
 * each driver's test file calls this once with its own fresh database.
 */
export function storeContract(driver: DriverName): void {
  describe(`store contract (${driver})`, () => {
    const handle = useTestStore(driver);
    const files = tempFiles({});
    let telemetry: Telemetry | undefined;

    beforeAll(() => {
      // A registered tracer provider, so that asks carry real trace ids (nothing is exported).
      telemetry = setupTelemetry(testConfig().telemetry);
    });
    afterAll(async () => {
      await telemetry?.shutdown();
      files.cleanup();
    });

    const db = () => handle.store.db;
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await db().execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const kbId = async (name: string) => {
      const [kb] = await db().select().from(knowledgeBases).where(eq(knowledgeBases.name, name));
      if (!kb) throw new Error(`no kb ${name}`);
      return kb.id;
    };
    // Ingested on first use rather than in a hook, so that a store that cannot open fails these tests instead of skipping them.
    let ingested: Promise<unknown> | undefined;
    const asksKb = () => (ingested ??= ingestPaths(db(), [files.write('asks-facts.jsonl', jsonl(HANDBOOK_FACTS))], { kb: 'asks' }));
    const factRows = async (name: string) =>
      db()
        .select()
        .from(facts)
        .where(eq(facts.kbId, await kbId(name)))
        .orderBy(asc(facts.id));

    it('applies every migration to an empty database', async () => {
      expect(handle.store.kind).toBe(driver);
      const tables = await rows(sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`);
      expect(tables.map((t) => t.table_name)).toEqual(TABLES);
      const applied = await rows(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`);
      expect(applied).toHaveLength(MIGRATION_TAGS.length);
      expect(MIGRATION_TAGS[0]).toBe('0000_initial');
      expect(TABLES).toContain('interactions');
      // The generated full-text column nothing read is gone (0009), and its index with it.
      const search = await rows(
        sql`select column_name from information_schema.columns where table_name = 'facts' and column_name = 'search'`,
      );
      expect(search).toEqual([]);
      const [{ n }] = (await rows(sql`select count(*)::int as n from interactions`)) as [{ n: number }];
      expect(n).toBe(0);
    });

    it('re-ingesting unchanged files changes nothing: same version, same facts', async () => {
      const md = files.write('idem-handbook.md', HANDBOOK_MD);
      const facts1 = files.write('idem-facts.jsonl', jsonl(HANDBOOK_FACTS));
      const first = await ingestPaths(db(), [md, facts1], { kb: 'idem' });
      expect(first).toMatchObject({
        kb: { name: 'idem', version: 1 },
        documents: 2,
        added: 2,
        changed: 0,
        unchanged: 0,
        retiredFacts: 0,
        skipped: [],
      });
      expect(first.facts).toBeGreaterThan(HANDBOOK_FACTS.length);
      const statusBefore = await kbStatus(db(), 'idem');
      expect(statusBefore).toEqual({ version: 1, facts: first.facts, documents: 2 });
      const rowsBefore = await factRows('idem');

      const second = await ingestPaths(db(), [md, facts1], { kb: 'idem' });
      expect(second).toMatchObject({
        kb: { name: 'idem', version: 1 },
        documents: 2,
        added: 0,
        changed: 0,
        unchanged: 2,
        facts: 0,
        retiredFacts: 0,
        skipped: [],
      });
      expect(await kbStatus(db(), 'idem')).toEqual(statusBefore);
      expect(await factRows('idem')).toEqual(rowsBefore);
      const versions = await db()
        .select()
        .from(kbVersions)
        .where(eq(kbVersions.kbId, await kbId('idem')));
      expect(versions.map((v) => v.version)).toEqual([1]);
      const docs = await db()
        .select()
        .from(documents)
        .where(eq(documents.kbId, await kbId('idem')));
      expect(docs).toHaveLength(2);
      expect(docs.every((d) => d.addedInVersion === 1 && d.retiredInVersion === null)).toBe(true);
    });

    it('a changed document makes a new version and retires (never deletes) its old facts', async () => {
      const md = files.write('change-handbook.md', HANDBOOK_MD);
      const factsFile = files.write('change-facts.jsonl', jsonl(HANDBOOK_FACTS));
      const v1 = await ingestPaths(db(), [md, factsFile], { kb: 'change' });
      expect(v1.kb.version).toBe(1);
      const before = await factRows('change');
      const { ask } = composeAsk(handle.store);
      const oldAnswer = await ask({ question: 'How much does a staff parking permit cost per month?', kb: 'change', channel: 'test' });
      expect(oldAnswer.decision).toBe('answer');
      expect(oldAnswer.evidence[0]).toMatchObject({ factId: 'HB-4', text: expect.stringContaining('$45') });

      const changed = HANDBOOK_FACTS.map((f) =>
        f.id === 'HB-4' ? { ...f, text: 'Staff parking permits cost $60 per month and are renewed every July.' } : f,
      );
      files.write('change-facts.jsonl', jsonl(changed));
      const v2 = await ingestPaths(db(), [md, factsFile], { kb: 'change' });
      expect(v2).toMatchObject({
        kb: { name: 'change', version: 2 },
        documents: 2,
        added: 0,
        changed: 1,
        unchanged: 1,
        facts: HANDBOOK_FACTS.length,
        retiredFacts: HANDBOOK_FACTS.length,
      });

      const after = await factRows('change');
      // Nothing deleted: every old row is still there, the replaced ones marked retired in version 2.
      expect(after).toHaveLength(before.length + HANDBOOK_FACTS.length);
      for (const old of before) {
        const now = after.find((f) => f.id === old.id);
        expect(now).toBeDefined();
        expect(now?.text).toBe(old.text);
        expect(now?.retiredInVersion).toBe(old.externalId === null ? null : 2);
      }
      const active = after.filter((f) => f.retiredInVersion === null);
      expect(active).toHaveLength(before.length);
      expect(active.filter((f) => f.externalId !== null).every((f) => f.addedInVersion === 2)).toBe(true);
      expect(active.find((f) => f.externalId === 'HB-4')?.text).toContain('$60');

      const docs = await db()
        .select()
        .from(documents)
        .where(eq(documents.kbId, await kbId('change')))
        .orderBy(asc(documents.id));
      expect(docs.map((d) => [d.addedInVersion, d.retiredInVersion])).toEqual([
        [1, null],
        [1, 2],
        [2, null],
      ]);
      const versions = await db()
        .select()
        .from(kbVersions)
        .where(eq(kbVersions.kbId, await kbId('change')))
        .orderBy(asc(kbVersions.version));
      expect(versions.map((v) => v.version)).toEqual([1, 2]);
      expect(await kbStatus(db(), 'change')).toEqual({ version: 2, facts: before.length, documents: 2 });

      // The ask path picks up the new version at once.
      const newAnswer = await ask({ question: 'How much does a staff parking permit cost per month?', kb: 'change', channel: 'test' });
      expect(newAnswer.decision).toBe('answer');
      expect(newAnswer.kb).toEqual({ name: 'change', version: 2 });
      expect(newAnswer.evidence[0]?.text).toContain('$60');
      expect(newAnswer.evidence.some((e) => e.text.includes('$45'))).toBe(false);
    });

    it('concurrent ingests of the same new file make one version, not two', async () => {
      const path = files.write('race-facts.jsonl', jsonl(HANDBOOK_FACTS));
      const results = await Promise.all([1, 2, 3].map(() => ingestPaths(db(), [path], { kb: 'race' })));
      expect(results.map((r) => r.kb.version)).toEqual([1, 1, 1]);
      expect(results.map((r) => r.added).sort()).toEqual([0, 0, 1]);
      expect(await kbStatus(db(), 'race')).toEqual({ version: 1, facts: HANDBOOK_FACTS.length, documents: 1 });
      expect(await factRows('race')).toHaveLength(HANDBOOK_FACTS.length);
    });

    it('a facts file with bad lines reports each one as skipped and keeps the good ones', async () => {
      const content = [
        JSON.stringify({ id: 'L-1', text: 'Visitors must sign in at the front desk.' }),
        '{"id": "L-2", "text": "broken',
        JSON.stringify({ id: 'L-3', text: '   ' }),
        JSON.stringify({ id: 'L-4', text: 'Visitor badges are returned at the front desk when leaving.', confidence: 0.8 }),
        JSON.stringify({ id: 'L-1', text: 'A second fact that reuses an id.' }),
        '',
        JSON.stringify({ id: 'L-6', text: 'Deliveries are received at the loading bay.', confidence: 7 }),
        JSON.stringify({ id: 'L-7', text: 'Couriers wait at the loading bay.', source: 'https://example.org/couriers' }),
      ].join('\n');
      const path = files.write('lines.jsonl', content);
      const summary = await ingestPaths(db(), [path], { kb: 'lines' });
      expect(summary).toMatchObject({ kb: { name: 'lines', version: 1 }, documents: 1, added: 1, facts: 3 });
      expect(summary.skipped.map((s) => s.path)).toEqual([path, path, path, path]);
      const reasons = summary.skipped.map((s) => s.reason);
      expect(reasons[0]).toBe('line 2: not valid JSON');
      expect(reasons[1]).toMatch(/^line 3: text /);
      expect(reasons[2]).toBe('line 5: duplicate id "L-1"');
      expect(reasons[3]).toMatch(/^line 7: confidence /);
      const stored = await factRows('lines');
      expect(stored.map((f) => [f.externalId, f.text, f.source, f.confidence, f.position])).toEqual([
        ['L-1', 'Visitors must sign in at the front desk.', `lines.jsonl#L-1`, 1, 0],
        ['L-4', 'Visitor badges are returned at the front desk when leaving.', `lines.jsonl#L-4`, 0.8, 1],
        ['L-7', 'Couriers wait at the loading bay.', 'https://example.org/couriers', 1, 2],
      ]);
    });

    describe('recording asks', () => {
      const count = async () => ((await rows(sql`select count(*)::int as n from interactions`))[0] as { n: number }).n;
      const row = async (id: number | null) => {
        expect(id).toEqual(expect.any(Number));
        const [found] = await db()
          .select()
          .from(interactions)
          .where(eq(interactions.id, id as number));
        return found;
      };

      it('every ask writes exactly one row with its trace id, decision, reason and kb version', async () => {
        await asksKb();
        const { ask, config } = composeAsk(handle.store);
        const id = await kbId('asks');

        const before = await count();
        const answered = await ask({
          question: 'How many days of annual leave do full-time staff receive?',
          kb: 'asks',
          channel: 'test',
          userId: 'U-ALICE',
        });
        expect(await count()).toBe(before + 1);
        expect(answered.decision).toBe('answer');
        expect(answered.evidence[0]?.factId).toBe('HB-1');
        expect(answered.traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(answered.traceId).not.toBe('0'.repeat(32));
        expect(await row(answered.interactionId)).toMatchObject({
          channel: 'test',
          eventId: null,
          userHash: hashUserId('U-ALICE', config.telemetry.userHashSalt),
          kbId: id,
          kbVersion: 1,
          question: 'How many days of annual leave do full-time staff receive?',
          status: 'done',
          decision: 'answer',
          reason: null,
          answer: answered.answer,
          traceId: answered.traceId,
          latencyMs: answered.latencyMs,
          evidence: answered.evidence,
        });

        const refused = await ask({ question: 'Who won the 1998 World Cup?', kb: 'asks', channel: 'test' });
        expect(await count()).toBe(before + 2);
        expect(refused.decision).toBe('abstain');
        const reason = refused.reasons[0]?.code;
        expect(reason).toEqual(expect.any(String));
        expect(await row(refused.interactionId)).toMatchObject({
          channel: 'test',
          userHash: null,
          kbId: id,
          kbVersion: 1,
          question: 'Who won the 1998 World Cup?',
          decision: 'abstain',
          reason,
          answer: refused.refusal,
          traceId: refused.traceId,
          evidence: [],
        });
        expect(refused.traceId).not.toBe(answered.traceId);

        // Not recording (evaluation runs) writes nothing.
        await ask(
          { question: 'How many days of annual leave do full-time staff receive?', kb: 'asks', channel: 'eval' },
          { record: false },
        );
        expect(await count()).toBe(before + 2);
      });

      it('an ask whose (channel, eventId) is already recorded does not write a second row', async () => {
        await asksKb();
        const { ask } = composeAsk(handle.store);
        const before = await count();
        const request = { question: 'Where is the fire assembly point?', kb: 'asks', channel: 'slack', eventId: 'Ev0123ABC' };
        const first = await ask(request);
        expect(first.interactionId).toEqual(expect.any(Number));
        const retry = await ask(request);
        expect(retry.interactionId).toBeNull();
        expect(retry.decision).toBe(first.decision);
        expect(await count()).toBe(before + 1);
        const stored = await db()
          .select()
          .from(interactions)
          .where(and(eq(interactions.channel, 'slack'), eq(interactions.eventId, 'Ev0123ABC')));
        expect(stored.map((r) => [r.id, r.traceId])).toEqual([[first.interactionId, first.traceId]]);

        // The same event id on another channel is another event.
        const teams = await ask({ ...request, channel: 'teams' });
        expect(teams.interactionId).toEqual(expect.any(Number));
        expect(teams.interactionId).not.toBe(first.interactionId);
        expect(await count()).toBe(before + 2);
      });
    });

    // Last: it closes the suite's store.
    it('fails closed when the store goes away: an "unavailable" abstention, not a throw', async () => {
      await asksKb();
      const { ask } = composeAsk(handle.store);
      const warm = await ask({ question: 'How many days of annual leave do full-time staff receive?', kb: 'asks', channel: 'test' });
      expect(warm.decision).toBe('answer');
      await handle.store.close();

      const decision = await ask({ question: 'How many days of annual leave do full-time staff receive?', kb: 'asks', channel: 'test' });
      expect(decision).toMatchObject({
        decision: 'abstain',
        answer: null,
        evidence: [],
        interactionId: null,
        reasons: [{ layer: 'system', pass: false, code: 'unavailable' }],
      });
      expect(decision.refusal).toMatch(/^I can't answer that right now/);
      expect(decision.refusal).toContain('try again later');
      expect(decision.traceId).toMatch(/^[0-9a-f]{32}$/);
    });
  });
}
