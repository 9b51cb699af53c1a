import type { Command } from 'commander';

import type { Services } from '../ask/services.js';
import { GAP_STATES, kbGapReport, type GapReport, type GapState } from '../gaps/kb-gaps.js';
import type { Cli } from './cli-context.js';
import { jsonOption, kbOption, wholeNumber } from './cli-options.js';
import { count } from './format.js';
import { reportCommand } from './review-commands.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'store' | 'indexes' | 'config'>;

/** `candor report gaps [--kb NAME] [--days N] [--json]`. */
export async function gapsCommand(
  app: CommandServices,
  values: { kb?: string | undefined; days?: number | undefined; json?: boolean | undefined },
  out: (text: string) => void,
): Promise<number> {
  const days = values.days ?? 30;
  const report = await kbGapReport(app.store.db, app.indexes, { kb: values.kb ?? app.config.kb.defaultName, days });
  out(values.json ? JSON.stringify(report) : formatGaps(report));
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

/** `candor report agreement|gaps`. */
export function registerReport(program: Command, cli: Cli): void {
  const report = program.command('report').description('reports: judge–human agreement, knowledge-base gaps');
  report
    .command('agreement')
    .description('the latest judge–human agreement report (kappa, alpha, disagreements)')
    .option('--task <task>', 'only this task')
    .option('--run', 'make one now')
    .addOption(jsonOption('the report as one JSON object ({"report":null,…} when there is none yet)'))
    .action(async (opts: { task?: string; run?: boolean; json?: boolean }) =>
      cli.done(
        await cli.withApp('report agreement', (app) =>
          reportCommand(app, { positionals: ['report', 'agreement'], values: opts }, cli.print),
        ),
      ),
    );
  report
    .command('gaps')
    .description('refused questions grouped into gaps, with their state (open, asked, answered, out of scope)')
    .addOption(kbOption())
    .option('--days <n>', 'the window: refusals of the last N days (default 30)', wholeNumber(1, 3650))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nEach gap has an id and a state: open, asked (posted to the KB’s experts), answered (by an expert fact) or\n' +
        'out_of_scope, with its askers (HTTP and CLI asks as API) and first/last asked; an answered gap open again\n' +
        'says why (its fact due for re-confirmation, or retired). --json groups carry id, state, factId, answer,\n' +
        'askers, apiAskers, reopened, firstAsked, lastAsked.',
    )
    .action(async (opts: { kb?: string; days?: number; json?: boolean }) =>
      cli.done(await cli.withApp('report gaps', (app) => gapsCommand(app, opts, cli.print))),
    );
}
