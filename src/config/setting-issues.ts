import { z } from 'zod';

import { plainIssue } from './plain-issue.js';
import { forExample } from './setting-examples.js';
import { isSecret, settingsSchema } from './settings-schema.js';

/** Values longer than this are shown cut, with an ellipsis. */
const SHOWN_CHARS = 60;

/**
 * What is wrong with one setting's value, as a sentence a person acts on: what was given (a secret is
 * never shown), what the setting takes, and a value that works. Written after "NAME: ":
 * `"abc" is not a whole number from 0 to 65535; for example PORT=3000`.
 */
export function settingIssue(name: string, value: unknown, issue: z.core.$ZodIssue): string {
  const given = isSecret(name) ? 'the value given (not shown: it is a secret)' : shown(value);
  const takes = requirement(name, issue);
  return `${given} ${takes === null ? `is not valid: ${plainIssue(issue)}` : `is not ${takes}`}${forExample(name)}`;
}

/** The value as given, in quotes, cut when long. */
export function shown(value: unknown): string {
  const text = String(value);
  return `"${text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text}"`;
}

/** What the setting takes ("a whole number from 0 to 65535", "one of info, warn"), or null when only the issue's own words say it. */
function requirement(name: string, issue: z.core.$ZodIssue): string | null {
  if (issue.code === 'invalid_value') return `one of ${issue.values.map(String).join(', ')}`;
  const number = numberRange(name);
  if (number !== null) return number;
  if (issue.code === 'invalid_format' && issue.format === 'url') return 'a URL (http:// or https://)';
  // our own messages say what is expected: "expected a bot token (xoxb-…)"
  if (issue.message.startsWith('expected ')) return issue.message.slice('expected '.length);
  return null;
}

/** "a whole number from 1 to 50", "a number above 0 and below 1", "a whole number of 65,536 or more"; null for a setting that is not a number. */
function numberRange(name: string): string | null {
  const schema = (settingsSchema.shape as Record<string, z.ZodType>)[name];
  if (schema === undefined) return null;
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as {
    type?: string;
    minimum?: number;
    maximum?: number;
    exclusiveMinimum?: number;
    exclusiveMaximum?: number;
  };
  if (json.type !== 'number' && json.type !== 'integer') return null;
  const kind = json.type === 'integer' ? 'a whole number' : 'a number';
  const n = String;
  const max = json.maximum !== undefined && json.maximum < Number.MAX_SAFE_INTEGER ? json.maximum : undefined;
  if (json.exclusiveMinimum !== undefined && json.exclusiveMaximum !== undefined)
    return `${kind} above ${n(json.exclusiveMinimum)} and below ${n(json.exclusiveMaximum)}`;
  if (json.minimum !== undefined && max !== undefined) return `${kind} from ${n(json.minimum)} to ${n(max)}`;
  if (json.minimum !== undefined) return `${kind} of ${n(json.minimum)} or more`;
  if (max !== undefined) return `${kind} of ${n(max)} or less`;
  return kind;
}
