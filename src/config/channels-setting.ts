import { z } from 'zod';

import { jsonListSetting } from './json-list-setting.js';

/**
 * Where a conversation is: a Slack channel id (C…, G…), `dm` for Slack direct messages, a Teams conversation or
 * team id, or `personal` for Teams personal chats.
 */
export interface ChannelEntry {
  readonly platform: 'slack' | 'teams';
  readonly where: string;
  /** The knowledge bases that answer here, searched together (each citation names its KB). */
  readonly kbs: readonly string[];
  /** Only messages that mention the bot are questions. @default false in a mapped channel (true where unmapped) */
  readonly mentionOnly: boolean;
  /** `thread`: a reply in the question's thread; `ephemeral`: only the asker sees it. @default 'thread' */
  readonly reply: 'thread' | 'ephemeral';
  /** The entry applies only to members of this group ("slack:group:S…"); unset: to everyone. */
  readonly askers?: string | undefined;
}

/** A CANDOR_CHANNELS value that works. */
export const CHANNELS_EXAMPLE =
  '[{"slack":"C0HR","kb":"hr"},{"slack":"C0IT","kbs":["it","security"],"mentionOnly":true},{"slack":"dm","kbs":["hr","it"]}]';

const kbName = z.string().regex(/^[\w.-]{1,64}$/, 'expected a KB name of letters, digits, _ . -');

const Entry = z
  .object({
    slack: z
      .string()
      .regex(/^([CGD][A-Z0-9]{2,}|dm)$/, 'expected a Slack channel id (C…) or "dm"')
      .optional(),
    teams: z.string().min(1).max(512).optional(),
    kb: kbName.optional(),
    kbs: z.array(kbName).min(1, 'name at least one KB').max(8, 'at most 8 KBs are searched together').optional(),
    mentionOnly: z.boolean().optional(),
    reply: z.enum(['thread', 'ephemeral']).default('thread'),
    askers: z
      .string()
      .regex(/^slack:group:S[A-Z0-9]+$/, 'expected a Slack user group, "slack:group:S…"')
      .optional(),
  })
  .strict()
  .refine((e) => (e.slack === undefined) !== (e.teams === undefined), { message: 'give exactly one of "slack" and "teams"' })
  .refine((e) => (e.kb === undefined) !== (e.kbs === undefined), { message: 'give exactly one of "kb" and "kbs"' })
  .refine((e) => e.askers === undefined || e.slack !== undefined, { message: '"askers" is a Slack user group: Slack entries only' })
  .refine((e) => !(e.reply === 'ephemeral' && (e.slack === 'dm' || e.teams !== undefined)), {
    message: '"reply":"ephemeral" is for Slack channels (a DM is already private; Teams has no ephemeral messages)',
  });

/**
 * CANDOR_CHANNELS: a JSON list of conversations → knowledge bases (see
 * ChannelEntry). Entries are tried in order; the first whose place matches
 * (and whose `askers` group holds the asker) decides. CANDOR_KB answers
 * everywhere else.
 */
export const channelsSetting = jsonListSetting(Entry, { what: 'channels and their KBs' }).transform((list, ctx) => {
  const seen = new Set<string>();
  const entries = list.map((e): ChannelEntry => {
    const platform = e.slack === undefined ? 'teams' : 'slack';
    const where = (e.slack ?? e.teams) as string;
    const key = `${platform}:${where}:${e.askers ?? ''}`;
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', message: `${platform} "${where}"${e.askers ? ` for ${e.askers}` : ''} is listed twice` });
    seen.add(key);
    const direct = where === 'dm' || where === 'personal';
    return {
      platform,
      where,
      kbs: [...new Set(e.kbs ?? [e.kb as string])],
      mentionOnly: direct ? false : (e.mentionOnly ?? false),
      reply: e.reply,
      ...(e.askers ? { askers: e.askers } : {}),
    };
  });
  return entries;
});

/** Every KB a channel mapping names, and the default: what must exist for the bot to answer everywhere. */
export function mappedKbs(entries: readonly ChannelEntry[], defaultKb: string): string[] {
  return [...new Set([defaultKb, ...entries.flatMap((e) => e.kbs)])];
}

/**
 * The one line to warn with when CANDOR_CHANNELS maps conversations of a chat channel that is off (nobody
 * can ask there), naming them and what turns the channel on; null when every mapped channel is on.
 */
export function channelsOff(entries: readonly ChannelEntry[], on: { readonly slack: boolean; readonly teams: boolean }): string | null {
  const off = (['slack', 'teams'] as const).flatMap((platform) => {
    const wheres = [...new Set(entries.filter((e) => e.platform === platform).map((e) => e.where))];
    if (on[platform] || wheres.length === 0) return [];
    const shown = wheres.length > 5 ? [...wheres.slice(0, 5), `and ${wheres.length - 5} more`] : wheres;
    return [
      platform === 'slack'
        ? { name: 'Slack', where: `Slack ${shown.join(', ')}`, set: 'SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN)' }
        : { name: 'Teams', where: `Teams ${shown.join(', ')}`, set: 'MICROSOFT_APP_ID (with MICROSOFT_APP_PASSWORD)' },
    ];
  });
  if (off.length === 0) return null;
  const and = (parts: readonly string[]) => parts.join(' and ');
  return (
    `CANDOR_CHANNELS maps ${and(off.map((o) => o.where))}, but ${and(off.map((o) => o.name))} ${off.length === 1 ? 'is' : 'are'} off, ` +
    `so nobody can ask there: set ${and(off.map((o) => o.set))}, or remove those entries`
  );
}
