import { sql } from 'drizzle-orm';

import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../../support/compose.js';
import type { FakeServer, RecordedCall } from '../fake-http.js';
import { startFakeSlack, startSlackRig, type SlackRig } from './slack-harness.js';
import { rows, type PressedMessage } from './slack-interactions.js';

// A Slack rig whose default KB (the staff handbook) has experts: a channel, one person and a user group.
export const EXPERTS_CHANNEL = 'C0EXPERTS';
export const EXPERT = 'UEXPERT';
export const GROUP_MEMBER = 'UINGROUP';
export const GYM = 'Is there a gym in the office building?';
export const GYM_ANSWER = 'The staff gym is on level 2 of the office building and opens from 7 am to 9 pm on weekdays.';

export interface ExpertsRig {
  readonly rig: SlackRig;
  readonly slack: FakeServer;
  close(): Promise<void>;
}

export async function startExpertsRig(options: { autoAsk: boolean }): Promise<ExpertsRig> {
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const slack = await startFakeSlack();
  slack.use((call) =>
    call.path === '/api/usergroups.users.list'
      ? { body: call.body.usergroup === 'S0EXPERTS' ? { ok: true, users: [GROUP_MEMBER] } : { ok: false, error: 'no_such_subteam' } }
      : undefined,
  );
  const experts = [
    { kb: 'default', slack: EXPERTS_CHANNEL, people: [`slack:${EXPERT}`, 'slack:group:S0EXPERTS'], autoAsk: options.autoAsk },
  ];
  const rig = await startSlackRig({ slack, env: { CANDOR_EXPERTS: JSON.stringify(experts) } });
  await ingestPaths(rig.app.store.db, [files.path('handbook.jsonl')], { kb: 'default' });
  return {
    rig,
    slack,
    async close() {
      await rig.close();
      await slack.close();
      files.cleanup();
    },
  };
}

export const expertPosts = (slack: FakeServer) => slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === EXPERTS_CHANNEL);
export const ephemeralsTo = (slack: FakeServer, user: string) =>
  slack.callsTo('/api/chat.postEphemeral').filter((c) => c.body.user === user);
/** What the bot told askers in a reply's thread (plain text, unlike replies, which have blocks). */
export const toldIn = (slack: FakeServer, message: PressedMessage) =>
  slack
    .callsTo('/api/chat.postMessage')
    .filter((c) => c.body.channel === message.channel && c.body.thread_ts === message.threadTs && !c.body.blocks);

/** An experts' post as a test presses it: its ts (the fake numbers messages in order) and its latest blocks. */
export function expertPostMessage(slack: FakeServer, post: RecordedCall): PressedMessage {
  const n = slack.callsTo('/api/chat.postMessage').indexOf(post) + 1;
  const ts = `${1_700_000_000 + n}.000100`;
  const update = slack
    .callsTo('/api/chat.update')
    .filter((c) => c.body.channel === EXPERTS_CHANNEL && c.body.ts === ts)
    .at(-1);
  return { channel: EXPERTS_CHANNEL, ts, blocks: (update ?? post).body.blocks as Record<string, any>[] };
}

export const expertFacts = (rig: SlackRig) =>
  rows<{ text: string; source: string }>(rig.app.store.db, sql`select text, source from facts where source like 'expert:%'`);
