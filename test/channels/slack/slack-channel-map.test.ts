import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HR_FACTS, ingestFacts, IT_FACTS, rowWithKb } from '../channel-kbs.js';
import { sleep, waitFor } from '../fake-http.js';
import { ingestFixture } from '../kb-fixture.js';
import { BOT_USER, sendSigned, slackEvent, slashCommand, startSlackRig, TEAM, type SlackRig } from './slack-harness.js';

// Four channels mapped by CANDOR_CHANNELS, the default KB everywhere else; signed requests into the real Bolt app.
const CHANNELS = [
  { slack: 'C0HR', kb: 'hr' },
  { slack: 'C0IT', kb: 'it', mentionOnly: true },
  { slack: 'C0BOTH', kbs: ['hr', 'it'] },
  { slack: 'C0QUIET', kb: 'hr', reply: 'ephemeral', mentionOnly: true },
  { slack: 'dm', askers: 'slack:group:S0MANAGERS', kbs: ['hr', 'it'] },
];

let rig: SlackRig;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  rig = await startSlackRig({ env: { CANDOR_CHANNELS: JSON.stringify(CHANNELS) } });
  rig.slack.use((call) =>
    call.path === '/api/usergroups.users.list' && call.body.usergroup === 'S0MANAGERS'
      ? { body: { ok: true, users: ['U0MANAGER'] } }
      : undefined,
  );
  const db = rig.app.store.db;
  cleanups.push((await ingestFixture(db)).cleanup, await ingestFacts(db, 'hr', HR_FACTS), await ingestFacts(db, 'it', IT_FACTS));
}, 30_000);

afterAll(async () => {
  await rig?.close();
  for (const cleanup of cleanups) cleanup();
});

/** A channel message as Slack sends it to an app subscribed to message.channels (no mention). */
function channelMessage(channel: string, text: string, threadTs?: string) {
  return slackEvent({ type: 'message', channel, text, ...(threadTs ? { threadTs } : {}), extra: { channel_type: 'channel' } });
}

async function ask(ev: { body: string; eventId: string }) {
  expect((await sendSigned(rig.eventsUrl, ev.body)).status).toBe(200);
  return waitFor(async () => {
    const row = await rowWithKb(rig.app.store.db, ev.eventId);
    return row?.status === 'done' && row;
  });
}

function postIn(channel: string, threadTs: string) {
  return waitFor(
    () => rig.slack.callsTo('/api/chat.postMessage').find((c) => c.body.channel === channel && c.body.thread_ts === threadTs),
    5000,
    `a reply in ${channel}`,
  );
}

const blocksText = (body: Record<string, unknown>) => JSON.stringify(body.blocks);

