import { z } from 'zod';

/** A reviewer entry: a platform and an id, or (as chat platforms send them) a bare Slack user id or Teams AAD object id. */
const PREFIXED = /^(slack:(group:)?|teams:|cli:|console:)\S+$/;
const BARE_CHAT_ID = /^([UW][A-Z0-9]{2,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * CANDOR_REVIEWERS: who may label, comma-separated ("slack:U…", "slack:group:S…", "teams:<AAD id>",
 * "cli:NAME", "console:NAME"). Checked at start, as CANDOR_EXPERTS is: a name without its platform
 * ("dana") would count for nobody, and was found out only at the first label.
 */
export const reviewersSetting = z.string().transform((text, ctx): string[] => {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !PREFIXED.test(entry) && !BARE_CHAT_ID.test(entry));
  if (bad.length > 0) {
    const [first] = bad as [string];
    ctx.addIssue({
      code: 'custom',
      message:
        `${bad.map((entry) => `"${entry}"`).join(', ')} ${bad.length === 1 ? 'names' : 'name'} no platform: write cli:${first} to label ` +
        `from a terminal or console:${first} in the console (chat reviewers are slack:U…, slack:group:S… or teams:<AAD id>)`,
    });
  }
  return entries;
});
