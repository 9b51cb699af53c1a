import type { z } from 'zod';

/** The words zod uses when a schema gives none of its own: "Invalid input: expected boolean, received string". */
const ZOD_WORDS = /^(Invalid (input|option|key|element|union|URL|string|value)|Too (small|big)|Unrecognized key)/;

const TYPES: Readonly<Record<string, string>> = {
  boolean: 'true or false',
  number: 'a number',
  int: 'a whole number',
  string: 'text in quotes',
  array: 'a list [...]',
  object: 'an object {...}',
};

/**
 * An issue inside a JSON setting as a person reads it ("must be true or false", "has an unknown field "slak"");
 * the schema's own message where it gave one.
 */
export function plainIssue(issue: z.core.$ZodIssue): string {
  if (!ZOD_WORDS.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // zod leaves the input out of an issue unless asked: its message says what it received
      return / received undefined$/.test(issue.message) ? 'is missing' : `must be ${TYPES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'an unknown field' : 'unknown fields'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `must hold at least ${issue.minimum} ${Number(issue.minimum) === 1 ? 'item' : 'items'}`
        : `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `must hold at most ${issue.maximum} items`
        : `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be a URL (http:// or https://)' : `must be ${issue.format}`;
    default:
      return 'is not valid';
  }
}
