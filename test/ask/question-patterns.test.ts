import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Ask } from '../../src/ask/ask-service.js';
import type { Decision } from '../../src/ask/decision.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { composeAsk } from '../support/compose.js';
import { useTestStore } from '../support/stores.js';

/** Small documents written for these patterns (not the example KB): each pattern is a class of question. */
const DOCS = fileURLToPath(new URL('./fixtures/patterns', import.meta.url));
const KB = 'patterns';

const firstLine = (d: Decision) => (d.answer ?? '').split('\n')[0] ?? '';
const codes = (d: Decision) => d.reasons.map((r) => r.code).filter((c) => c !== null);

describe('question patterns that break confidence, on documents written for them', () => {
  const handle = useTestStore('pglite');
  let ask: (question: string) => Promise<Decision>;

  beforeAll(async () => {
    const ingested = await ingestPaths(handle.store.db, [DOCS], { kb: KB });
    expect(ingested.errors).toEqual([]);
    const composed: { ask: Ask } = composeAsk(handle.store);
    ask = (question) => composed.ask({ question, kb: KB, channel: 'test' }, { record: false });
  });

  it('answers a coverage question about an excluded item "No", naming the exclusion, with the fact listing it as its source', async () => {
    for (const [question, item] of [
      ['Does the plan cover cosmetic surgery?', 'Cosmetic surgery'],
      ['Are ambulance fees claimable?', 'Ambulance fees'],
      ['Is treatment received overseas covered?', 'Treatment received overseas'],
    ] as const) {
      const d = await ask(question);
      expect(d.decision, question).toBe('answer');
      expect(firstLine(d), question).toBe(`No: “${item}” is listed under “Exclusions”.`);
      expect(d.evidence[0]?.text, question).toContain(item);
    }
  });

  it('caveats an exclusion that makes an exception instead of saying "No"', async () => {
    const d = await ask('Does the plan cover dental treatment?');
    expect(d.decision).toBe('answer');
    expect(firstLine(d)).not.toMatch(/^No\b/);
    expect(firstLine(d)).toMatch(/except treatment needed after an accident/);
    expect(d.confidence).toBe('medium');
    expect(codes(d)).toContain('exclusion_exception');
  });

  it('leads with the row whose range holds the number asked about', async () => {
    for (const [question, row] of [
      ['What is the yearly premium if my age next birthday is 63?', '41 – 70'],
      ['What is the yearly premium at age next birthday 18?', '1 – 20'],
      ['Yearly premium when I turn 85 next birthday?', '71 and above'],
    ] as const) {
      const d = await ask(question);
      expect(d.decision, question).toBe('answer');
      expect(firstLine(d), question).toContain(row);
      // A reply's sources are the facts it states: no neighbouring row is listed, nor shown as "Also:".
      expect(d.evidence.length, question).toBe((d.answer ?? '').split('\n').length);
      for (const e of d.evidence) expect(d.answer, question).toContain(e.text.replace(/^\|?\s*/, '').slice(0, 12));
      expect(d.answer, question).not.toMatch(/Also: .*\d+ – \d+/);
    }
  });

  it('refuses, saying so, when no row holds the number asked about, instead of answering with a neighbouring row', async () => {
    const d = await ask('What is the deductible per year at age next birthday 95?');
    expect(d.decision).toBe('abstain');
    expect(d.reasons[0]).toMatchObject({ code: 'number_out_of_range', detail: 'no retrieved fact states a range that holds 95' });
    expect(d.refusal).toMatch(/not for the one you asked about/);
    const inRange = await ask('What is the deductible per year at age next birthday 85?');
    expect(firstLine(inRange)).toContain('81 – 90');
  });

  it('answers a duration written in words or as a compound ("six-week", "sixteen weeks"), and never counts "how long" or "last" as content', async () => {
    const sabbatical = await ask('How long do sabbaticals last?');
    expect(sabbatical.decision).toBe('answer');
    expect(firstLine(sabbatical)).toContain('six-week paid sabbatical');
    const parental = await ask('How many weeks of parental leave do new parents get?');
    expect(firstLine(parental)).toContain('sixteen weeks');
    const bereavement = await ask('How long can I take off when an immediate family member dies?');
    expect(firstLine(bereavement)).toContain('ten days');
    for (const d of [sabbatical, parental, bereavement]) expect(JSON.stringify(d.reasons)).not.toMatch(/"(long|many|last)"/);
  });

  it('keeps a lead-in line with the list it introduces, one fact', async () => {
    const d = await ask('How much holiday do we get?');
    expect(d.decision).toBe('answer');
    expect(firstLine(d)).toBe(
      'Our holiday allowance is as follows: twenty-five days of annual leave; eight public holidays; your birthday off',
    );
    expect(d.answer).not.toMatch(/Also: .*twenty-five/i);
  });

  it('takes footnote markers off the words they are glued to', async () => {
    const d = await ask('What does the Family Fund pay for?');
    expect(firstLine(d)).toBe('The Family Fund pays for childcare during school holidays.');
    const prorata = await ask('How is leave worked out for part-time staff?');
    expect(prorata.evidence.map((e) => e.text)).toContain('Part-time staff receive leave pro rata to their hours.');
  });

  it('never answers a qualifier the lead contradicts as high ("Sundays" answered by a fact about Saturdays)', async () => {
    const d = await ask('Is the service centre open on Sundays?');
    expect(d.decision).toBe('answer');
    if (d.decision === 'answer') {
      expect(d.confidence).toBe('medium');
      // The other line of the section shares only the heading's words: it is not part of the answer.
      expect(d.answer).not.toMatch(/Also/);
      expect(d.reasons).toContainEqual(
        expect.objectContaining({
          layer: 'confidence',
          code: 'qualifier_contradicted',
          detail: 'the question asks about "sunday", the closest fact about "saturday"',
        }),
      );
      expect(d.caveat).toMatch(/"sunday"/);
    }
    const saturday = await ask('Is the service centre open on Saturdays?');
    expect(saturday.decision).toBe('answer');
    expect(codes(saturday)).not.toContain('qualifier_contradicted');
  });
});
