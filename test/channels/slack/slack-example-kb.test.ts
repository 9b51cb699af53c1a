import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { waitFor } from '../fake-http.js';
import { BOT_USER, sendSigned, slackEvent, startSlackRig, type SlackRig } from './slack-harness.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/kb', import.meta.url));

/**
 * Issue 12: the question a citizen asks about the booklet's claim-limit table,
 * as a signed Slack mention into the real Bolt app, over the example KB; the
 * reply (on the fake Web API) quotes the row with its value.
 */
describe('Slack: the MediShield claim limit from the example KB', () => {
  let rig: SlackRig;
  beforeAll(async () => {
    rig = await startSlackRig();
    await ingestPaths(rig.app.store.db, [EXAMPLES], { kb: 'default' });
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('answers in the thread, quoting the row that holds both the label and $200,000', async () => {
    const ev = slackEvent({ text: `<@${BOT_USER}> What is the maximum claim limit per policy year under MediShield Life?` });
    expect((await sendSigned(rig.eventsUrl, ev.body)).status).toBe(200);
    const posts = await waitFor(
      () => {
        const found = rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === ev.ts);
        return found.length > 0 && found;
      },
      10_000,
      'chat.postMessage',
    );
    const text = JSON.stringify(posts[0]!.body.blocks);
    expect(text).toMatch(/maximum claim limit/i);
    expect(text).toMatch(/per policy year/i);
    expect(text).toContain('$200,000');
  });
});