describe('channels mapped to knowledge bases (CANDOR_CHANNELS)', () => {
  it('answers each channel from its own KB only, and names the KB on the reply', async () => {
    const leaveInHr = slackEvent({ channel: 'C0HR', text: `<@${BOT_USER}> What is the annual leave for staff?` });
    expect(await ask(leaveInHr)).toMatchObject({ decision: 'answer', kb: 'hr' });
    expect(blocksText((await postIn('C0HR', leaveInHr.ts)).body)).toContain('18 days of annual leave');

    // The same question where IT policies answer: refused, never answered from the HR handbook.
    const leaveInIt = slackEvent({ channel: 'C0IT', text: `<@${BOT_USER}> What is the annual leave for staff?` });
    expect(await ask(leaveInIt)).toMatchObject({ decision: 'abstain', kb: 'it' });
    expect(blocksText((await postIn('C0IT', leaveInIt.ts)).body)).not.toContain('18 days');

    const laptopInIt = slackEvent({ channel: 'C0IT', text: `<@${BOT_USER}> Who do I tell when my laptop is stolen?` });
    expect(await ask(laptopInIt)).toMatchObject({ decision: 'answer', kb: 'it' });
    expect(blocksText((await postIn('C0IT', laptopInIt.ts)).body)).toContain('IT service desk');
  });

  it('a direct message and an unmapped channel use the default KB', async () => {
    const dm = slackEvent({ type: 'message', text: 'What does MediShield Life cover?' });
    expect(await ask(dm)).toMatchObject({ decision: 'answer', kb: 'default' });
    const hrInDm = slackEvent({ type: 'message', text: 'What is the annual leave for staff?' });
    expect(await ask(hrInDm)).toMatchObject({ decision: 'abstain', kb: 'default' });
    const unmapped = slackEvent({ channel: 'C0RANDOM', text: `<@${BOT_USER}> What does MediShield Life cover?` });
    expect(await ask(unmapped)).toMatchObject({ decision: 'answer', kb: 'default' });
    // A member of the managers' group gets their own DM mapping: the HR handbook and IT policies.
    const manager = slackEvent({ type: 'message', channel: 'D0MANAGER', user: 'U0MANAGER', text: 'What is the annual leave for staff?' });
    expect(await ask(manager)).toMatchObject({ decision: 'answer', kb: 'hr' });
  });

  it('searches several KBs together and names the KB on each citation', async () => {
    const vpn = slackEvent({ channel: 'C0BOTH', text: `<@${BOT_USER}> Do I need the VPN on public Wi-Fi?` });
    expect(await ask(vpn)).toMatchObject({ decision: 'answer', kb: 'it' });
    const text = blocksText((await postIn('C0BOTH', vpn.ts)).body);
    expect(text).toContain('public Wi-Fi');
    expect(text).toContain('IT policies, Remote work (it)');
    const parental = slackEvent({ channel: 'C0BOTH', text: `<@${BOT_USER}> How long is paid parental leave?` });
    expect(await ask(parental)).toMatchObject({ decision: 'answer', kb: 'hr' });
    expect(blocksText((await postIn('C0BOTH', parental.ts)).body)).toContain('(hr)');
  });

  it('a mention-only channel ignores messages without a mention; other mapped channels answer them', async () => {
    const unmentioned = channelMessage('C0IT', 'Who do I tell when my laptop is stolen?');
    expect((await sendSigned(rig.eventsUrl, unmentioned.body)).status).toBe(200);
    // Answered in a mapped channel that takes every message (stored and answered after this one was received).
    const inHr = channelMessage('C0HR', 'How long is paid parental leave?');
    expect(await ask(inHr)).toMatchObject({ decision: 'answer', kb: 'hr' });
    await sleep(200);
    expect(await rowWithKb(rig.app.store.db, unmentioned.eventId)).toBeUndefined();
    expect(rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.thread_ts === unmentioned.ts)).toHaveLength(0);
    // A channel message that mentions the bot comes twice (message and app_mention): only the app_mention is a question.
    const both = channelMessage('C0HR', `<@${BOT_USER}> How long is paid parental leave?`);
    await sendSigned(rig.eventsUrl, both.body);
    await sleep(200);
    expect(await rowWithKb(rig.app.store.db, both.eventId)).toBeUndefined();
  });

  it("a follow-up in the thread borrows the earlier question's topic (no model) and says how it was understood", async () => {
    const first = slackEvent({ channel: 'C0HR', text: `<@${BOT_USER}> What is the annual leave for staff?` });
    await ask(first);
    const followUp = channelMessage('C0HR', 'and for managers?', first.ts);
    const row = await ask(followUp);
    expect(row).toMatchObject({ decision: 'answer', kb: 'hr', typedQuestion: 'and for managers?', understoodBy: 'borrowed' });
    expect(row.question).toMatch(/^and for managers \(.*annual leave.*\)\?$/);
    const reply = await postIn('C0HR', first.ts).then(() =>
      waitFor(() => rig.slack.callsTo('/api/chat.postMessage').find((c) => blocksText(c.body).includes('Understood as'))),
    );
    expect(blocksText(reply.body)).toContain('21 days of annual leave');

    // Without a mention, a reply in a thread the bot never answered is people talking: no row, no reply.
    const talk = channelMessage('C0HR', 'and what do you think?', '1700000000.000001');
    expect((await sendSigned(rig.eventsUrl, talk.body)).status).toBe(200);
    const later = channelMessage('C0HR', 'How long is paid parental leave?');
    await ask(later);
    await sleep(200);
    const talkRow = await rowWithKb(rig.app.store.db, talk.eventId);
    expect(talkRow).toBeUndefined();
  });

  it('an ephemeral channel replies only to the asker (chat.postEphemeral), and records the question', async () => {
    const ev = slackEvent({ channel: 'C0QUIET', user: 'U0QUIET', text: `<@${BOT_USER}> How long is paid parental leave?` });
    expect(await ask(ev)).toMatchObject({ decision: 'answer', kb: 'hr' });
    const ephemeral = await waitFor(() => rig.slack.callsTo('/api/chat.postEphemeral').find((c) => c.body.channel === 'C0QUIET'));
    expect(ephemeral.body.user).toBe('U0QUIET');
    expect(blocksText(ephemeral.body)).toContain('16 weeks');
    expect(rig.slack.callsTo('/api/chat.postMessage').filter((c) => c.body.channel === 'C0QUIET')).toHaveLength(0);
    // The inbox never holds the raw user id: it is sealed for the delivery.
    const stored = JSON.stringify(await rig.app.store.db.execute('select payload from inbox'));
    expect(stored).not.toContain('U0QUIET');
  });
});

describe('/candor in a mapped channel', () => {
  let trigger = 0;
  function command(text: string, channel = 'C0HR'): string {
    trigger += 1;
    return slashCommand({ text, channel, trigger: `9.9.${trigger}`, responseUrl: `${rig.slack.url}/commands/${TEAM}/${trigger}/abc` });
  }
  const send = async (text: string, channel?: string) => {
    const res = await sendSigned(rig.eventsUrl, command(text, channel), { contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(200);
    return (await res.json()) as { response_type: string; text: string };
  };

  it('/candor ask answers ephemerally through the response URL, by the same gate, and records it', async () => {
    const ack = await send('ask What is the annual leave for staff?');
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toContain('only you will see');
    const url = `/commands/${TEAM}/${trigger}/abc`;
    const answered = await waitFor(() => rig.slack.callsTo(url)[0], 5000, 'the response URL');
    expect(answered.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(blocksText(answered.body)).toContain('18 days of annual leave');
    const row = await waitFor(async () => {
      const r = await rowWithKb(rig.app.store.db, `command:9.9.${trigger}`);
      return r?.status === 'done' && r;
    });
    expect(row).toMatchObject({ decision: 'answer', kb: 'hr', question: 'What is the annual leave for staff?' });
    expect((await send('ask')).text).toContain('Ask a question after `ask`');
  });

  it('/candor status says which KB answers here; /candor here prints the channel id; help lists ask', async () => {
    expect((await send('status', 'C0BOTH')).text).toMatch(
      /Knowledge bases \*hr\* and \*it\* answer here[\s\S]*Knowledge base \*hr\*: version 1/,
    );
    expect((await send('status', 'C0ELSE')).text).toContain('the default, CANDOR_KB');
    const here = await send('here', 'C0HR');
    expect(here.text).toContain("This channel's id is `C0HR`");
    expect(here.text).toContain('CANDOR_REVIEW_SLACK_CHANNEL=C0HR');
    expect((await send('help')).text).toContain('`/candor ask QUESTION`');
  });
});
