import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createAsk } from '../../src/ask/ask-service.js';
import { createInteractionRecorder } from '../../src/ask/record-interaction.js';
import { apiRoutes } from '../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../src/channels/http/http-server.js';
import { Bm25Index } from '../../src/core/retrieval/bm25-index.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import { KnowledgeIndex } from '../../src/kb/knowledge-index.js';
import { CandorError } from '../../src/kernel/errors.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';

/** A build that stops between slices until the test lets it go on: "a build in progress", deterministically. */
function heldPause() {
  let held = true;
  const waiting: (() => void)[] = [];
  return {
    pause: () => (held ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve()),
    release() {
      held = false;
      for (const go of waiting.splice(0)) go();
    },
    hold() {
      held = true;
    },
  };
}

const files = tempFiles({ 'v1.jsonl': jsonl(HANDBOOK_FACTS) });
let store: Store;

beforeAll(async () => {
  store = await openStore({ databaseUrl: undefined, dataDir: 'memory://' });
  await ingestPaths(store.db, [files.path('v1.jsonl')], { kb: 'handbook' });
});

afterAll(async () => {
  await store?.close();
  files.cleanup();
});

describe('building an index a slice at a time', () => {
  const facts = Array.from({ length: 6000 }, (_, i) => ({
    key: i + 1,
    text: `Fact ${i} about ${['leave', 'parking', 'laptops', 'expenses', 'canteen'][i % 5]} number ${i % 97} and rule ${i % 13}.`,
  }));

  it('gives the same index as building it at once (same hits, same scores)', async () => {
    const once = new Bm25Index(facts);
    const sliced = await Bm25Index.build(facts, { pause: () => Promise.resolve(), sliceSize: 7 });
    for (const question of ['parking rule 5', 'leave number 12', 'expenses and canteen', 'laptops', 'nothing here']) {
      expect(sliced.search(question, 20)).toEqual(once.search(question, 20));
      expect(sliced.idf('parking')).toBe(once.idf('parking'));
    }
  });

  it('lets the event loop run between slices: a timer set when the build starts fires before it ends', async () => {
    let buildDone = false;
    let timerSawBuildRunning = false;
    setTimeout(() => (timerSawBuildRunning = !buildDone), 0);
    const rows = facts.map((f) => ({
      id: f.key,
      externalId: null,
      text: f.text,
      heading: null,
      source: 's',
      passage: null,
      confidence: 1,
    }));
    await KnowledgeIndex.build({ kbId: 1, name: 'big', version: 1 }, rows, new Map(), {
      pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
      sliceSize: 500,
    });
    buildDone = true;
    expect(timerSawBuildRunning).toBe(true);
  });
});

describe('serving while an index is built (serveWhileBuilding)', () => {
  it('a KB with no index yet: the ask waits at most maxWaitMs, then kb_warming (503); answered once built', async () => {
    const gate = heldPause();
    const cache = new KnowledgeIndexCache(store.db, { pause: gate.pause, sliceSize: 1 });
    cache.serveWhileBuilding({ maxWaitMs: 50 });
    const warming = await cache.get('handbook').catch((error: unknown) => error);
    expect(warming).toBeInstanceOf(CandorError);
    expect(warming).toMatchObject({ code: 'kb_warming', status: 503 });
    expect(cache.readiness(['handbook'])).toEqual([{ kb: 'handbook', version: null, building: 1, facts: null }]);
    gate.release();
    await cache.built(['handbook'], 60_000); // built in a worker thread: started once the gate opens
    expect((await cache.get('handbook')).version).toBe(1);
    expect(cache.readiness()).toEqual([{ kb: 'handbook', version: 1, building: null, facts: HANDBOOK_FACTS.length }]);
  });

  it('a new version: asks keep the previous one until the new one is built, then move on', async () => {
    const gate = heldPause();
    gate.release();
    const cache = new KnowledgeIndexCache(store.db, { pause: gate.pause, sliceSize: 1 });
    cache.serveWhileBuilding({ maxWaitMs: 50 });
    await cache.warm(['handbook']);
    await cache.built(['handbook'], 60_000);
    expect((await cache.get('handbook')).version).toBe(1);
    gate.hold();
    const more = tempFiles({
      'v2.jsonl': jsonl([{ id: 'HB-99', text: 'The gym on level 3 opens at 6 am on weekdays.', source: 'handbook#gym' }]),
    });
    await ingestPaths(store.db, [more.path('v2.jsonl')], { kb: 'handbook' });
    more.cleanup();
    // Version 2 is stored; its build is held: the ask is answered from version 1 at once.
    const during = await cache.get('handbook');
    expect(during.version).toBe(1);
    expect(cache.readiness(['handbook'])[0]).toMatchObject({ version: 1, building: 2 });
    gate.release();
    await expect.poll(async () => (await cache.get('handbook')).version).toBe(2);
  });

  it('over HTTP: /api/ask 503 with Retry-After and /healthz not ready while warming; both fine once built', async () => {
    const gate = heldPause();
    const config = testConfig();
    const indexes = new KnowledgeIndexCache(store.db, { pause: gate.pause, sliceSize: 1 });
    indexes.serveWhileBuilding({ maxWaitMs: 50 });
    const ask = createAsk({ config, indexes, recorder: createInteractionRecorder(store.db, 'salt') });
    const server: RunningServer = await startHttpServer(
      [apiRoutes({ ask, maxBodyBytes: 65_536, health: [], indexes: () => indexes.readiness(['handbook']) })],
      { host: '127.0.0.1', port: 0, log: () => undefined },
    );
    try {
      await indexes.warm(['handbook', 'no-such-kb']);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        status: 'unavailable',
        failing: [{ name: 'kb:handbook', detail: expect.stringContaining('warming up') }],
        kbs: [{ kb: 'handbook', version: null, building: 2 }],
      });
      const asked = await fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'How many days of annual leave do full-time staff get?', kb: 'handbook' }),
      });
      expect(asked.status).toBe(503);
      expect(asked.headers.get('retry-after')).toBe('5');
      expect(await asked.json()).toMatchObject({ error: { code: 'kb_warming' } });
      gate.release();
      await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status).toBe(200);
      const answered = await fetch(`${server.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'How many days of annual leave do full-time staff get?', kb: 'handbook' }),
      });
      expect(answered.status).toBe(200);
      expect(await answered.json()).toMatchObject({ decision: 'answer', kb: { name: 'handbook', version: 2 } });
    } finally {
      await server.stop(100);
    }
  });
});
