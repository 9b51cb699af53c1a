import { describe, expect, it } from 'vitest';

import type { Decision } from '../../../src/ask/decision.js';
import { renderSlackReply, SLACK_LIMITS, splitText, type SlackBlock } from '../../../src/channels/slack/render-slack-reply.js';
import { readReplyActions, withReplyActions } from '../../../src/channels/slack/reply-actions.js';
import { answerDecision, BOOKLET_EVIDENCE, CAVEAT, evidence } from '../chat/decision-fixture.js';

function answer(text: string, sources: string[]): Decision {
  return answerDecision(
    text,
    sources.map((source) => evidence(source)),
  );
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

  it('merges surplus context elements whole, counting the ones that do not fit instead of cutting a link', () => {
    const long = Array.from({ length: 14 }, (_, i) =>
      evidence(`s${i}`, {
        title: `Document ${i} ${'t'.repeat(140)}`,
        section: 's'.repeat(140),
        url: `https://example.org/${i}/${'p'.repeat(500)}`,
      }),
    );
    const [message] = renderSlackReply({ kind: 'decision', decision: answerDecision('An answer.', long) });
    const last = (message!.blocks.at(-1) as Extract<SlackBlock, { type: 'context' }>).elements.at(-1)!.text;
    expect(last.length).toBeLessThanOrEqual(SLACK_LIMITS.contextElementText);
    expect(last).toMatch(/^\[9\] <https:\/\/example\.org\/8\/p+\|Document 8 t+… › s+> · .* · … and \d+ more$/);
    expect(last.match(/</g)?.length).toBe(last.match(/>/g)?.length);
  });

  it('shows the caveat before the answer, and each source once as a link labelled with its title and section', () => {
    const messages = renderSlackReply({
      kind: 'decision',
      decision: answerDecision('The premium is $X.\nAlso: it is paid yearly.', BOOKLET_EVIDENCE, { caveat: CAVEAT }),
    });
    expect(messages).toHaveLength(1);
    const { blocks, text } = messages[0]!;
    expect(blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: `:warning: ${CAVEAT}` } },
      { type: 'section', text: { type: 'mrkdwn', text: 'The premium is $X.\nAlso: it is paid yearly.' } },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: '*Sources*' },
          {
            type: 'mrkdwn',
            text: '[1] <https://www.cpf.gov.sg/medishield-life?page=7&amp;lang=en|MediShield Life &amp; You &lt;2025&gt; › 3. Coverage &gt; 3.2 How much is the premium?>',
          },
          { type: 'mrkdwn', text: '[2] Premium table | 2025' },
          { type: 'mrkdwn', text: 'Knowledge base default v4' },
        ],
      },
    ]);
    const all = JSON.stringify(blocks);
    expect(all.split('<https://www.cpf.gov.sg/medishield-life').length - 1).toBe(1);
    expect(text.indexOf(CAVEAT)).toBeLessThan(text.indexOf('The premium is'));
  });

  it('renumbers a model answer’s markers to the merged sources', () => {
    const [message] = renderSlackReply({
      kind: 'decision',
      decision: answerDecision('It is $X [2], see [3].', BOOKLET_EVIDENCE, { generation: { model: 'm', prompt: 'answer@1' } }),
    });
    expect(message!.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: 'It is $X [1], see [2].' } });
  });

  it('never links a javascript: URL, and keeps `|` out of a link label', () => {
    const [message] = renderSlackReply({
      kind: 'decision',
      decision: answerDecision('An answer.', [
        evidence('a', { title: 'Evil', section: 'Click', url: 'javascript:alert(document.cookie)' }),
        evidence('b', { title: 'A | B', section: 'x|y', url: 'https://example.org/a|b?q=<1>&r=2' }),
      ]),
    });
    const texts = (message!.blocks.at(-1) as Extract<SlackBlock, { type: 'context' }>).elements.map((e) => e.text);
    expect(texts[1]).toBe('[1] Evil › Click');
    expect(texts[2]).toBe('[2] <https://example.org/a%7Cb?q=%3C1%3E&amp;r=2|A ∣ B › x∣y>');
    expect(JSON.stringify(message)).not.toContain('javascript:');
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
    const common = answer('', []) as Extract<Decision, { decision: 'answer' }>;
    const refusal: Decision = {
      ...common,
      decision: 'abstain',
      answer: null,
      evidence: [],
      refusal: "I couldn't find anything about this in the knowledge base.",
      nearbyTopics: ['Ward classes', 'Deductibles'],
      confidence: 'low',
      caveat: null,
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

describe('renderSlackReply: the buttons under a reply', () => {
  const common = answer('', []) as Extract<Decision, { decision: 'answer' }>;
  const refusal: Decision = {
    ...common,
    decision: 'abstain',
    answer: null,
    evidence: [],
    refusal: 'Not in the knowledge base.',
    nearbyTopics: [],
    confidence: 'low',
    caveat: null,
  };
  const ids = (blocks: readonly SlackBlock[]) => blocks.flatMap((b) => (b.type === 'actions' ? b.elements.map((e) => e.action_id) : []));
  const buttons = (askExpert: boolean) => ({ action: '7.AAAAAAAAAAAAAAAAAAAAAA', askExpert });

  it('gives an answer 👍/👎 (whatever the experts), a refusal "Ask an expert" only when the KB has experts, a problem nothing', () => {
    const [answered] = renderSlackReply({ kind: 'decision', decision: answer('An answer.', ['S']) }, buttons(true));
    expect(ids(answered!.blocks)).toEqual(['candor_helpful', 'candor_not_helpful']);
    expect(answered!.blocks.at(-1)).toMatchObject({ type: 'actions', block_id: 'candor_reply:answer:1:-:0' });
    expect(answered!.text).not.toContain('Helpful');
    expect(ids(renderSlackReply({ kind: 'decision', decision: refusal }, buttons(true))[0]!.blocks)).toEqual(['candor_ask_expert']);
    expect(ids(renderSlackReply({ kind: 'decision', decision: refusal }, buttons(false))[0]!.blocks)).toEqual([]);
    expect(ids(renderSlackReply({ kind: 'problem', message: 'Too long.' }, buttons(true))[0]!.blocks)).toEqual([]);
    expect(ids(renderSlackReply({ kind: 'decision', decision: answer('An answer.', ['S']) })[0]!.blocks)).toEqual([]);
  });

  it('keeps a message within 50 blocks with room for the note a press adds: a full last message puts the buttons in one more', () => {
    const text = Array.from({ length: 49 }, (_, i) => `${i} ${'a'.repeat(2990)}`).join('\n');
    const messages = renderSlackReply({ kind: 'decision', decision: answer(text, ['S']) }, buttons(false));
    expect(messages.map((m) => m.blocks.length)).toEqual([50, 1]);
    expect(messages[1]).toMatchObject({ text: 'Was this answer helpful?', blocks: [{ type: 'actions' }] });
    const fits = renderSlackReply({ kind: 'decision', decision: answer('a'.repeat(2990 * 10), ['S']) }, buttons(false));
    expect(fits).toHaveLength(1);
    expect(fits[0]!.blocks.at(-1)!.type).toBe('actions');
  });

  it('re-renders the buttons from the message alone: the choice marked, a note under them, "Ask an expert" after a 👎', () => {
    const [message] = renderSlackReply({ kind: 'decision', decision: answer('An answer.', ['S']) }, buttons(true));
    const state = readReplyActions(message!.blocks)!;
    expect(state).toEqual({ kind: 'answer', experts: true, chosen: null, asked: false });
    const once = withReplyActions(message!.blocks, '7.AAAAAAAAAAAAAAAAAAAAAA', { ...state, chosen: 'not_helpful' }, 'Noted.');
    const twice = withReplyActions(once, '7.AAAAAAAAAAAAAAAAAAAAAA', { ...readReplyActions(once)!, asked: true }, 'Asked.');
    expect(twice).toHaveLength(message!.blocks.length + 1);
    expect(twice.slice(0, -2)).toEqual(message!.blocks.slice(0, -1));
    expect(ids(twice as SlackBlock[])).toEqual(['candor_helpful', 'candor_not_helpful', 'candor_ask_expert']);
    expect(JSON.stringify(twice)).toContain('Asked an expert ✓');
    expect(JSON.stringify(twice)).not.toContain('Noted.');
    expect(readReplyActions(twice)).toEqual({ kind: 'answer', experts: true, chosen: 'not_helpful', asked: true });
    expect(readReplyActions([{ type: 'actions', block_id: 'candor_reply:answer:1:maybe:0' }])).toBeNull();
  });
});
