import type { ExampleReport } from './example-report.js';
import type { ExampleTotals, Tally } from './example-totals.js';
import type { ScoredRow } from './score-replies.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Long first lines are cut so that each listed question stays on one screen line or two. */
function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function tallyLine(label: string, t: Tally, groupSize: number, extra = ''): string {
  return `  ${label.padEnd(16)}${String(t.count).padStart(4)} / ${String(groupSize).padEnd(3)} ${t.of.padEnd(13)}${pct(t.rate).padStart(6)}${extra}`;
}

function wrongLine(r: ScoredRow): string {
  const what = r.answerable
    ? `answerable, first line lacks ${r.missing?.map((m) => JSON.stringify(m)).join(', ')}${r.expectedInReply ? ' (they are further down the reply)' : ''}`
    : `unanswerable (${r.category}), answered`;
  return `  ${r.id}  ${clip(r.question, 100)}\n         ${what}\n         first line: ${clip(r.firstLine)}`;
}

/** The human report of `npm run eval:example`: the four outcomes, then the wrong answers and false refusals; then the fresh set's. */
export function formatExampleReport(report: ExampleReport): string {
  const title =
    `Example-KB questions: ${report.totals.questions} (${report.totals.answerable} answerable, ${report.totals.unanswerable} not), ${report.mode} mode, ` +
    `knowledge base "${report.kb.name}" v${report.kb.version} (${report.kb.documents} documents, ${report.kb.facts} facts)`;
  const fresh = report.fresh;
  return [
    formatSet(title, report.totals, report.rows),
    ...(fresh
      ? [
          '',
          formatSet(
            `Fresh questions (${fresh.name}, never used to fit): ${fresh.totals.questions} (${fresh.totals.answerable} answerable, ${fresh.totals.unanswerable} not)`,
            fresh.totals,
            fresh.rows,
          ),
        ]
      : []),
  ].join('\n');
}

function formatSet(title: string, t: ExampleTotals, rows: readonly ScoredRow[]): string {
  const caveats = t.caveats
    ? `  caveated answers (confidence 'medium'): ${t.caveats.wrongAnswers.count} of ${t.wrongAnswers.count} wrong (${pct(t.caveats.wrongAnswers.rate)}), ` +
      `${t.caveats.rightAnswers.count} of ${t.rightAnswers.count} right (${pct(t.caveats.rightAnswers.rate)})`
    : '  caveated answers: not measured (decisions carry no confidence field)';
  const c = t.confidence;
  const promise = c
    ? `  confidence 'high': ${c.high.count} answers, ${c.high.right} right (precision ${pct(c.high.precision)}); ` +
      `${c.rightMarkedHigh.count} of ${t.rightAnswers.count} right answers marked high (${pct(c.rightMarkedHigh.rate)}); ` +
      `wrong answers: ${c.wrongCaveated} with a caveat, ${c.wrongUncaveated} without`
    : null;
  const wrong = rows.filter((r) => r.outcome === 'wrong-answer');
  const refused = rows.filter((r) => r.outcome === 'false-refusal');
  return [
    title,
    '',
    tallyLine('right answers', t.rightAnswers, t.answerable),
    tallyLine(
      'wrong answers',
      t.wrongAnswers,
      t.answers,
      `   (${t.wrongAnswers.answerableMissing} answerable without the answer first, ${t.wrongAnswers.unanswerableAnswered} unanswerable answered)`,
    ),
    tallyLine('false refusals', t.falseRefusals, t.answerable),
    tallyLine('right refusals', t.rightRefusals, t.unanswerable),
    caveats,
    ...(promise ? [promise] : []),
    `  of all ${t.questions} questions: right answers ${pct(t.rightAnswers.share)}, wrong answers ${pct(t.wrongAnswers.share)}, ` +
      `false refusals ${pct(t.falseRefusals.share)}, right refusals ${pct(t.rightRefusals.share)}`,
    '',
    `Wrong answers (${wrong.length}):`,
    ...(wrong.length === 0 ? ['  none'] : wrong.map(wrongLine)),
    '',
    `False refusals (${refused.length}):`,
    ...(refused.length === 0 ? ['  none'] : refused.map((r) => `  ${r.id}  ${r.reason?.padEnd(20)} ${clip(r.question, 100)}`)),
  ].join('\n');
}
