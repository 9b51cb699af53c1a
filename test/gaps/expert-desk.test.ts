import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { cliExpert, createExpertDesk } from '../../src/gaps/expert-desk.js';
import type { ExpertCard, ExpertDesk, ExpertSurface } from '../../src/gaps/expert-types.js';
import { kbGapReport } from '../../src/gaps/kb-gaps.js';
import { retireFact, reviseExpertFact } from '../../src/kb/expert-facts.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import { facts, gapRequests } from '../../src/store/schema.js';
import { composeAsk, HANDBOOK_FACTS, jsonl, tempFiles, testConfig } from '../support/compose.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

const EXPERTS = JSON.stringify([
  { kb: 'handbook', slack: 'C0EXPERTS', people: ['slack:UEXPERT', 'slack:group:S0HR', 'cli:dana'], reconfirmDays: 30 },
]);

/** A channel's transport, recording what the desk asked of it (the channels' own tests drive the real ones over HTTP). */
function recordingSurface() {
  const posts: ExpertCard[] = [];
  const updates: { ref: string; card: ExpertCard }[] = [];
  const told: { target: Record<string, unknown>; text: string }[] = [];
  const surface: ExpertSurface = {
    platform: 'slack',
    async post(entry, card) {
      if (!entry.slack) return null;
      posts.push(card);
      return `slack:${entry.slack}|${posts.length}.0001`;
    },
    async update(ref, card) {
      updates.push({ ref, card });
    },
    async tell(target, text) {
      told.push({ target: { ...target }, text });
    },
    isGroupMember: async (people, user) => people.includes('slack:group:S0HR') && user === 'UHRMEMBER',
  };
  return { surface, posts, updates, told };
}

