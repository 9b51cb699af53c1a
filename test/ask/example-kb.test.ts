import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Ask } from '../../src/ask/ask-service.js';
import type { Decision } from '../../src/ask/decision.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { composeAsk } from '../support/compose.js';
import { useTestStore } from '../support/stores.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/kb', import.meta.url));
const KB = 'examples';

/** Every text of one example document folder, to show that what a question asks for is truly absent. */
function corpus(folder: 'medishield-life' | 'basic-theory-of-driving'): string {
  const dir = join(EXAMPLES, folder);
  return readdirSync(dir)
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

function expectAbstention(decision: Decision): void {
  expect(decision.decision).toBe('abstain');
  expect(decision.answer).toBeNull();
  expect(decision.evidence).toEqual([]);
  expect(decision.refusal).toEqual(expect.any(String));
  expect(decision.refusal?.length).toBeGreaterThan(20);
  expect(decision.reasons[0]?.pass).toBe(false);
}

/**
 * Behaviour on the shipped example KB (MediShield Life booklet + Basic Theory
 * of Driving handbook). These cases are the gate's specification: a failure
 * here is a gate defect, not a test to loosen.
 */
describe('asking the example knowledge base', () => {
  const handle = useTestStore('pglite');
  let ask: Ask;

  beforeAll(async () => {
    const summary = await ingestPaths(handle.store.db, [EXAMPLES], { kb: KB });
    expect(summary).toMatchObject({ kb: { name: KB, version: 1 }, documents: 120, skipped: [] });
    ask = composeAsk(handle.store).ask;
  });
  const question = (text: string) => ask({ question: text, kb: KB, channel: 'test' });

  describe('answers what the documents clearly say, citing the fact', () => {
    it('What is the penalty for drink driving?', async () => {
      const d = await question('What is the penalty for drink driving?');
      expect(d.decision).toBe('answer');
      expect(d.evidence[0]?.text).toBe(
        'The penalty for drink driving is a fine of between $1,000 and $5,000 or imprisonment not exceeding 6 months.',
      );
      expect(d.evidence[0]?.source).toMatch(/basic-theory-of-driving\/BTT_59\.txt › ALCOHOL$/);
      expect(d.answer).toContain('$1,000 and $5,000');
      expect(d.refusal).toBeNull();
    });

    it('What is the fine for failing to belt up?', async () => {
      const d = await question('What is the fine for failing to belt up?');
      expect(d.decision).toBe('answer');
      expect(d.evidence[0]?.text).toBe('A composition fine of $120 and 3 demerit points will be awarded for failing to belt up.');
      expect(d.evidence[0]?.source).toMatch(/BTT_58\.txt › SEAT BELTS$/);
      expect(d.answer).toContain('$120');
    });

    it('Are newborns covered by MediShield Life?', async () => {
      const d = await question('Are newborns covered by MediShield Life?');
      expect(d.decision).toBe('answer');
      expect(d.evidence[0]?.text).toBe(
        'Newborns who are Singapore Citizens are covered from birth under MediShield Life following birth registration.',
      );
      expect(d.evidence[0]?.source).toMatch(/medishield-life\/page_7\.txt/);
    });

    // The booklet's own section 3.3 question; the answer is the second sentence of that section.
    it('Who needs to pay Additional Premiums?', async () => {
      const d = await question('Who needs to pay Additional Premiums?');
      expect(d.reasons.filter((r) => !r.pass)).toEqual([]);
      expect(d.decision).toBe('answer');
      // The first quote is one of the section's facts that says who pays (either is the answer).
      expect([
        'Only those with serious pre-existing medical conditions need to pay an Additional Premium of 30% for the first 10 years, in addition to the standard MediShield Life premiums.',
        'Those with serious pre-existing conditions will be informed to pay Additional Premiums.',
      ]).toContain(d.evidence[0]?.text);
    });

    // Issue 9: asked as a citizen would. The booklet's answer is on the premium table's page, whose
    // text never says "MediShield Life": its folder does (a document's path is searched as context).
    it('Who pays the premiums for MediShield Life?', async () => {
      const d = await question('Who pays the premiums for MediShield Life?');
      expect(d.decision).toBe('answer');
      // Sources are what the reply states; the MediSave fact, ranked beside it from another section, is related reading.
      expect([...d.evidence, ...(d.decision === 'answer' ? (d.related ?? []) : [])].map((e) => e.text)).toContain(
        'You can pay your premium from your MediSave, or your family members (i.e. spouse, parents, children, grandchildren or siblings) may pay your premium using their MediSave.',
      );
      for (const e of d.evidence) expect(d.answer).toContain(e.text.slice(0, 40));
      for (const e of d.evidence) expect(e.text).toMatch(/premium/i);
    });
  });

  describe('says it does not know', () => {
    // Issue 9: the KB never mentions flu; before, this was answered by quoting facts about "Home stays" and crime prevention.
    it('should I stay at home from work when I have the flu?', async () => {
      expect(`${corpus('medishield-life')}\n${corpus('basic-theory-of-driving')}`).not.toMatch(/\bflu\b|influenza/i);
      const d = await question('should I stay at home from work when I have the flu?');
      expectAbstention(d);
      expect(d.reasons[0]?.detail).toContain('the knowledge base never mentions "flu"');
    });

    it('a claim deadline, which the booklet never gives (same topic, specific answer absent)', async () => {
      const booklet = corpus('medishield-life');
      expect(booklet).toMatch(/submit the claim on\s+your behalf/); // the topic is there…
      expect(booklet).not.toMatch(/deadline|within \d+ (?:calendar |working )?days/i); // …the answer is not
      const d = await question('What is the deadline to submit a MediShield Life claim?');
      expectAbstention(d);
      // A refusal says what nearby topics the KB does cover.
      expect(d.nearbyTopics.length).toBeGreaterThan(0);
      expect(d.refusal).toContain('The knowledge base does cover');
    });

    it('What does ADR-0050 say about retention? (unknown identifier)', async () => {
      expect(`${corpus('medishield-life')}\n${corpus('basic-theory-of-driving')}`).not.toMatch(/ADR/);
      const d = await question('What does ADR-0050 say about retention?');
      expectAbstention(d);
      expect(d.reasons[0]?.code).toBe('unknown_entity');
      expect(d.reasons[0]?.detail).toMatch(/adr-?0050/i);
    });

    it('a plan name the KB never mentions', async () => {
      expect(`${corpus('medishield-life')}\n${corpus('basic-theory-of-driving')}`).not.toMatch(/platinum/i);
      // ("rider" alone does occur: "excluding IP/rider coverage"; the plan's name does not.)
      const d = await question('What does the MediShield Platinum Rider cover?');
      expectAbstention(d);
      // "Platinum" is a capitalised common word, not a name: a graded signal, told as the user wrote it.
      expect(d.reasons[0]).toMatchObject({ layer: 'answerability', pass: false });
      expect(d.reasons[0]?.detail).toContain('the knowledge base never mentions "Platinum"');
    });

    it('an unrelated question', async () => {
      const d = await question('Who won the 1998 World Cup?');
      expectAbstention(d);
      expect(['no_evidence', 'unknown_entity', 'low_relevance']).toContain(d.reasons[0]?.code);
    });

    it('nonsense', async () => {
      const d = await question('purple elephant quantum sandwich');
      expectAbstention(d);
      expect(['no_evidence', 'low_relevance', 'low_coverage']).toContain(d.reasons[0]?.code);
    });
  });
});
