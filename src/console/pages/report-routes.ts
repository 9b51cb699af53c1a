import type { ConsoleGaps } from '../console-gaps.js';
import type { ConsoleReads } from '../console-reads.js';
import { agreementPage } from './agreement-page.js';
import type { ConsoleRequest } from './console-context.js';
import { timeWindow } from './console-filters.js';
import { gapViewer } from './gap-routes.js';
import { GAP_STATE_TEXT, gapsPage } from './gaps-page.js';
import { overviewPage } from './overview-page.js';

/** What the read-only report pages read. */
export interface ReportDeps {
  readonly reads: ConsoleReads;
  readonly defaultKb: string;
  readonly now: () => number;
}

/** `/`: the overview of the chosen window (`?days=`, or `?from=` and `?to=`), of one KB or all. */
export async function overviewRoute(deps: ReportDeps, r: ConsoleRequest): Promise<true> {
  const window = timeWindow(r.q, deps.now());
  const [measured, feedback] = await Promise.all([
    deps.reads.overview({ from: window.from, to: window.to, bucket: window.bucket, kb: r.kb }),
    deps.reads.feedbackSummary(window.from, r.kb),
  ]);
  return r.page('Overview', '/', overviewPage(measured, window, r.kb, feedback));
}

/**
 * `/gaps`: a KB's gaps report over 7, 30 or 90 days, optionally of one state; always of one KB (the default one).
 * The KB's console experts get each open gap's answer and "not for the KB" forms.
 */
export async function gapsRoute(deps: ReportDeps & { gaps?: ConsoleGaps | undefined }, r: ConsoleRequest): Promise<true> {
  const chosen = r.kb ?? deps.defaultKb;
  const days = [7, 30, 90].find((d) => d === Number(r.q('days'))) ?? 30;
  const state = Object.keys(GAP_STATE_TEXT).find((s) => s === r.q('state')) as keyof typeof GAP_STATE_TEXT | undefined;
  const report = r.kbs.includes(chosen) ? await deps.reads.gaps({ kb: chosen, days, now: new Date(deps.now()) }) : null;
  return r.page('KB gaps', '/gaps', gapsPage(report, r.kbs, chosen, days, state, deps.gaps && gapViewer(deps.gaps, r, chosen)), {
    kb: chosen,
  });
}

/** `/agreement`: the stored agreement reports, and the latest one's disagreements (of the chosen KB's items). */
export async function agreementRoute(deps: ReportDeps, r: ConsoleRequest): Promise<true> {
  const history = await deps.reads.agreementHistory();
  const latest = history[0]?.report;
  const disagreements = latest ? await deps.reads.disagreements(latest, r.kb) : null;
  return r.page('Agreement', '/agreement', agreementPage(history, disagreements, r.kb));
}
