import type { ChannelEntry } from '../../config/channels-setting.js';

/** Where a message was written, as the channel mapping reads it. */
export interface Place {
  readonly platform: 'slack' | 'teams';
  /** A direct message (Slack) or personal chat (Teams). */
  readonly direct: boolean;
  /** The ids the place answers to, most specific first: channel or conversation id, then team id. */
  readonly ids: readonly string[];
}

/** What answers in a place, and how. */
export interface ChannelRoute {
  readonly kbs: readonly string[];
  /** Only messages that mention the bot are questions here. */
  readonly mentionOnly: boolean;
  readonly reply: 'thread' | 'ephemeral';
  /** True when an entry of CANDOR_CHANNELS decided; false: the default (CANDOR_KB). */
  readonly mapped: boolean;
}

/** Whether a user belongs to a group ("slack:group:S…"); a failed lookup is "no". */
export type IsMember = (group: string, user: string) => Promise<boolean>;

/** The entries that name this place, in order (their `askers` not yet checked). */
export function entriesFor(entries: readonly ChannelEntry[], place: Place): ChannelEntry[] {
  const names = place.direct ? [place.platform === 'slack' ? 'dm' : 'personal'] : place.ids;
  return entries.filter((e) => e.platform === place.platform && names.includes(e.where));
}

/** The default route: CANDOR_KB, mentions only outside direct messages, replies in the thread. */
export function defaultRoute(defaultKb: string, place: Pick<Place, 'direct'>): ChannelRoute {
  return { kbs: [defaultKb], mentionOnly: !place.direct, reply: 'thread', mapped: false };
}

function toRoute(e: ChannelEntry): ChannelRoute {
  return { kbs: e.kbs, mentionOnly: e.mentionOnly, reply: e.reply, mapped: true };
}

/**
 * The route of a place for an asker: the first entry naming the place whose
 * `askers` group holds the user (or that has none); the default otherwise.
 * Without a user (or a membership lookup), entries limited to a group are skipped.
 */
export async function routeFor(
  entries: readonly ChannelEntry[],
  defaultKb: string,
  place: Place,
  asker?: { readonly user: string; readonly isMember: IsMember },
): Promise<ChannelRoute> {
  for (const e of entriesFor(entries, place)) {
    if (e.askers === undefined) return toRoute(e);
    if (asker && (await asker.isMember(e.askers, asker.user).catch(() => false))) return toRoute(e);
  }
  return defaultRoute(defaultKb, place);
}

/**
 * Whether a message that does not mention the bot may be a question here: some
 * entry naming the place answers without a mention. Synchronous, for the
 * receiver's first look; `routeFor` decides once the asker is known.
 */
export function answersUnmentioned(entries: readonly ChannelEntry[], place: Place): boolean {
  if (place.direct) return true;
  return entriesFor(entries, place).some((e) => !e.mentionOnly);
}

/** The mapping in lines a person reads (`candor channels`, `/candor status`). */
export function describeRoute(route: ChannelRoute): string {
  const kbs = route.kbs.map((k) => `*${k}*`).join(' and ');
  const how = [route.mentionOnly ? 'when mentioned' : 'every question', route.reply === 'ephemeral' ? 'replies only the asker sees' : ''];
  return `${route.kbs.length > 1 ? 'Knowledge bases' : 'Knowledge base'} ${kbs} answer${route.kbs.length > 1 ? '' : 's'} here (${how.filter(Boolean).join(', ')}${route.mapped ? '' : '; the default, CANDOR_KB'}).`;
}
