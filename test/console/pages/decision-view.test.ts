import { describe, expect, it } from 'vitest';

import { askPage } from '../../../src/console/pages/ask-page.js';
import { decisionView } from '../../../src/console/pages/decision-view.js';
import { answerDecision, BOOKLET_EVIDENCE, CAVEAT, evidence } from '../../channels/chat/decision-fixture.js';

/** Markup without the layout whitespace around tags, and the rest collapsed, as a browser shows it. */
const squeeze = (html: string) => html.replace(/>\s+/g, '>').replace(/\s+</g, '<').replace(/\s+/g, ' ');
const LINK =
  '<a href="https://www.cpf.gov.sg/medishield-life?page=7&amp;lang=en" target="_blank" rel="noopener noreferrer">' +
  'MediShield Life &amp; You &lt;2025&gt; › 3. Coverage &gt; 3.2 How much is the premium?</a>';

// The console's reply as HTML: the caveat first, then the answer, then each source once.
describe('the console decision view', () => {
  it('shows the caveat before the answer and each source once, linked (new tab, no opener, no referrer) or as text', () => {
    const page = squeeze(
      askPage(['default'], 'default', 'How much is the premium?', {
        decision: answerDecision('The premium is $X.', BOOKLET_EVIDENCE, { caveat: CAVEAT }),
      }).value,
    );
    const caveat = page.indexOf(`<p class="caveat" role="note" data-testid="caveat">⚠ ${CAVEAT.replace(/'/g, '&#39;')}</p>`);
    expect(caveat).toBeGreaterThan(0);
    expect(caveat).toBeLessThan(page.indexOf('data-testid="reply">The premium is $X.</div>'));
    expect(page).toContain(
      `<ol class="sources" data-testid="sources"><li value="1">${LINK}</li><li value="2">Premium table | 2025</li></ol>`,
    );
    expect(page.split('href="https://www.cpf.gov.sg').length - 1).toBe(1);
    expect(page).toContain('<span class="muted" data-testid="confidence">confidence medium</span>');
  });

  it('never makes a javascript: URL an href, and escapes what it shows', () => {
    const view = decisionView({
      decision: 'answer',
      text: 'x',
      reasons: [],
      answerability: null,
      evidence: [
        evidence('a', { title: '<img src=x onerror=alert(1)>', url: 'javascript:alert(1)' }),
        evidence('b', { title: 'T', url: 'https://example.org/"><script>' }),
      ],
    }).value;
    expect(view).not.toContain('javascript:');
    expect(view).not.toContain('<img');
    expect(view).not.toContain('<script');
    expect(squeeze(view)).toContain('<li value="1">&lt;img src=x onerror=alert(1)&gt;</li>');
    expect(squeeze(view)).toContain('<a href="https://example.org/%22%3E%3Cscript%3E" target="_blank" rel="noopener noreferrer">T</a>');
  });

  it('marks a recorded medium-confidence answer (rows do not keep the caveat text) and renumbers a model’s markers', () => {
    const view = squeeze(
      decisionView({
        decision: 'answer',
        text: 'It is $X [2]; see [3].',
        reasons: [],
        answerability: null,
        evidence: BOOKLET_EVIDENCE,
        confidence: 'medium',
        generated: true,
      }).value,
    );
    expect(view).toContain('data-testid="caveat">⚠ Answered with a caveat: the confidence was medium.</p>');
    expect(view).toContain('data-testid="reply">It is $X [1]; see [2].</div>');
  });

  it("names where a layer's threshold came from when it says (a KB's calibrated grounding threshold)", () => {
    const view = squeeze(
      decisionView({
        decision: 'answer',
        text: 'x',
        reasons: [
          { layer: 'grounding', pass: true, code: null, detail: 'backed', score: 0.98, threshold: 0.97, thresholdSource: 'kb@2' },
          { layer: 'llm', pass: true, code: null, detail: 'answers it' },
        ],
        answerability: null,
        evidence: [],
      }).value,
    );
    expect(view).toContain('<td class="num">0.97<span class="muted">(kb@2)</span></td>');
  });

  it('shows no caveat and no sources for a refusal', () => {
    const view = decisionView({
      decision: 'abstain',
      text: 'Not in the KB.',
      reasons: [],
      evidence: [],
      answerability: null,
      confidence: 'low',
    }).value;
    expect(view).not.toContain('data-testid="caveat"');
    expect(view).not.toContain('data-testid="sources"');
  });
});
