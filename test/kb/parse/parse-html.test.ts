import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';

const parse = (html: string) => parseDocument(html, 'html');
const texts = (html: string) => parse(html).facts.map((fact) => fact.text);

describe('parseDocument (html)', () => {
  it('takes the title from <title> and drops head, script, style, noscript and template content', () => {
    const doc = parse(
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title>CPF &amp; You</title><style>p { color: red; }</style>' +
        '<script>var s = "<p>Not text at all.</p>"; if (a < b) {}</script></head>' +
        '<body><p>Real text is here.</p><noscript>Enable JavaScript please.</noscript><template><p>Template text here.</p></template>' +
        '<script type="module">document.write("Hidden words here.")</script><svg><title>Icon title</title><text>Svg words here</text></svg></body></html>',
    );
    expect(doc.title).toBe('CPF & You');
    expect(doc.facts.map((fact) => fact.text)).toEqual(['Real text is here.']);
  });

  it('falls back to the first h1 for the title', () => {
    expect(parse('<h1>Claims Guide</h1><p>Claims take 30 days.</p>').title).toBe('Claims Guide');
  });

  it('builds heading paths from h1–h6', () => {
    const doc = parse(
      '<h1>Coverage</h1><p>Cover starts at birth.</p><h2>Premiums</h2><p>Paid yearly from MediSave.</p><h3>Rebates</h3><p>Rebates start at 66.</p><h2>Claims</h2><p>Claims take 30 days.</p>',
    );
    expect(doc.facts.map((fact) => [fact.heading, fact.text])).toEqual([
      ['Coverage', 'Cover starts at birth.'],
      ['Coverage > Premiums', 'Paid yearly from MediSave.'],
      ['Coverage > Premiums > Rebates', 'Rebates start at 66.'],
      ['Coverage > Claims', 'Claims take 30 days.'],
    ]);
  });

  it('joins inline elements, separates blocks, treats <br> as a space and splits sentences', () => {
    expect(
      texts(
        '<div>Premiums are paid <b>yearly</b> from Medi<span>Save</span>. Claims take<br>30 days.<div>Inner block text.</div></div><p>Next <a href="/x">linked <em>text</em></a> here.</p>',
      ),
    ).toEqual(['Premiums are paid yearly from MediSave.', 'Claims take 30 days.', 'Inner block text.', 'Next linked text here.']);
  });

  it('makes each li one fact, including nested ones', () => {
    expect(
      texts(
        '<ul><li>Ward A costs more. It has aircon.</li><li>Ward B is cheaper<ul><li>Nested child item</li></ul></li><li>Unclosed item one<li>Unclosed item two</ul>',
      ),
    ).toEqual(['Ward A costs more. It has aircon.', 'Ward B is cheaper', 'Nested child item', 'Unclosed item one', 'Unclosed item two']);
  });

  it('renders table rows with the th row as headers', () => {
    const doc = parse(
      '<h2>Limits</h2><table><caption>Daily ward limits</caption><thead><tr><th>Ward</th><th>Daily limit</th></tr></thead><tbody><tr><td>Normal</td><td>$830</td></tr><tr><td>ICU</td><td>$5,140 <i>per day</i></td></tr><tr><td>Empty note</td><td></td></tr></tbody></table>',
    );
    expect(doc.facts.map((fact) => [fact.heading, fact.text])).toEqual([
      ['Limits', 'Daily ward limits'],
      ['Limits', 'Ward: Normal; Daily limit: $830'],
      ['Limits', 'Ward: ICU; Daily limit: $5,140 per day'],
      ['Limits', 'Ward: Empty note'],
    ]);
  });

  it('uses the first row as headers when there is no th row', () => {
    expect(
      texts(
        '<table><tr><td>Age</td><td>Premium</td></tr><tr><td>1 – 20</td><td>$200</td></tr><tr><td>21 – 30</td><td>$295</td></tr></table>',
      ),
    ).toEqual(['Age: 1 – 20; Premium: $200', 'Age: 21 – 30; Premium: $295']);
  });

  it('decodes named and numeric entities and keeps stray < as text', () => {
    expect(
      texts(
        '<p>Tom &amp; Jerry &lt;3 &gt; &quot;cheese&quot; &#39;a lot&#39;&nbsp;now &#8212; &#x2014; fine &copy; &bogus;.</p><p>a < b and c > d hold here.</p>',
      ),
    ).toEqual(['Tom & Jerry <3 > "cheese" \'a lot\' now — — fine © &bogus;.', 'a < b and c > d hold here.']);
  });

  it('decodes every named entity of the HTML standard, not just the common ones', () => {
    expect(
      texts('<p>Caf&eacute; patrons aged &ge; 65 pay &frac13; &rarr; see &Aring;land &amp; &NotEqualTilde; rules &hearts;.</p>'),
    ).toEqual(['Café patrons aged ≥ 65 pay ⅓ → see Åland & ≂̸ rules ♥.']);
  });

  it('splits dt, dd and blockquote into their own blocks and drops comments', () => {
    expect(
      texts(
        '<dl><dt>Deductible amount</dt><dd>The amount you pay first.</dd></dl><blockquote>A quoted block sits here.</blockquote><p>Kept <!-- hidden. Words. --> text here.</p>',
      ),
    ).toEqual(['Deductible amount', 'The amount you pay first.', 'A quoted block sits here.', 'Kept text here.']);
  });

  it('takes the page’s URL from its canonical link, else og:url; http(s) only, relative ones against <base>', () => {
    const page = (head: string) => parse(`<html><head>${head}</head><body><p>Staff receive 18 days of leave.</p></body></html>`).url;
    expect(
      page(
        '<meta property="og:url" content="https://example.org/og"><link rel="alternate canonical" href="https://example.org/hr/leave?x=1">',
      ),
    ).toBe('https://example.org/hr/leave?x=1');
    expect(page('<meta property="og:url" content="https://example.org/og">')).toBe('https://example.org/og');
    expect(page('<base href="https://example.org/hr/"><link rel="canonical" href="leave.html">')).toBe('https://example.org/hr/leave.html');
    // a script URL, a relative link with nothing to resolve it against, or a URL with a password is no link
    expect(page('<link rel="canonical" href="javascript:alert(1)"><meta property="og:url" content="https://example.org/og">')).toBe(
      'https://example.org/og',
    );
    expect(page('<link rel="canonical" href="/hr/leave">')).toBeUndefined();
    expect(page('<link rel="canonical" href="https://user:secret@example.org/hr">')).toBeUndefined();
    expect(page('<link rel="stylesheet" href="https://example.org/site.css">')).toBeUndefined();
  });

  it('tolerates quoted ">" in attributes, unclosed tags and uppercase tag names', () => {
    expect(
      texts(
        '<P class="a>b" data-x=\'c>d\'>Attribute text is here.<P>Second para is here.<DIV>Upper case div text.</div><p>Unclosed at the end',
      ),
    ).toEqual(['Attribute text is here.', 'Second para is here.', 'Upper case div text.', 'Unclosed at the end']);
  });
});
