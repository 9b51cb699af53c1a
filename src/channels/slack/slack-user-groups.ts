import type { webApi } from '@slack/bolt';

import type { Log } from '../../kernel/log.js';
import { describeSlackError } from './working-reaction.js';

/** How long a user group's member list is trusted before it is read again. */
const MEMBERS_TTL_MS = 5 * 60_000;

const GROUP_PREFIX = 'slack:group:';

/** Whether `user` belongs to one of the Slack user groups named in `people` ("slack:group:S…"). */
export type SlackGroupMembership = (people: readonly string[], user: string) => Promise<boolean>;

/**
 * Membership of Slack user groups, as CANDOR_REVIEWERS and CANDOR_EXPERTS
 * name them ("slack:group:S…"): read with usergroups.users.list and cached
 * per group; a failed read counts nobody and is retried on the next check.
 */
export function slackUserGroups(client: webApi.WebClient, log: Log): SlackGroupMembership {
  const groupMembers = new Map<string, { at: number; members: Promise<Set<string>> }>();
  const membersOf = (group: string) => {
    let cached = groupMembers.get(group);
    if (!cached || Date.now() - cached.at > MEMBERS_TTL_MS) {
      const members = client.usergroups.users
        .list({ usergroup: group })
        .then((r) => new Set(r.users ?? []))
        .catch((error: unknown) => {
          log('warn', 'slack: could not read a user group', { group, code: describeSlackError(error) });
          groupMembers.delete(group);
          return new Set<string>();
        });
      cached = { at: Date.now(), members };
      groupMembers.set(group, cached);
    }
    return cached.members;
  };
  return async (people, user) => {
    for (const entry of people) {
      if (!entry.startsWith(GROUP_PREFIX)) continue;
      if ((await membersOf(entry.slice(GROUP_PREFIX.length))).has(user)) return true;
    }
    return false;
  };
}
