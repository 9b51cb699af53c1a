import { describe, expect, it } from 'vitest';

import { evidenceLayer, identifierLayer } from '../../../src/core/gate/rule-layers.js';
import { fact, input, SETTINGS, vocabulary } from './fixtures.js';

const PREMIUM = 'The MediShield Life premium for ages 21 to 30 is $200 a year.';
const KB = [PREMIUM, 'Claims are made by your hospital.'];

describe('identifierLayer (a crisp rule)', () => {
  it('refuses an identifier the KB never mentions, quoting it as typed', () => {
    const verdict = identifierLayer(input('What does ADR-0050 say about premiums?', [fact(PREMIUM, 0.5)], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'unknown_entity', detail: 'the knowledge base never mentions "ADR-0050"' });
  });
  it('knows an identifier however it is written', () => {
    const known = { has: (t: string) => t === '#adr0050', idf: () => 1, unseenIdf: () => 2 };
    expect(identifierLayer(input('What does ADR 0050 say?', [fact(PREMIUM, 0.5)], KB, { vocabulary: known })).pass).toBe(true);
  });
  it('is not a name check: capitalised words and names are graded signals, not rules', () => {
    expect(identifierLayer(input('Does the Platinum Rider cover premiums?', [fact(PREMIUM, 0.5)], KB)).pass).toBe(true);
    expect(identifierLayer(input('What is the MediSave Account for?', [fact(PREMIUM, 0.5)], KB, { vocabulary: vocabulary([]) })).pass).toBe(
      true,
    );
  });
  it('can be switched off', () => {
    const verdict = identifierLayer(input('What does ADR-0050 say?', [], KB, { settings: { ...SETTINGS, checkEntities: false } }));
    expect(verdict.pass).toBe(true);
  });
});

describe('evidenceLayer', () => {
  it('refuses when nothing was retrieved and passes with any evidence', () => {
    expect(evidenceLayer(input('What is the premium?', [], KB))).toMatchObject({ pass: false, code: 'no_evidence', layer: 'evidence' });
    expect(evidenceLayer(input('What is the premium?', [fact(PREMIUM, 0.9)], KB)).pass).toBe(true);
  });
});
