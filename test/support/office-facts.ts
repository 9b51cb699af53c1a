import type { RecordedCall } from '../channels/fake-http.js';
import { completion } from './fake-openai.js';

// A KB of 24 offices, one fact each (enough for 20 drafts of each kind), and a fake model over it: it writes one
// question per fact; shown the office's own fact, it answers from it in one of a few wordings (two of the 24 add a
// claim no fact states); not shown it (left out), it makes the answer up from a neighbouring office's fact, with a
// number (support 0) or in words only (which the default grounding threshold lets through).

export const CITIES =
  'Oslo Bergen Lisbon Porto Madrid Seville Vienna Graz Dublin Cork Krakow Gdansk Lyon Nantes Turin Genoa Leeds Bristol Aarhus Malmo Tampere Riga Tallinn Vilnius'.split(
    ' ',
  );
const phone = (i: number) => `555-01${i + 10}`;
export const OFFICE_FACTS = CITIES.map((city, i) => ({
  id: `OF-${i + 1}`,
  text: `The ${city} office reception can be reached on phone number ${phone(i)}, from 9 am to ${4 + (i % 3)} pm.`,
  source: `offices#${city.toLowerCase()}`,
}));
export const OFFICE_QUESTION = (city: string) => `What phone number reaches the ${city} office reception?`;

const FAITHFUL = [
  (c: string, i: number) => `Call ${phone(i)} to reach the ${c} office reception.`,
  (c: string, i: number) => `The ${c} reception answers on ${phone(i)}, between 9 am and ${4 + (i % 3)} pm.`,
  (c: string, i: number) => `Dial ${phone(i)} for the ${c} front desk.`,
  (c: string, i: number) => `Call ${phone(i)} to reach the ${c} office reception.`,
];
const ADDS_A_CLAIM = (c: string, i: number) =>
  `You can reach the ${c} office reception on ${phone(i)}; staff there also handle visitor badges.`;
export const MADE_UP = [
  (c: string) => `The ${c} office reception can be reached on phone number 555-0199.`,
  (c: string) => `The ${c} office reception can be reached by phone during opening hours.`,
  (c: string) => `Reception in ${c} is reached by phone from 9 am.`,
];

/**
 * The fake model's reply to a question-writing or answering call (the prompts `eval generate` and the ask path send).
 * `madeUp`: always make the answer up this way, citing another office's fact.
 */
export function officeModel(call: RecordedCall, options: { madeUp?: (city: string, i: number) => string } = {}) {
  const body = call.body as { messages: { content: string }[]; response_format: { json_schema: { name: string } } };
  const user = body.messages[1]!.content;
  if (body.response_format.json_schema.name === 'fact_questions') {
    const city = CITIES.find((c) => user.includes(`The ${c} office`))!;
    return completion(JSON.stringify({ questions: [{ question: OFFICE_QUESTION(city), answer: 'its number' }] }));
  }
  const i = CITIES.findIndex((c) => user.includes(`Question: ${OFFICE_QUESTION(c)}`));
  const city = CITIES[i]!;
  const lines = user.split('\n').filter((l) => /^\[\d+\] /.test(l));
  const numberOf = (line: string | undefined) => Number(/^\[(\d+)\] /.exec(line ?? '')?.[1] ?? 1);
  const own = lines.find((l) => l.includes(`The ${city} office`));
  const answer =
    own && !options.madeUp
      ? { answer: (i === 5 || i === 17 ? ADDS_A_CLAIM : FAITHFUL[i % 4]!)(city, i), citations: [numberOf(own)] }
      : {
          answer: (options.madeUp ?? ((c: string, n: number) => MADE_UP[n % 3]!(c)))(city, i),
          citations: [numberOf(lines.find((l) => l !== own))],
        };
  return completion(JSON.stringify({ answerable: true, reasoning: 'from the facts', ...answer }));
}
