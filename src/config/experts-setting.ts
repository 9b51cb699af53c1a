import { z } from 'zod';

import { jsonListSetting } from './json-list-setting.js';

/** One KB's experts: where questions for them go, who may answer, and how answers age. */
export interface ExpertsEntry {
  readonly kb: string;
  /** The Slack channel questions are posted to (C…). */
  readonly slack?: string | undefined;
  /** The Teams conversation questions are posted to ("serviceUrl|conversationId"). */
  readonly teams?: string | undefined;
  /** Who may answer: "slack:U…", "slack:group:S…", "teams:<aad id>", "cli:NAME", "console:NAME" (a console basic-auth user). */
  readonly people: readonly string[];
  /** Route every refusal for lack of knowledge to the experts without waiting for the asker to press. @default false */
  readonly autoAsk: boolean;
  /** Expert answers stop being used this many days after they were given (re-confirm to renew); unset: never. */
  readonly reconfirmDays?: number | undefined;
}

/** A CANDOR_EXPERTS value that works. */
export const EXPERTS_EXAMPLE = '[{"kb":"handbook","slack":"C0EXPERTS","people":["slack:U012ABC","slack:group:S0HR","cli:dana"]}]';

const Entry = z
  .object({
    kb: z.string().regex(/^[\w.-]{1,64}$/, 'expected a KB name of letters, digits, _ . -'),
    slack: z
      .string()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'expected a Slack channel id (C…)')
      .optional(),
    teams: z
      .string()
      .regex(/^https?:\/\/[^|]+\|.+$/, 'expected "serviceUrl|conversationId" of a Teams channel or chat')
      .optional(),
    people: z
      .array(
        z
          .string()
          .regex(
            /^(slack:(group:)?|teams:|cli:|console:)\S+$/,
            'expected "slack:U…", "slack:group:S…", "teams:ID", "cli:NAME" or "console:NAME"',
          ),
      )
      .min(1, 'name at least one expert'),
    autoAsk: z.boolean().default(false),
    reconfirmDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict();

/**
 * CANDOR_EXPERTS: a JSON list of KB → experts (see ExpertsEntry). A bad value
 * fails start-up with the setting named and the entry at fault.
 */
export const expertsSetting = jsonListSetting(Entry, { what: 'KB experts' }).transform((list, ctx): ExpertsEntry[] => {
  const seen = new Set<string>();
  for (const entry of list) {
    if (seen.has(entry.kb)) ctx.addIssue({ code: 'custom', message: `KB "${entry.kb}" is listed twice` });
    seen.add(entry.kb);
  }
  return list;
});

/** Whether `platform:user` is one of the people listed by id (groups are checked by the channel that knows them). */
export function isListedExpert(people: readonly string[], platform: string, user: string): boolean {
  return people.includes(`${platform}:${user}`);
}
