import { eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { REVIEW_TASKS } from '../../src/core/review/review-tasks.js';
import type { LogLevel } from '../../src/kernel/log.js';
import { currentLabels, labelHistory, type CurrentLabel } from '../../src/review/label-store.js';
import { createReviewDesk, NOT_A_REVIEWER, type CardLabel, type CardReplies, type ReviewSurface } from '../../src/review/review-desk.js';
import type { ReviewItem } from '../../src/review/review-items.js';
import type { Db } from '../../src/store/open-store.js';
import { interactions, reviewSamples } from '../../src/store/schema.js';
import { DRIVERS, useTestStore } from '../support/stores.js';

// Posting cards and applying labels, written once for every chat channel: the channel supplies only transport.
async function newSample(db: Db, decision: 'answer' | 'abstain', postRef: string | null = null): Promise<number> {
  const [row] = await db
    .insert(interactions)
    .values({
      channel: 'slack',
      question: `Q ${Math.random()}`,
      decision,
      reason: decision === 'abstain' ? 'low_margin' : null,
      answer: 'A reply.',
      status: 'done',
    })
    .returning({ id: interactions.id });
  const [sample] = await db
    .insert(reviewSamples)
    .values({ interactionId: row!.id, stratum: `${decision}|slack`, ...(postRef ? { postedTo: 'slack', postRef } : {}) })
    .returning({ id: reviewSamples.id });
  return sample!.id;
}

/** A channel's transport, recording what it was asked to do. */
function surface(platform: 'slack' | 'teams', options: { failOn?: number; groupMembers?: string[] } = {}) {
  const posted: { sampleId: number; tasks: string[] }[] = [];
  const s: ReviewSurface = {
    platform,
    async post(item, tasks) {
      if (item.sampleId === options.failOn) throw Object.assign(new Error('An API call failed'), { data: { error: 'channel_not_found' } });
      posted.push({ sampleId: item.sampleId, tasks: tasks.map((t) => t.id) });
      return `${platform}:C1|${item.sampleId}.0001`;
    },
    isGroupReviewer: async (user) => options.groupMembers?.includes(user) ?? false,
    describeError: (error) => (error as { data?: { error?: string } }).data?.error ?? (error as Error).message,
  };
  return { s, posted };
}

function replies(options: { failUpdate?: boolean; tell?: boolean } = {}) {
  const updates: { item: ReviewItem; labels: readonly CurrentLabel[] }[] = [];
  const told: string[] = [];
  const r: CardReplies = {
    async update(item, _tasks, labels) {
      if (options.failUpdate) throw new Error('message_not_found');
      updates.push({ item, labels });
    },
    tell: options.tell === false ? undefined : async (text) => void told.push(text),
  };
  return { r, updates, told };
}

for (const driver of DRIVERS) {
  describe(`review desk (${driver})`, () => {
    const handle = useTestStore(driver);
    const db = () => handle.store.db;
    const logs: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];
    const desk = () =>
      createReviewDesk(db(), {
        reviewers: ['slack:UREV', 'AADREV'],
        tasks: REVIEW_TASKS,
        log: (level, message, fields = {}) => void logs.push({ level, message, fields }),
      });
    const posting = (id: number) =>
      db().select({ postedTo: reviewSamples.postedTo, postRef: reviewSamples.postRef }).from(reviewSamples).where(eq(reviewSamples.id, id));

    it('posts every unposted sample once with the tasks that apply, saving its ref; a second run posts nothing', async () => {
      const answered = await newSample(db(), 'answer');
      const refused = await newSample(db(), 'abstain');
      const { s, posted } = surface('slack');
      expect(await desk().open(s).postPending()).toBe(2);
      expect(posted).toEqual([
        { sampleId: answered, tasks: ['abstention', 'factuality', 'dontknowness'] },
        { sampleId: refused, tasks: ['abstention', 'dontknowness'] },
      ]);
      expect(await posting(refused)).toEqual([{ postedTo: 'slack', postRef: `slack:C1|${refused}.0001` }]);
      expect(await desk().open(surface('teams').s).postPending()).toBe(0);
    });

    it('a failed post gives the claim back and stops the run; the next run posts it', async () => {
      const failing = await newSample(db(), 'abstain');
      const later = await newSample(db(), 'abstain');
      const { s, posted } = surface('teams', { failOn: failing });
      expect(await desk().open(s).postPending()).toBe(0);
      expect(posted).toEqual([]);
      expect(await posting(failing)).toEqual([{ postedTo: null, postRef: null }]);
      expect(await posting(later)).toEqual([{ postedTo: null, postRef: null }]); // not reached: the channel is down
      expect(logs.at(-1)).toMatchObject({
        level: 'error',
        message: 'teams: could not post a review card',
        fields: { error: 'channel_not_found' },
      });
      expect(await desk().open(surface('teams').s).postPending()).toBe(2);
      expect(await db().select().from(reviewSamples).where(isNull(reviewSamples.postRef))).toEqual([]);
    });

    const label = (postRef: string, over: Partial<CardLabel> = {}): CardLabel => ({
      postRef,
      user: 'UREV',
      task: 'abstention',
      value: 'correct',
      action: 'set',
      via: 'reaction',
      ...over,
    });

    it("records a reviewer's label and updates the card with it; the same label again changes nothing", async () => {
      const id = await newSample(db(), 'abstain', 'slack:C1|100.1');
      const channel = desk().open(surface('slack').s);
      const { r, updates } = replies();
      expect(await channel.label(label('slack:C1|100.1', { eventId: `${driver}:e1` }), r)).toBe('recorded');
      expect(updates.map((u) => u.labels)).toEqual([[{ sampleId: id, task: 'abstention', annotator: 'slack:UREV', value: 'correct' }]]);
      expect(await channel.label(label('slack:C1|100.1', { via: 'button' }), r)).toBe('unchanged');
      expect(updates).toHaveLength(1);
      expect(await channel.label(label('slack:C1|100.1', { action: 'remove' }), r)).toBe('removed');
      expect(updates.at(-1)?.labels).toEqual([]);
    });

    it('ignores what is not a label of that card: another message, another sample, a task or value the card does not have', async () => {
      const id = await newSample(db(), 'abstain', 'slack:C1|200.1');
      const channel = desk().open(surface('slack').s);
      const { r, updates, told } = replies();
      expect(await channel.label(label('slack:C1|999.9'), r)).toBe('not_a_card');
      expect(await channel.label(label('slack:C1|200.1', { sampleId: id + 1 }), r)).toBe('not_a_card');
      expect(await channel.label(label('slack:C1|200.1', { task: 'factuality', value: 'factual' }), r)).toBe('not_a_label'); // a refusal has no factuality
      expect(await channel.label(label('slack:C1|200.1', { value: 'maybe' }), r)).toBe('not_a_label');
      expect(await channel.label(label('slack:C1|200.1', { user: 'USTRANGER', value: 'maybe' }), r)).toBe('not_a_label');
      expect(await labelHistory(db(), id)).toEqual([]);
      expect([updates, told]).toEqual([[], []]);
    });

    it('tells a non-reviewer why nothing was recorded (one text, with the hint), or stays quiet where the channel gives no way to', async () => {
      const id = await newSample(db(), 'abstain', 'teams:19:review|300.1');
      const channel = desk().open(surface('teams').s);
      const { r, told } = replies();
      expect(await channel.label(label('teams:19:review|300.1', { user: 'aad-stranger', via: 'button' }), r)).toBe('not_a_reviewer');
      expect(told).toEqual([NOT_A_REVIEWER]);
      expect(NOT_A_REVIEWER).toContain('Ask whoever runs Candor to add you to CANDOR_REVIEWERS.');
      expect(await channel.label(label('teams:19:review|300.1', { user: 'aad-stranger' }), replies({ tell: false }).r)).toBe(
        'not_a_reviewer',
      );
      expect(await labelHistory(db(), id)).toEqual([]);
      // A bare id in CANDOR_REVIEWERS counts on any platform.
      expect(await channel.label(label('teams:19:review|300.1', { user: 'AADREV' }), r)).toBe('recorded');
      expect((await currentLabels(db(), { sampleIds: [id] })).map((l) => l.annotator)).toEqual(['teams:AADREV']);
    });

    it("counts a member of the channel's reviewer group, and keeps a label when the card cannot be updated", async () => {
      const id = await newSample(db(), 'answer', 'slack:C1|400.1');
      const channel = desk().open(surface('slack', { groupMembers: ['UINGROUP'] }).s);
      expect(
        await channel.label(
          label('slack:C1|400.1', { user: 'UINGROUP', task: 'factuality', value: 'unsure' }),
          replies({ failUpdate: true }).r,
        ),
      ).toBe('recorded');
      expect(await currentLabels(db(), { sampleIds: [id] })).toEqual([
        { sampleId: id, task: 'factuality', annotator: 'slack:UINGROUP', value: 'unsure' },
      ]);
      expect(logs.at(-1)).toMatchObject({ level: 'warn', message: 'slack: could not update a review card' });
    });
  });
}