describe.each(DRIVERS)('the experts desk (%s)', (driver) => {
  const ctx = useTestStore(driver);
  const files = tempFiles({ 'handbook.jsonl': jsonl(HANDBOOK_FACTS) });
  const config = testConfig({ CANDOR_KB: 'handbook', CANDOR_EXPERTS: EXPERTS });
  let ask: ReturnType<typeof composeAsk>['ask'];
  let indexes: KnowledgeIndexCache;
  let desk: ExpertDesk;
  let rec: ReturnType<typeof recordingSurface>;
  const refusal = async (question: string, user: string) => {
    const d = await ask({ question, kb: 'handbook', channel: 'slack', eventId: `${user}-${question}`, userId: user } as never);
    expect(d.decision, question).toBe('abstain');
    return d.interactionId as number;
  };
  const newDesk = () =>
    createExpertDesk({ db: ctx.store.db, indexes, experts: config.experts.kbs, secret: 'test-secret', log: () => undefined });

  beforeAll(async () => {
    await ingestPaths(ctx.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    ({ ask, indexes } = composeAsk(ctx.store, config));
    desk = newDesk();
    rec = recordingSurface();
    desk.attach(rec.surface);
  }, 60_000);

  it('posts a question once however many askers press, and counts them', async () => {
    const first = await refusal('Is there a gym in the office building?', 'U1');
    const second = await refusal('Is there a gym in the office building?', 'U2');
    const target = (user: string) => ({ platform: 'slack', channel: 'C0ASK', threadTs: `${user}.1` });
    expect(await desk.askExpert({ interactionId: first, asker: 'slack:a1', target: target('U1'), via: 'button' })).toMatchObject({
      kind: 'asked',
      requests: 1,
    });
    expect(await desk.askExpert({ interactionId: second, asker: 'slack:a2', target: target('U2'), via: 'button' })).toMatchObject({
      kind: 'asked',
      requests: 2,
    });
    // The same reply pressed again: nothing new.
    expect((await desk.askExpert({ interactionId: first, asker: 'slack:a1', target: target('U1'), via: 'button' })).kind).toBe(
      'already_asked',
    );
    expect(rec.posts).toHaveLength(1);
    expect(rec.posts[0]).toMatchObject({ kb: 'handbook', question: 'Is there a gym in the office building?', state: 'asked' });
    expect(rec.posts[0]!.reply).toMatch(/gym/i);
    expect(rec.updates.at(-1)?.card.requests).toBe(2);
  });

  it('lets only experts answer; an answer becomes a cited fact, and each asker is told once', async () => {
    const gapId = rec.posts[0]!.gapId;
    expect(desk.readGapAction(rec.posts[0]!.action)).toBe(gapId);
    expect(desk.readGapAction(`${gapId + 1}.${rec.posts[0]!.action.split('.')[1]}`)).toBeNull();
    const stranger = await desk.answer({ gapId, expert: { platform: 'slack', user: 'USTRANGER' }, text: 'Yes, on level 2.' });
    expect(stranger.kind).toBe('not_an_expert');
    expect(await ctx.store.db.select().from(facts).where(eq(facts.source, 'expert:slack:USTRANGER'))).toHaveLength(0);
    await expect(desk.answer({ gapId, expert: { platform: 'slack', user: 'UEXPERT' }, text: '   ' })).rejects.toThrow(/empty/);

    const answered = await desk.answer({
      gapId,
      expert: { platform: 'slack', user: 'UHRMEMBER', name: 'Dana Lee' },
      text: 'The staff gym is on level 2 of the office building and opens from 7 am to 9 pm on weekdays.',
    });
    expect(answered).toMatchObject({ kind: 'answered', gapId });
    expect(rec.told.map((t) => t.target.threadTs).sort()).toEqual(['U1.1', 'U2.1']);
    expect(rec.told[0]!.text).toMatch(
      /^An expert answered your question “Is there a gym in the office building\?”: The staff gym is on level 2/,
    );
    expect(await desk.deliver()).toEqual({ posted: 0, told: 0 });
    expect(rec.updates.at(-1)?.card).toMatchObject({ state: 'answered', closedBy: 'Dana Lee' });
    const again = await desk.answer({ gapId, expert: { platform: 'slack', user: 'UEXPERT' }, text: 'Something else.' });
    expect(again).toMatchObject({ kind: 'already_closed', state: 'answered', by: 'Dana Lee' });

    const reworded = await ask({ question: 'Where is the staff gym and when does it open?', kb: 'handbook', channel: 'http' });
    expect(reworded.decision).toBe('answer');
    expect(reworded.evidence[0]).toMatchObject({ source: 'expert:slack:UHRMEMBER' });
    expect(reworded.evidence[0]!.title).toMatch(/^Answered by an expert on \d{4}-\d{2}-\d{2}$/);
  });

  it('"Not for the KB" closes a gap; later askers hear it at once; the report shows every state', async () => {
    const pet = await refusal('Can I bring my dog to the office?', 'U3');
    const asked = await desk.askExpert({
      interactionId: pet,
      asker: 'slack:a3',
      target: { platform: 'slack', channel: 'C', threadTs: '3' },
      via: 'button',
    });
    expect(asked.kind).toBe('asked');
    const gapId = (asked as { gapId: number }).gapId;
    expect(await desk.dismiss({ gapId, expert: cliExpert('dana') })).toEqual({ kind: 'dismissed', gapId });
    expect(rec.told.at(-1)?.text).toMatch(/outside what this knowledge base covers/);
    const later = await refusal('Can I bring my dog to the office?', 'U4');
    expect(await desk.askExpert({ interactionId: later, asker: 'slack:a4', target: null, via: 'button' })).toEqual({
      kind: 'out_of_scope',
      gapId,
    });
    await refusal('Is there a shuttle bus from the train station?', 'U5');

    const report = await kbGapReport(ctx.store.db, indexes, { kb: 'handbook', days: 30 });
    const byState = Object.fromEntries(report.groups.map((g) => [g.question, g.state]));
    expect(byState).toEqual({
      'Is there a gym in the office building?': 'answered',
      'Can I bring my dog to the office?': 'out_of_scope',
      'Is there a shuttle bus from the train station?': 'open',
    });
    expect(report.states).toEqual({ open: 1, asked: 0, answered: 1, out_of_scope: 1 });
    const gym = report.groups.find((g) => g.state === 'answered')!;
    expect(gym).toMatchObject({ askers: 2, requests: 2, answer: { by: 'Dana Lee' } });
    expect(gym.factId).toBeGreaterThan(0);
  });

  it('keeps every step in the store: a new desk (a restart) tells askers an answer given where no channel was attached', async () => {
    const id = await refusal('Does the office have a nursing room?', 'U6');
    const cli = newDesk(); // the CLI: no channel attached
    const asked = await desk.askExpert({
      interactionId: id,
      asker: 'slack:a6',
      target: { platform: 'slack', channel: 'C', threadTs: '6' },
      via: 'button',
    });
    const gapId = (asked as { gapId: number }).gapId;
    const told = rec.told.length;
    expect((await cli.answer({ gapId, expert: cliExpert('dana'), text: 'A nursing room is on level 3, beside the pantry.' })).kind).toBe(
      'answered',
    );
    expect(rec.told).toHaveLength(told);
    const [pending] = await ctx.store.db.select().from(gapRequests).where(eq(gapRequests.interactionId, id));
    expect(pending!.notifiedAt).toBeNull();
    const restarted = newDesk();
    const after = recordingSurface();
    restarted.attach(after.surface);
    expect(await restarted.deliver()).toEqual({ posted: 0, told: 1 });
    expect(after.told[0]!.text).toMatch(/nursing room is on level 3/);
    expect(await restarted.deliver()).toEqual({ posted: 0, told: 0 });
  });

  it('an edited expert fact keeps answering its gap; a retired one opens the gap again', async () => {
    const id = await refusal('Is there a bicycle shed for staff?', 'U7');
    const asked = await desk.askExpert({ interactionId: id, asker: 'slack:a7', target: null, via: 'button' });
    const gapId = (asked as { gapId: number }).gapId;
    const answered = await desk.answer({ gapId, expert: cliExpert('dana'), text: 'Bicycles can be parked in the shed by the north gate.' });
    const first = (answered as { factId: number }).factId;
    const revised = await reviseExpertFact(ctx.store.db, first, {
      text: 'Bicycles go in the locked shed by the north gate.',
      expert: 'cli:dana',
      name: 'dana',
    });
    const gapOf = async () => (await kbGapReport(ctx.store.db, indexes, { kb: 'handbook', days: 30 })).groups.find((g) => g.id === gapId)!;
    expect(await gapOf()).toMatchObject({
      state: 'answered',
      factId: revised.factId,
      closedBy: 'dana',
      answer: { text: 'Bicycles go in the locked shed by the north gate.' },
    });
    await retireFact(ctx.store.db, revised.factId, 'cli:dana');
    expect(await gapOf()).toMatchObject({ state: 'open', factId: null, answer: null });
  });

  it('a re-ingest keeps expert facts; they stop being used once due for re-confirmation', async () => {
    files.write(
      'handbook.jsonl',
      jsonl([...HANDBOOK_FACTS, { id: 'HB-9', text: 'The library opens at 9 am.', source: 'handbook#library' }]),
    );
    await ingestPaths(ctx.store.db, [files.path('handbook.jsonl')], { kb: 'handbook' });
    const gym = 'Where is the staff gym and when does it open?';
    expect((await ask({ question: gym, kb: 'handbook', channel: 'http' })).decision).toBe('answer');
    const later = new KnowledgeIndexCache(ctx.store.db, { expertDays: () => 30, now: () => Date.now() + 31 * 86_400_000 });
    const index = await later.get('handbook');
    expect(index.allFacts().some((f) => f.source.startsWith('expert:'))).toBe(false);
    const today = new KnowledgeIndexCache(ctx.store.db, { expertDays: () => 30 });
    // The gym and nursing-room answers; the bicycle answer was retired.
    expect((await today.get('handbook')).allFacts().filter((f) => f.source.startsWith('expert:'))).toHaveLength(2);
  });
});
