import { createRequire } from 'node:module';
import type * as AdaptiveCards from 'adaptivecards';

// The official Adaptive Cards object model (the `adaptivecards` package, which knows schema 1.5: Action.Execute,
// refresh, Table…). Its ESM build imports without file extensions, so Node loads its UMD bundle instead.
const AC = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as typeof AdaptiveCards;

/**
 * What is wrong with a card as Adaptive Card 1.5, in words: the parser's warnings (an unknown element or
 * action, a feature newer than 1.5), the object model's validation (duplicate ids, a menu without choices),
 * and anything the 1.5 model drops on a round trip — a misspelt property, a value outside its enum. Empty: valid.
 */
export function adaptiveCard15Problems(json: object): string[] {
  const card = new AC.AdaptiveCard();
  const context = new AC.SerializationContext(AC.Versions.v1_5);
  card.parse(json, context);
  const problems: string[] = [];
  for (let i = 0; i < context.eventCount; i++) problems.push(`parse: ${context.getEventAt(i).message}`);
  for (const event of card.validateProperties().validationEvents) problems.push(`validate: ${event.message}`);
  const back = card.toJSON(new AC.SerializationContext(AC.Versions.v1_5)) as unknown;
  dropped(json, back, '$', problems);
  return problems;
}

/** Every property of `sent` must come back from the object model (enum values compare case-insensitively). */
function dropped(sent: unknown, back: unknown, path: string, problems: string[]): void {
  if (Array.isArray(sent)) {
    if (!Array.isArray(back) || back.length !== sent.length)
      return void problems.push(`dropped: ${path} (${JSON.stringify(sent).slice(0, 80)})`);
    sent.forEach((v, i) => dropped(v, back[i], `${path}[${i}]`, problems));
  } else if (sent !== null && typeof sent === 'object') {
    if (back === null || typeof back !== 'object') return void problems.push(`dropped: ${path}`);
    for (const [key, value] of Object.entries(sent)) {
      if (path === '$' && key === '$schema') continue;
      dropped(value, (back as Record<string, unknown>)[key], `${path}.${key}`, problems);
    }
  } else {
    const same = typeof sent === 'string' && typeof back === 'string' ? sent.toLowerCase() === back.toLowerCase() : sent === back;
    if (!same) problems.push(`dropped: ${path} = ${JSON.stringify(sent)} (came back as ${JSON.stringify(back)})`);
  }
}
