import type { ExpectedAnswer } from './types.js';

const NUMBER_WORD =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|once|twice|single|dozen|half|a few|several)\b/i;
const DIGIT = /\d/;
const MONEY = /[$€£¥]|\b(?:free|waived|no (?:fee|charge|cost)|at no cost|percent|dollars?|cents?|sgd|usd)\b|%/i;
const TIME_UNIT =
  /\b(?:seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|years?|working days?|pay periods?|semesters?|terms?|immediately|instantly)\b/i;
const DATE_WORD =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|annually|yearly|monthly|weekly|daily|before|after|until|by the|upon|once|when|age|deadline)\b/i;
const PARTY =
  /\p{Lu}\p{Ll}+|\b(?:you|employer|employee|applicant|owner|member|officer|agency|board|ministry|department|bank|spouse|parent|guardian|doctor|insurer|government)\b/iu;

/** Whether a fact's text holds the kind of value a question expects. */
export function expectedValueIn(expects: ExpectedAnswer, text: string): boolean {
  switch (expects) {
    case 'amount':
      // "How much leave…" is answered by "ten days" as well as by "$200" or "10 days".
      return MONEY.test(text) || DIGIT.test(text) || (NUMBER_WORD.test(text) && TIME_UNIT.test(text));
    case 'number':
      return DIGIT.test(text) || NUMBER_WORD.test(text);
    case 'duration':
      // "6 weeks", "a six-week sabbatical", "two-year", "a month": a count in figures or words, with a unit of time.
      return (
        (DIGIT.test(text) || NUMBER_WORD.test(text) || /\b(?:a|an)\s+(?:day|week|fortnight|month|year)\b/i.test(text)) &&
        TIME_UNIT.test(text)
      );
    case 'date':
      return DIGIT.test(text) || DATE_WORD.test(text);
    case 'party':
      return PARTY.test(text);
  }
}
