import type { StatusReport } from '../../ask/status-report.js';
import { describeError } from '../../kernel/errors.js';
import { withinTime } from '../../kernel/within-time.js';
import type { ChatServices } from './chat-services.js';

/**
 * How long the status query may take on any chat channel. Slack answers 404 to
 * a slash command not acknowledged within 3 s, so it gets less than that; a
 * Teams user waits no longer.
 */
export const STATUS_BUDGET_MS = 2000;

export const STATUS_UNAVAILABLE = "I can't read my status right now: the database did not answer. Please try again later.";

/**
 * The reply to the `status` command on every chat channel: the configured
 * default knowledge base's status in plain words, or, when the query fails or
 * takes longer than the budget, a message saying so (the error is logged).
 */
export async function statusReply(
  services: Pick<ChatServices, 'status' | 'config' | 'log'>,
  channel: 'slack' | 'teams',
  budgetMs = STATUS_BUDGET_MS,
  kbs: readonly string[] = [services.config.kb.defaultName],
): Promise<string> {
  try {
    const reports = await withinTime(Promise.all(kbs.map((kb) => services.status(kb))), budgetMs, () => {
      throw new Error(`status took longer than ${budgetMs} ms`);
    });
    return reports.map(formatStatusReport).join('\n');
  } catch (error) {
    services.log('error', `${channel}: status failed`, { error: describeError(error) });
    return STATUS_UNAVAILABLE;
  }
}

/** The report in plain words (Slack mrkdwn; Teams renders the asterisks as bold too). */
export function formatStatusReport(r: StatusReport): string {
  const kbLine =
    r.version === null
      ? `Knowledge base *${r.kb}* does not exist yet: ingest documents with \`candor ingest PATH --kb ${r.kb}\`.`
      : `Knowledge base *${r.kb}*: version ${r.version}, ${r.facts} facts from ${r.documents} documents.`;
  const rate =
    r.today.asked === 0
      ? 'no questions yet'
      : `${r.today.abstained} of ${r.today.asked} abstained (${((r.today.abstained / r.today.asked) * 100).toFixed(1)}%)`;
  return `${kbLine}\nToday (since 00:00 UTC): ${rate}.`;
}
