import { describe, expect, it } from 'vitest';

import type { Decision } from '../../../src/ask/decision.js';
import { renderSlackReply, SLACK_LIMITS, splitText, type SlackBlock } from '../../../src/channels/slack/render-slack-reply.js';

function answer(text: string, sources: string[]): Decision {
  return {
    decision: 'answer',
    answer: text,
    reasons: [],
    evidence: sources.map((source, i) => ({ factId: `f${i}`, text: 'x', source, score: 0.9 })),
    nearbyTopics: [],
    refusal: null,
    kb: { name: 'default', version: 4 },
    traceId: '0'.repeat(32),
    latencyMs: 1,
    interactionId: null,
  };
}

const sectionTexts = (blocks: SlackBlock[]) => blocks.flatMap((b) => (b.type === 'section' ? [b.text.text] : []));

describe('renderSlackReply (pure: Slack limits and escaping)', () => {
  it('splits a long answer into sections of at most 3,000 characters at word boundaries, losing no words', () => {
    const words = Array.from({ length: 2500 }, (_, i) => `word${i}`);
    const [message, ...rest] = renderSlackReply({ kind: 'decision', decision: answer(words.join(' '), ['Booklet p. 1']) });
    expect(rest).toEqual([]);
    const sections = sectionTexts(message!.blocks);
    expect(sections.length).toBeGreaterThanOrEqual(Math.ceil(words.join(' ').length / SLACK_LIMITS.sectionText));
    for (const s of sections) expect(s.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(sections.join(' ').split(' ')).toEqual(words);
    expect(message!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
    expect(message!.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: '*Sources*' },
        { type: 'mrkdwn', text: '[1] Booklet p. 1' },
        { type: 'mrkdwn', text: 'Knowledge base default v4' },
      ],
    });
  });

  it('spreads more than 50 blocks over several messages, sources in the last', () => {
    const text = Array.from({ length: 60 }, (_, i) => `${String(i).padStart(2, '0')} ${'a'.repeat(2990)}`).join('\n');
    const messages = renderSlackReply({ kind: 'decision', decision: answer(text, ['S']) });
    expect(messages).toHaveLength(2);
    expect(messages[0]!.blocks).toHaveLength(50);
    expect(messages[1]!.blocks).toHaveLength(11);
    expect(messages[0]!.blocks.every((b) => b.type === 'section')).toBe(true);
    expect(messages[1]!.blocks.at(-1)!.type).toBe('context');
    expect(sectionTexts(messages.flatMap((m) => m.blocks)).map((s) => s.slice(0, 2))).toEqual(
      Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0')),
    );
  });

  it('keeps a context block within 10 elements', () => {
    const sources = Array.from({ length: 14 }, (_, i) => `Source ${i + 1}`);
    const [message] = renderSlackReply({ kind: 'decision', decision: answer('An answer.', sources) });
    const context = message!.blocks.at(-1) as Extract<SlackBlock, { type: 'context' }>;
    expect(context.elements).toHaveLength(10);
    expect(context.elements[9]!.text).toBe(
      '[9] Source 9 · [10] Source 10 · [11] Source 11 · [12] Source 12 · [13] Source 13 · [14] Source 14 · Knowledge base default v4',
    );
  });

  it('escapes knowledge-base text so it cannot mention or link anyone', () => {
    const [message] = renderSlackReply({
      kind: 'decision',
      decision: answer('Ask <!channel> & <@U123> at <https://evil.example|here>', ['<b>x</b>']),
    });
    expect(sectionTexts(message!.blocks)[0]).toBe('Ask &lt;!channel&gt; &amp; &lt;@U123&gt; at &lt;https://evil.example|here&gt;');
    expect(message!.text).not.toMatch(/<[!@h]/);
  });

  it('renders a refusal with its reason, and nearby topics the refusal does not already name', () => {
    const refusal: Decision = {
      ...answer('', []),
      decision: 'abstain',
      answer: null,
      evidence: [],
      refusal: "I couldn't find anything about this in the knowledge base.",
      nearbyTopics: ['Ward classes', 'Deductibles'],
    };
    const [message] = renderSlackReply({ kind: 'decision', decision: refusal });
    expect(message!.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: "*I don't know.* I couldn't find anything about this in the knowledge base." } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'The knowledge base does cover: “Ward classes”; “Deductibles”' }] },
    ]);
  });

  it('never cuts an escaped entity in two', () => {
    const text = `${'x'.repeat(2997)}&amp;yyyy`;
    const [first, second] = splitText(text, 3000);
    expect(first).toBe('x'.repeat(2997));
    expect(second).toBe('&amp;yyyy');
  });
});
