import type { webApi } from '@slack/bolt';

import type { Log } from '../../log.js';
import { describeSlackError } from './working-reaction.js';

/** How long a user group's member list is trusted before it is read again. */
const MEMBERS_TTL_MS = 5 * 60_000;

/**
 * Reviewers by Slack user group: CANDOR_REVIEWERS entries "slack:group:S…"
 * make every member of that group a reviewer. Members are read with
 * usergroups.users.list and cached; a failed read counts nobody and is
 * retried on the next label.
 */
export function slackGroupReviewers(client: webApi.WebClient, reviewers: readonly string[], log: Log): (user: string) => Promise<boolean> {
  const groups = reviewers.filter((r) => r.startsWith('slack:group:')).map((r) => r.slice('slack:group:'.length));
  const groupMembers = new Map<string, { at: number; members: Promise<Set<string>> }>();
  return async (user) => {
    for (const group of groups) {
      let cached = groupMembers.get(group);
      if (!cached || Date.now() - cached.at > MEMBERS_TTL_MS) {
        const members = client.usergroups.users
          .list({ usergroup: group })
          .then((r) => new Set(r.users ?? []))
          .catch((error: unknown) => {
            log('warn', 'slack: could not read a reviewer user group', { group, code: describeSlackError(error) });
            groupMembers.delete(group);
            return new Set<string>();
          });
        cached = { at: Date.now(), members };
        groupMembers.set(group, cached);
      }
      if ((await cached.members).has(user)) return true;
    }
    return false;
  };
}
