import { describe, expect, it } from 'vitest';

import { isReviewer, parseLabel, REVIEW_TASKS, tasksFor } from '../../../src/core/review/review-tasks.js';

describe('review tasks', () => {
  it('writes out criteria for every outcome of every task', () => {
    for (const task of REVIEW_TASKS) {
      for (const outcome of task.outcomes) expect(task.criteria).toContain(task.ordinal ? `${outcome} —` : `\`${outcome}\``);
      expect(new Set(Object.values(task.emoji))).toEqual(new Set(task.outcomes));
    }
  });
  it('factuality applies to answers only', () => {
    expect(tasksFor('abstain').map((t) => t.id)).toEqual(['abstention', 'dontknowness']);
    expect(tasksFor('answer').map((t) => t.id)).toEqual(['abstention', 'factuality', 'dontknowness']);
  });
  it('reads outcomes and emoji, with or without colons and skin tones', () => {
    expect(parseLabel('correct', 'abstention')).toEqual({ ok: true, task: 'abstention', value: 'correct' });
    expect(parseLabel(':white_check_mark:')).toEqual({ ok: true, task: 'abstention', value: 'correct' });
    expect(parseLabel('four')).toEqual({ ok: true, task: 'dontknowness', value: '4' });
    expect(parseLabel('4', 'dontknowness')).toEqual({ ok: true, task: 'dontknowness', value: '4' });
    expect(parseLabel('grey_question')).toEqual({ ok: true, task: 'factuality', value: 'unsure' });
  });
  it('says what is allowed for anything else', () => {
    const bad = parseLabel('thumbsup');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toContain('abstention: correct / incorrect');
    expect(parseLabel('correct', 'vibes')).toMatchObject({ ok: false, message: expect.stringContaining('Unknown task "vibes"') });
  });
});

describe('isReviewer', () => {
  it('counts a chat user listed with its platform or bare, and a terminal name only as its exact cli: entry', () => {
    const reviewers = ['slack:UALICE', 'UBOB', 'cli:carol'];
    expect(isReviewer(reviewers, 'slack', 'UALICE')).toBe(true);
    expect(isReviewer(reviewers, 'slack', 'UBOB')).toBe(true);
    expect(isReviewer(reviewers, 'cli', 'carol')).toBe(true);
    // A chat id typed after --as is a name, not that user.
    expect(isReviewer(reviewers, 'cli', 'slack:UALICE')).toBe(false);
    expect(isReviewer(reviewers, 'cli', 'UBOB')).toBe(false);
    expect(isReviewer(reviewers, 'teams', 'UALICE')).toBe(false);
  });
  it('counts a console user (a basic-auth name) only as its exact console: entry', () => {
    const reviewers = ['console:dana', 'UBOB', 'cli:carol'];
    expect(isReviewer(reviewers, 'console', 'dana')).toBe(true);
    expect(isReviewer(reviewers, 'console', 'UBOB')).toBe(false);
    expect(isReviewer(reviewers, 'console', 'carol')).toBe(false);
  });
  it('counts nobody when no reviewers are configured', () => {
    for (const platform of ['slack', 'teams', 'cli']) expect(isReviewer([], platform, 'anyone')).toBe(false);
  });
});
