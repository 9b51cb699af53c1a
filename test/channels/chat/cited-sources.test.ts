import { describe, expect, it } from 'vitest';

import { citationLabel, citeAnswer } from '../../../src/channels/chat/cited-sources.js';
import { httpUrl } from '../../../src/core/text/http-url.js';
import { BOOKLET_EVIDENCE, evidence } from './decision-fixture.js';

// What every channel cites: each source once, numbered as the answer's markers, only http(s) links.
describe('citeAnswer', () => {
  it('lists facts sharing a link and section once, and facts without a link by title and section', () => {
    const { citations } = citeAnswer('The premium is $X.', BOOKLET_EVIDENCE, { markers: false });
    expect(citations).toEqual([
      {
        n: 1,
        title: 'MediShield Life & You <2025>',
        section: '3. Coverage > 3.2 How much is the premium?',
        url: 'https://www.cpf.gov.sg/medishield-life?page=7&lang=en',
        kb: null,
      },
      { n: 2, title: 'Premium table | 2025', section: null, url: null, kb: null },
    ]);
    expect(citationLabel(citations[0]!)).toBe('MediShield Life & You <2025> › 3. Coverage > 3.2 How much is the premium?');
    // Several KBs searched together: the citation names its KB, and the same source in two KBs is two citations.
    const [hr, it] = citeAnswer('x', [evidence('Handbook', { kb: 'hr' }), evidence('Handbook', { factId: 'b', kb: 'it' })], {
      markers: false,
    }).citations;
    expect(citationLabel(hr!)).toBe('Handbook (hr)');
    expect(citationLabel(it!)).toBe('Handbook (it)');
  });

  it('merges untitled facts by source and section, and does not repeat a section the source already names', () => {
    const { citations } = citeAnswer(
      'x',
      [
        evidence('medishield-life/page_7.txt › 3. Coverage', { section: '3. Coverage' }),
        evidence('medishield-life/page_7.txt › 3. Coverage', { factId: 'other', section: '3. Coverage' }),
        evidence('handbook#leave', { section: 'Annual leave' }),
      ],
      { markers: false },
    );
    expect(citations.map(citationLabel)).toEqual(['medishield-life/page_7.txt › 3. Coverage', 'handbook#leave › Annual leave']);
  });

  it('renumbers a model answer’s markers to the merged sources; leaves an extractive answer’s brackets alone', () => {
    const text = 'The premium is $X [1][2]. See the table [3] and [2, 3]; footnote [9].';
    expect(citeAnswer(text, BOOKLET_EVIDENCE, { markers: true }).answer).toBe(
      'The premium is $X [1]. See the table [2] and [1, 2]; footnote [9].',
    );
    expect(citeAnswer(text, BOOKLET_EVIDENCE, { markers: false }).answer).toBe(text);
  });

  it('links only http(s) URLs', () => {
    expect(httpUrl('javascript:alert(1)')).toBeNull();
    expect(httpUrl(' JavaScript:alert(1)')).toBeNull();
    expect(httpUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(httpUrl('file:///etc/passwd')).toBeNull();
    expect(httpUrl('/relative/path')).toBeNull();
    expect(httpUrl(`https://example.org/${'a'.repeat(2100)}`)).toBeNull();
    expect(httpUrl('HTTPS://Example.org/a b')).toBe('https://example.org/a%20b');
    const [c] = citeAnswer('x', [evidence('s', { title: 'T', url: 'javascript:alert(1)' })], { markers: false }).citations;
    expect(c).toEqual({ n: 1, title: 'T', section: null, url: null, kb: null });
  });

  it('keeps labels to one printable line', () => {
    const [c] = citeAnswer('x', [evidence('s', { title: 'A\nB\u001b[31m\tC', section: `${'s'.repeat(200)}` })], {
      markers: false,
    }).citations;
    expect(c!.title).toBe('A B [31m C');
    expect(c!.section).toHaveLength(150);
    expect(c!.section!.endsWith('…')).toBe(true);
  });
});
