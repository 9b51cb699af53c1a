import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';

const parse = (markdown: string) => parseDocument(markdown, 'markdown');
const pairs = (markdown: string) => parse(markdown).facts.map((fact) => [fact.heading, fact.text]);

describe('parseDocument (markdown)', () => {
  it('builds heading paths from ATX and setext headings; the first H1 is the title', () => {
    const doc = parse(
      '# Guide\n\nWelcome to the guide.\n\nCoverage\n--------\n\nCoverage starts at birth.\n\n### Premiums ###\n\nPremiums are paid yearly.\n\n## Claims\n\nClaims take 30 days.\n\nSecond Title\n===\n\nLast words here.',
    );
    expect(doc.title).toBe('Guide');
    expect(doc.facts.map((fact) => [fact.heading, fact.text, fact.position])).toEqual([
      ['Guide', 'Welcome to the guide.', 0],
      ['Guide > Coverage', 'Coverage starts at birth.', 1],
      ['Guide > Coverage > Premiums', 'Premiums are paid yearly.', 2],
      ['Guide > Claims', 'Claims take 30 days.', 3],
      ['Second Title', 'Last words here.', 4],
    ]);
  });

  it('splits paragraphs into sentences and joins their lines', () => {
    expect(pairs('Premiums are paid\nfrom MediSave. Claims are paid\nto the hospital.')).toEqual([
      [null, 'Premiums are paid from MediSave.'],
      [null, 'Claims are paid to the hospital.'],
    ]);
  });

  it('makes every list item, nested or numbered, its own fact', () => {
    expect(
      pairs(
        '## Steps\n\n- First item here\n- Second item\n  wraps onto two lines\n  - Nested child item\n* Star item here\n+ Plus item here\n1. Numbered one here\n2) Numbered two here\n- [x] Done task here',
      ),
    ).toEqual([
      ['Steps', 'First item here'],
      ['Steps', 'Second item wraps onto two lines'],
      ['Steps', 'Nested child item'],
      ['Steps', 'Star item here'],
      ['Steps', 'Plus item here'],
      ['Steps', 'Numbered one here'],
      ['Steps', 'Numbered two here'],
      ['Steps', 'Done task here'],
    ]);
  });

  it('renders each table body row with its headers', () => {
    expect(
      pairs(
        '## Rates\n\n| Ward | Daily limit | Notes |\n|:---|---:|---|\n| Normal | $830 | *per day* |\n| ICU \\| HD | $5,140 | |\n\nAfter the table.',
      ),
    ).toEqual([
      ['Rates', 'Ward: Normal; Daily limit: $830; Notes: per day'],
      ['Rates', 'Ward: ICU | HD; Daily limit: $5,140'],
      ['Rates', 'After the table.'],
    ]);
  });

  it('removes inline markup: links keep text, code keeps content, emphasis goes, images are dropped', () => {
    expect(
      parse(
        'See the [CPF site](https://cpf.gov.sg/a_(b)) or [FAQ][faq] for **bold** and __strong__ and *em* and _em_ text. Run `npm **test**` then ~~not~~ check ![logo](logo.png) snake_case_name.',
      ).facts.map((f) => f.text),
    ).toEqual(['See the CPF site or FAQ for bold and strong and em and em text.', 'Run npm **test** then not check snake_case_name.']);
    expect(parse('Fish &amp; chips cost \\*five\\* dollars.<br>Really.').facts[0]?.text).toBe('Fish & chips cost *five* dollars. Really.');
  });

  it('skips front matter, fenced code blocks and link definitions', () => {
    const doc = parse(
      '---\ntitle: Not a fact here\n---\nThe real text starts here.\n\n```ts\nconst x = "Not a fact. Either.";\n```\n\n~~~\nAlso code here.\n~~~\n\n[faq]: https://example.com/faq\n\nThe end is here.',
    );
    expect(doc.facts.map((fact) => fact.text)).toEqual(['The real text starts here.', 'The end is here.']);
    expect(doc.title).toBeNull();
  });

  it('does not take indented code for prose, and decodes entities everywhere', () => {
    const doc = parse(
      'Install it like this:\n\n    npm install --save candor\n    Then nothing here is a fact.\n\nCaf&eacute; staff aged &ge; 18 may apply &rarr; today.',
    );
    expect(doc.facts.map((fact) => fact.text)).toEqual(['Install it like this:', 'Café staff aged ≥ 18 may apply → today.']);
  });

  it('reads HTML blocks with the HTML parser', () => {
    expect(
      pairs(
        '## Fees\n\n<table><tr><th>Item</th><th>Fee</th></tr><tr><td>Replacement card</td><td>$20</td></tr></table>\n\n<div>Fees are paid <b>online</b>.</div>',
      ),
    ).toEqual([
      ['Fees', 'Item: Replacement card; Fee: $20'],
      ['Fees', 'Fees are paid online.'],
    ]);
  });

  it('treats blockquote text as text and a thematic break as a boundary', () => {
    expect(
      parse('> Quoted text is here. Another quoted sentence.\n\nBefore the break now\n\n* * *\n\nAfter the break now').facts.map(
        (f) => f.text,
      ),
    ).toEqual(['Quoted text is here.', 'Another quoted sentence.', 'Before the break now', 'After the break now']);
  });

  it('keeps duplicate facts once per heading', () => {
    expect(pairs('## A\n\n- Same fact here\n- Same fact here\n\n## B\n\nSame fact here')).toEqual([
      ['A', 'Same fact here'],
      ['B', 'Same fact here'],
    ]);
  });
});
