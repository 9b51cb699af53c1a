/**
 * Closed classes of words that qualify what a question asks: a person asking about Sundays, the second
 * suspension or one cancer is not answered by a fact about Saturdays, the first suspension or multiple cancers.
 * Each class lists its members with the forms that count as each.
 */
const CLASSES: readonly (readonly (readonly string[])[])[] = [
  [
    ['monday', 'mondays'],
    ['tuesday', 'tuesdays'],
    ['wednesday', 'wednesdays'],
    ['thursday', 'thursdays'],
    ['friday', 'fridays'],
    ['saturday', 'saturdays'],
    ['sunday', 'sundays'],
  ],
  [
    ['january'],
    ['february'],
    ['march'],
    ['april'],
    ['may'],
    ['june'],
    ['july'],
    ['august'],
    ['september'],
    ['october'],
    ['november'],
    ['december'],
  ],
  [
    ['first', '1st'],
    ['second', '2nd'],
    ['third', '3rd'],
    ['fourth', '4th'],
    ['fifth', '5th'],
  ],
  [
    ['single', 'one'],
    ['multiple', 'several', 'many'],
  ],
  [
    ['morning', 'mornings'],
    ['afternoon', 'afternoons'],
    ['evening', 'evenings'],
    ['night', 'nights', 'overnight'],
  ],
];

function membersIn(text: string): Map<number, Set<number>> {
  const words = new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  const found = new Map<number, Set<number>>();
  CLASSES.forEach((members, c) =>
    members.forEach((forms, m) => {
      if (!forms.some((form) => words.has(form))) return;
      const seen = found.get(c) ?? new Set<number>();
      seen.add(m);
      found.set(c, seen);
    }),
  );
  return found;
}

/**
 * A qualifier of the question that the fact contradicts: the question names one member of a class ("Sunday",
 * "second") and the fact names other members of it but not that one. Returns the question's word and the fact's,
 * or null. "May" (the month) and "one" are read only where the fact names another member of their class.
 */
export function contradictedQualifier(question: string, fact: string): { asked: string; stated: string } | null {
  const asked = membersIn(question);
  if (asked.size === 0) return null;
  const stated = membersIn(fact);
  for (const [c, members] of asked) {
    const inFact = stated.get(c);
    if (!inFact || [...members].some((m) => inFact.has(m))) continue;
    const cls = CLASSES[c] as readonly (readonly string[])[];
    return {
      asked: (cls[[...members][0] as number] as readonly string[])[0] as string,
      stated: (cls[[...inFact][0] as number] as readonly string[])[0] as string,
    };
  }
  return null;
}
