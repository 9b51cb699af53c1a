import { z } from 'zod';

import { plainIssue } from './plain-issue.js';

/**
 * A setting whose value is a JSON list of entries (CANDOR_EXPERTS, CANDOR_CHANNELS): parsed, each entry
 * checked by `entry`; a bad value fails start-up with the entry at fault named ("[1].people: …"), and the
 * error adds an example (setting-examples.ts).
 */
export function jsonListSetting<T extends z.ZodType>(entry: T, options: { readonly what: string; readonly max?: number }) {
  return z.string().transform((text, ctx): z.output<T>[] => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `expected a JSON list of ${options.what} (this is not valid JSON)` });
      return z.NEVER;
    }
    if (!Array.isArray(json)) {
      ctx.addIssue({ code: 'custom', message: `expected a JSON list [...] of ${options.what}` });
      return z.NEVER;
    }
    const parsed = z
      .array(entry)
      .max(options.max ?? 1000)
      .safeParse(json);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.issues.map((i) => `${entryPath(i.path)}${plainIssue(i)}`).join('; '),
      });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** "[0]: ", "[1].people: ", or nothing for the list itself. */
function entryPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '';
  const [first, ...rest] = path;
  return `[${String(first)}]${rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: `;
}
