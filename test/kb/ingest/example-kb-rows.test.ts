import { fileURLToPath } from 'node:url';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { ingestPaths, type IngestSummary } from '../../../src/kb/ingest/ingest.js';
import { facts, knowledgeBases } from '../../../src/store/schema.js';
import { useTestStore } from '../../support/stores.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/kb', import.meta.url));

/** The example KB after this readers: the booklet's table rows are whole facts, and ingestion stays idempotent. */
describe('ingesting the example knowledge base', () => {
  const handle = useTestStore('pglite');
  let first: IngestSummary;
  const active = async () => {
    const [kb] = await handle.store.db.select().from(knowledgeBases).where(eq(knowledgeBases.name, 'examples'));
    return handle.store.db
      .select({ id: facts.id, text: facts.text, heading: facts.heading, source: facts.source, addedInVersion: facts.addedInVersion })
      .from(facts)
      .where(and(eq(facts.kbId, kb!.id), isNull(facts.retiredInVersion)))
      .orderBy(asc(facts.id));
  };

  beforeAll(async () => {
    first = await ingestPaths(handle.store.db, [EXAMPLES], { kb: 'examples' });
  });

  it('holds the maximum claim limit per policy year and its amount in one fact', async () => {
    const rows = (await active()).filter((fact) => fact.text.includes('Maximum claim limit'));
    expect(rows).toContainEqual(
      expect.objectContaining({
        text: 'Maximum claim limit, Per policy year: $200,000',
        source: expect.stringMatching(/^medishield-life\/page_6\.txt › Table A: MediShield Life benefits \(continued\)/),
      }),
    );
    expect((await active()).map((fact) => fact.text)).toContain('Lifetime: No Limit');
    expect(first.byType.text).toMatchObject({ files: 120, errors: 0 });
    expect(first.byType.text?.tableRows).toBeGreaterThan(40);
  });

  it('re-ingesting changes nothing: same version, same facts', async () => {
    const before = await active();
    const again = await ingestPaths(handle.store.db, [EXAMPLES], { kb: 'examples' });
    expect(again).toMatchObject({
      kb: first.kb,
      documents: 120,
      added: 0,
      changed: 0,
      unchanged: 120,
      facts: 0,
      retiredFacts: 0,
      skipped: [],
      errors: [],
    });
    expect(again.byType.text).toEqual({ files: 120, facts: 0, tableRows: 0, skipped: 0, errors: 0 });
    expect(await active()).toEqual(before);
  });
});
