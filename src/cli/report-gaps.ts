import type { Services } from '../ask/services.js';
import { GAP_STATES, kbGapReport, type GapReport, type GapState } from '../gaps/kb-gaps.js';
import type { Out } from './cli-context.js';
import { count } from './format.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'indexes' | 'config'>;

export interface ReportGapsOptions {
  /** @default CANDOR_KB */
  readonly kb?: string | undefined;
  /** The window in days, parsed by the command line. @default 30 */
  readonly days?: number | undefined;
  readonly json?: boolean | undefined;
}

/** `candor report gaps [--kb NAME] [--days N] [--json]`. */
export async function reportGaps(app: CommandServices, options: ReportGapsOptions, out: Out): Promise<number> {
  const days = options.days ?? 30;
  const report = await kbGapReport(app.store.db, app.indexes, { kb: options.kb ?? app.config.kb.defaultName, days });
  out(options.json ? JSON.stringify(report) : formatGaps(report));
  return 0;
}

/** What a state reads as in a terminal. */
const STATE_TEXT: Readonly<Record<GapState, string>> = {
  open: 'open',
  asked: 'asked (posted to experts)',
  answered: 'answered',
  out_of_scope: 'out of scope',
};

/** The report as text for a terminal: a states line, then one block per gap, largest first. */
export function formatGaps(report: GapReport): string {
  const head =
    `KB gaps in "${report.kb.name}" (version ${report.kb.version}), last ${count(report.days, 'day')}: ` +
    `${count(report.refusals, 'refusal')}, ${count(report.distinctQuestions, 'distinct question')}, ${count(report.groups.length, 'gap')} on ${count(report.topics.length, 'topic')}` +
    (report.failures > 0 ? ` (and ${report.failures} fail-closed refusals, which are faults, not gaps)` : '') +
    (report.truncated ? ' (the newest refusals only)' : '');
  if (report.groups.length === 0) return `${head}\nNothing refused for lack of knowledge in this window.`;
  const states =
    `States: ${GAP_STATES.map((s) => `${report.states[s]} ${s.replaceAll('_', ' ')}`).join(', ')}; ` +
    `${(report.answeredShare * 100).toFixed(1)}% of these refusals are answered by experts`;
  const blocks = report.groups.map((g) => {
    const reasons = Object.entries(g.reasons)
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    const closed = g.state === 'answered' || g.state === 'out_of_scope';
    const by = g.answer?.by ?? null;
    const state =
      g.state === 'answered' && g.factId !== null
        ? `answered by fact ${g.factId}${by ? ` (${by})` : ''}`
        : `${STATE_TEXT[g.state]}${closed && g.closedAt ? ` on ${g.closedAt.slice(0, 10)}` : ''}${reopenedText(g)}`;
    const line =
      `     gap ${g.id} · ${state} · ${g.askers} asker${g.askers === 1 ? '' : 's'}${g.apiAskers > 0 ? ` (${g.apiAskers} API)` : ''}` +
      `${g.requests > 0 ? `, ${g.requests} asked for an expert` : ''} · first asked ${shortTime(g.firstAsked)}, last ${shortTime(g.lastAsked)}`;
    const examples = g.examples.map((e) => `     - ${e.question}${e.times > 1 ? ` (${e.times}×)` : ''}`);
    const answer = g.state === 'answered' && g.answer ? [`     answer: ${g.answer.text}`] : [];
    return [`  ${String(g.count).padStart(4)}× ${g.topic}  (${g.questions} questions; ${reasons})`, line, ...answer, ...examples].join(
      '\n',
    );
  });
  const topics = [
    'By topic:',
    ...report.topics.map((t) => `  ${String(t.count).padStart(4)}× ${t.topic}  (gaps ${t.gapIds.join(', ')})`),
    '',
    'Gaps:',
  ];
  const next = report.groups.some((g) => g.state === 'open' || g.state === 'asked')
    ? ['', 'Close a gap: candor gaps answer GAP_ID --text TEXT --as NAME, or candor gaps dismiss GAP_ID --as NAME']
    : [];
  return [head, states, '', ...topics, ...blocks, ...next].join('\n');
}

/** Why an answered gap is open again, for its state. */
function reopenedText(g: GapReport['groups'][number]): string {
  if (!g.reopened) return '';
  return g.reopened.because === 'fact_retired'
    ? ' (again: its fact was retired)'
    : ` (again: fact ${g.factId} is due for re-confirmation; candor kb confirm ${g.factId} --as NAME)`;
}

function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
