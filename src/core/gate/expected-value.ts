import type { ExpectedAnswer } from './types.js';

const NUMBER_WORD =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|once|twice|single|dozen|half)\b/i;
const DIGIT = /\d/;
const MONEY = /[$€£¥]|\b(?:free|waived|no (?:fee|charge|cost)|at no cost|percent|dollars?|cents?|sgd|usd)\b|%/i;
const TIME_UNIT = /\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|working days?|immediately|instantly)\b/i;
const DATE_WORD =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|annually|yearly|monthly|weekly|daily|before|after|until|by the|upon|once|when|age|deadline)\b/i;
const PARTY =
  /\p{Lu}\p{Ll}+|\b(?:you|employer|employee|applicant|owner|member|officer|agency|board|ministry|department|bank|spouse|parent|guardian|doctor|insurer|government)\b/iu;

/** Whether a fact's text holds the kind of value a question expects. */
export function expectedValueIn(expects: ExpectedAnswer, text: string): boolean {
  switch (expects) {
    case 'amount':
      return MONEY.test(text) || DIGIT.test(text);
    case 'number':
      return DIGIT.test(text) || NUMBER_WORD.test(text);
    case 'duration':
      return (DIGIT.test(text) || NUMBER_WORD.test(text) || /\b(?:a|an)\s+(?:day|week|month|year)\b/i.test(text)) && TIME_UNIT.test(text);
    case 'date':
      return DIGIT.test(text) || DATE_WORD.test(text);
    case 'party':
      return PARTY.test(text);
  }
}
