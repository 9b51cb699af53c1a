import { describe, expect, it } from 'vitest';

import {
  formatCaveat,
  formatExtractiveAnswer,
  formatRefusal,
  nearbyTopics,
  sectionName,
  statement,
} from '../../../src/core/answer/format-answer.js';
import type { EvidenceFact } from '../../../src/core/gate/types.js';
import { analyseQuestion } from '../../../src/core/text/analyse-question.js';
import { fact } from '../gate/fixtures.js';

const inSection = (text: string, heading: string | null, id: number, passage = `doc#${id}`): EvidenceFact => ({
  ...fact(text, 1 - id / 10, id, passage),
  heading,
});

describe('formatExtractiveAnswer', () => {
  it('writes one answer in the first line, with no numbering, source paths or lead-in', () => {
    const answer = formatExtractiveAnswer([inSection('Newborns are covered from birth.', '3. Coverage', 1)]);
    expect(answer).toBe('Newborns are covered from birth.');
  });

  it('adds facts of the same passage that share the question’s words as "Also:" lines, and nothing from elsewhere', () => {
    const q = analyseQuestion('Who pays the premiums?');
    const lead = inSection('Premiums can be paid from MediSave.', 'Premiums', 1, 'p');
    const same = inSection('Family members may pay your premiums using their MediSave.', 'Premiums', 2, 'p');
    const unrelatedSame = inSection('Table B shows the rates.', 'Premiums', 3, 'p');
    const elsewhere = inSection('Premiums rise with age.', 'Rates', 4, 'other');
    expect(formatExtractiveAnswer([lead, same, unrelatedSame, elsewhere], q).split('\n')).toEqual([
      'Premiums can be paid from MediSave.',
      'Also: Family members may pay your premiums using their MediSave.',
    ]);
  });
});

describe('statement', () => {
  it('gives a short item the name of its section, without the section number', () => {
    expect(statement({ text: 'Cosmetic surgery', heading: '5. Coverage > 5.3 Exclusions' })).toBe('Exclusions: Cosmetic surgery');
  });
  it('unwraps a sentence in brackets and leaves a sentence alone', () => {
    expect(statement({ text: '(vehicles should slow down)', heading: null })).toBe('Vehicles should slow down');
    expect(statement({ text: 'The deductible is paid once a year.', heading: 'Deductible' })).toBe('The deductible is paid once a year.');
  });
  it('does not repeat a section name the item already starts with', () => {
    expect(statement({ text: 'Table B: Premiums — Age 31 – 40: $503', heading: 'Table B: Premiums' })).toBe(
      'Table B: Premiums — Age 31 – 40: $503',
    );
  });
});

describe('nearbyTopics', () => {
  it('offers only sections that share a content word with the question, never unrelated ones', () => {
    const q = analyseQuestion('Is there a subsidy for premiums of foreigners?');
    const facts = [
      inSection('Roundabouts: give way to the right.', 'ROUNDABOUTS', 1),
      inSection('Premium subsidies depend on income.', '4. Government subsidies', 2),
      inSection('Work zone signs warn of road works.', 'WORK ZONE SIGNS', 3),
      inSection('Subsidies are applied automatically.', '4. Government subsidies', 4),
    ];
    expect(nearbyTopics(facts, q)).toEqual(['Government subsidies']);
  });
  it('offers nothing rather than noise', () => {
    const q = analyseQuestion('What does ADR-0050 say?');
    expect(nearbyTopics([inSection('Roundabouts: give way.', 'ROUNDABOUTS', 1)], q)).toEqual([]);
  });
});

describe('formatRefusal and formatCaveat', () => {
  it('says why, then what nearby the KB covers', () => {
    const q = analyseQuestion('What is the premium subsidy for foreigners?');
    const refusal = formatRefusal(
      { layer: 'answerability', pass: false, code: 'low_coverage', detail: 'the closest fact does not mention "foreigners"' },
      nearbyTopics([inSection('Premium subsidies depend on income.', 'Government subsidies', 1)], q),
    );
    expect(refusal).toBe(
      'The closest facts I found don\'t cover what you\'re asking: the closest fact does not mention "foreigners".\n' +
        'The knowledge base does cover: “Government subsidies”.',
    );
  });
  it('writes the caveat with what may be off', () => {
    expect(formatCaveat(['the knowledge base never mentions "cataract"'])).toBe(
      'I\'m not certain this answers your question (the knowledge base never mentions "cataract"). ' +
        'This is the closest the knowledge base says; please check the source.',
    );
    expect(formatCaveat([])).toMatch(/^I'm not certain this answers your question\. /);
  });
  it('names a section without its numbering', () => {
    expect(sectionName('3. Coverage > 3.2 How much is the premium?')).toBe('How much is the premium?');
  });
});

describe('statement: what is not a section', () => {
  it('does not prefix a footnote the parser took for a heading', () => {
    expect(
      statement({ text: 'Kidney dialysis: $1,000 per month', heading: 'Patients receiving treatment for multiple primary cancers6' }),
    ).toBe('Kidney dialysis: $1,000 per month');
  });
});
