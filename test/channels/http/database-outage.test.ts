import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildCandor, type Candor } from '../../../src/app/main.js';
import { apiRoutes } from '../../../src/channels/http/api-routes.js';
import { startHttpServer, type RunningServer } from '../../../src/channels/http/http-server.js';
import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, tempFiles, testConfig } from '../../support/compose.js';
import { startOwnPostgres, type OwnPostgres } from '../../support/own-postgres.js';
import { waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { BOT_USER, sendSigned, slackEvent, startSlackRig } from '../slack/slack-harness.js';

const jsonl = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The database stops and starts again under a stream of asks (a cluster of the
 * test's own, never the machine's shared server): nothing crashes, /healthz
 * names the database while it is down, asks fail closed, every ask answered 200
 * is stored, and everything recovers without a restart.
 */
describe('a database outage under a running server', () => {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  let own: OwnPostgres;
  let app: Candor;
  let server: RunningServer;

  beforeAll(async () => {
    own = await startOwnPostgres();
    app = await buildCandor(testConfig({ DATABASE_URL: own.url, CANDOR_KB: 'handbook' }));
    await ingestPaths(app.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    server = await startHttpServer(
      [apiRoutes({ ask: app.ask, maxBodyBytes: 65_536, health: [{ name: 'database', check: () => app.store.ping() }] })],
      {
        host: '127.0.0.1',
        port: 0,
        log: app.log,
      },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop(1_000);
    await app?.close().catch(() => undefined);
    own?.destroy();
    files.cleanup();
  });

  const health = async () => {
    const res = await fetch(`${server.url}/healthz`);
    return { status: res.status, body: (await res.json()) as { status: string; failing?: { name: string; detail: string }[] } };
  };

  it('fails closed while it is down and recovers when it is back, losing nothing it acknowledged', async () => {
    const replies: { status: number; interactionId: number | null; code: string | null | undefined }[] = [];
    let asking = true;
    const stream = (async () => {
      for (let i = 0; asking; i++) {
        const res = await fetch(`${server.url}/api/ask`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: `How many days of annual leave do full-time staff receive? (${i})` }),
        }).catch(() => null);
        if (res) {
          const body = (await res.json()) as { interactionId: number | null; reasons: { code: string | null }[] };
          replies.push({ status: res.status, interactionId: body.interactionId, code: body.reasons[0]?.code });
        }
        await sleep(40);
      }
    })();

    // Each phase lasts until it has happened (asks answered, an ask refused, asks answered again), not for a fixed time.
    const answeredSince = (from: number) => replies.slice(from).filter((r) => r.status === 200).length;
    await waitFor(() => answeredSince(0) >= 3, 30_000, 'asks answered before the outage');
    expect((await health()).status).toBe(200);
    own.stop();
    const down = await health();
    expect(down).toEqual({ status: 503, body: { status: 'unavailable', failing: [{ name: 'database', detail: expect.any(String) }] } });
    const stopped = replies.length;
    await waitFor(
      () => replies.slice(stopped).some((r) => r.status === 503 && r.code === 'unavailable'),
      30_000,
      'an ask refused while the database is down',
    );
    own.start();
    let back = await health();
    for (let i = 0; i < 50 && back.status !== 200; i++) {
      await sleep(200);
      back = await health();
    }
    expect(back).toEqual({ status: 200, body: { status: 'ok' } });
    const recovered = replies.length;
    await waitFor(() => answeredSince(recovered) >= 3, 30_000, 'asks answered after the outage');
    asking = false;
    await stream;

    const refused = replies.filter((r) => r.status === 503);
    const answered = replies.filter((r) => r.status === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThan(5);
    // Down: an honest "cannot answer now", never a guess. An ask that read the KB just before the stop and
    // could not store its row is a 503 too (nothing stored, nothing promised), with the decision it reached.
    for (const r of refused) expect(r.interactionId).toBeNull();
    expect(refused.filter((r) => r.code === 'unavailable').length).toBeGreaterThan(0);
    // Every 200 is a stored interaction; after the outage, asks are stored again.
    const ids = answered.map((r) => r.interactionId as number);
    const stored = (await app.store.db.execute(sql`select id from interactions`)) as unknown as { rows: { id: number | string }[] };
    expect(new Set(stored.rows.map((r) => Number(r.id)))).toEqual(new Set(ids));
    expect(replies.at(-1)?.status).toBe(200);
  }, 60_000);

  it('does not acknowledge a Slack event it cannot store, so that Slack delivers it again; the redelivery is answered', async () => {
    const rig = await startSlackRig({ env: { DATABASE_URL: own.url, LOG_LEVEL: 'silent' } });
    try {
      await ingestFixture(rig.app.store.db);
      const ev = slackEvent({ text: `<@${BOT_USER}> What does MediShield Life cover?` });
      own.stop();
      const refused = await sendSigned(rig.eventsUrl, ev.body);
      expect(refused.status).toBe(503);
      own.start();
      await waitFor(
        async () =>
          (await rig.app.store.ping().then(
            () => true,
            () => false,
          )) || undefined,
        10_000,
        'the database back',
      );
      expect((await sendSigned(rig.eventsUrl, ev.body, { retryNum: 1 })).status).toBe(200);
      const posts = await waitFor(
        () => {
          const found = rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === ev.ts);
          return found.length > 0 && found;
        },
        10_000,
        'the answer',
      );
      expect(String(posts[0]!.body.text)).toContain('MediShield Life covers large hospital bills');
    } finally {
      await rig.close();
    }
  }, 60_000);
});
