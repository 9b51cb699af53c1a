import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';

import { renderTeamsCard, TEAMS_MAX_SOURCES_TEXT } from '../../../src/channels/teams/render-teams-card.js';
import { answerDecision, BOOKLET_EVIDENCE, CAVEAT, evidence } from '../chat/decision-fixture.js';

// Adaptive Cards render a TextBlock's Markdown with markdown-it on the web: the link must survive it.
const markdown = new MarkdownIt({ linkify: false });

describe('renderTeamsCard (pure: the Adaptive Card JSON)', () => {
  it('puts the caveat in the attention colour before the answer, and each source once as a Markdown link', () => {
    const card = renderTeamsCard({
      kind: 'decision',
      decision: answerDecision('The premium is $X.\nAlso: it is paid yearly.', BOOKLET_EVIDENCE, { caveat: CAVEAT }),
    });
    expect(card.version).toBe('1.4');
    expect(card.body).toEqual([
      { type: 'TextBlock', text: `⚠️ ${CAVEAT}`, wrap: true, color: 'Attention' },
      { type: 'TextBlock', text: 'The premium is $X.\n\nAlso: it is paid yearly.', wrap: true },
      { type: 'TextBlock', text: 'Sources', wrap: true, weight: 'Bolder', size: 'Small', separator: true, spacing: 'Medium' },
      {
        type: 'TextBlock',
        text: '1. [MediShield Life & You <2025> › 3. Coverage > 3.2 How much is the premium?](https://www.cpf.gov.sg/medishield-life?page=7&lang=en)',
        wrap: true,
        size: 'Small',
        isSubtle: true,
        spacing: 'None',
      },
      { type: 'TextBlock', text: '2. Premium table | 2025', wrap: true, size: 'Small', isSubtle: true, spacing: 'None' },
      { type: 'TextBlock', text: 'Knowledge base default v4', wrap: true, size: 'Small', isSubtle: true },
    ]);
    expect(markdown.render(card.body[3]!.text as string)).toBe(
      '<ol>\n<li><a href="https://www.cpf.gov.sg/medishield-life?page=7&amp;lang=en">MediShield Life &amp; You &lt;2025&gt; › 3. Coverage &gt; 3.2 How much is the premium?</a></li>\n</ol>\n',
    );
  });

  it('has no caveat block for a confident answer', () => {
    const card = renderTeamsCard({ kind: 'decision', decision: answerDecision('Yes.', [evidence('handbook#leave')]) });
    expect(card.body.map((b) => b.text)).toEqual(['Yes.', 'Sources', '1. handbook#leave', 'Knowledge base default v4']);
    expect(card.body.some((b) => 'color' in b)).toBe(false);
  });

  it('keeps brackets and parentheses from breaking a link, and never links a javascript: URL', () => {
    const card = renderTeamsCard({
      kind: 'decision',
      decision: answerDecision('An answer.', [
        evidence('a', { title: 'Evil', url: 'javascript:alert(1)' }),
        evidence('b', { title: 'Rules [draft]', section: 'Fees (2025)', url: 'https://example.org/rules_(draft)' }),
      ]),
    });
    const [evil, rules] = card.body.slice(2, 4).map((b) => b.text as string);
    expect(evil).toBe('1. Evil');
    expect(rules).toBe('2. [Rules (draft) › Fees (2025)](https://example.org/rules_%28draft%29)');
    expect(markdown.renderInline(rules!.slice(3))).toBe('<a href="https://example.org/rules_%28draft%29">Rules (draft) › Fees (2025)</a>');
    expect(JSON.stringify(card)).not.toContain('javascript:');
  });

  it('keeps the sources within their share of the card, counting the rest', () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      evidence(`s${i}`, { title: `T${i}`, url: `https://example.org/${i}/${'p'.repeat(900)}` }),
    );
    const card = renderTeamsCard({ kind: 'decision', decision: answerDecision('An answer.', many) });
    const lines = card.body.slice(2, -1).map((b) => b.text as string);
    expect(lines.join('').length).toBeLessThanOrEqual(TEAMS_MAX_SOURCES_TEXT + 20);
    expect(lines.at(-1)).toMatch(/^… and \d+ more$/);
  });

  it('puts 👍/👎 on an answer, and "Ask an expert" on a refusal only when the KB has experts', () => {
    const answer = renderTeamsCard(
      { kind: 'decision', decision: answerDecision('Yes.', [evidence('a')]) },
      { value: '7.t', experts: true },
    );
    expect(answer.actions?.map((a) => [a.type, a.title])).toEqual([
      ['Action.Submit', '👍 Helpful'],
      ['Action.ShowCard', '👎 Not helpful'],
    ]);
    expect(answer.actions?.[0]?.data).toEqual({ candor: 'feedback', value: '7.t', kind: 'helpful' });
    const refusal = {
      ...answerDecision('', []),
      decision: 'abstain' as const,
      answer: null,
      refusal: 'The knowledge base never mentions it.',
      caveat: null,
      confidence: 'low' as const,
    };
    const asked = renderTeamsCard({ kind: 'decision', decision: refusal }, { value: '8.t', experts: true });
    expect(asked.actions).toEqual([{ type: 'Action.Submit', title: 'Ask an expert', data: { candor: 'ask_expert', value: '8.t' } }]);
    expect(renderTeamsCard({ kind: 'decision', decision: refusal }, { value: '8.t', experts: false }).actions).toBeUndefined();
    expect(renderTeamsCard({ kind: 'decision', decision: refusal }).actions).toBeUndefined();
  });
});
