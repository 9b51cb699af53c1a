import { writeFileSync } from 'node:fs';

import { GATE_MODEL } from '../../ask/gate-model.js';
import type { Services } from '../../ask/services.js';
import {
  confidentBand,
  recommendThreshold,
  sweepThresholds,
  type CalibrationPoint,
  type Recommendation,
  type SweepPoint,
} from '../../core/calibrate/threshold-sweep.js';
import { renderTradeoffSvg } from '../../core/calibrate/tradeoff-svg.js';
import { modelRef } from '../../core/gate/answerability-model.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { CandorError } from '../../kernel/errors.js';
import { readLooQuestions } from '../leave-one-out.js';
import { pointsFromQuestions } from './calibration-points.js';
import { evalCalibrateGrounding } from './grounding-calibrate-command.js';
import { applyThreshold, type AppliedSetting } from './kb-gate-settings.js';
import { pointsFromLabels } from './label-points.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'ask' | 'indexes' | 'config' | 'store' | 'llm'>;

/** `eval calibrate`'s options, as the command line parses them. */
export interface CalibrateOptions {
  readonly kb: string;
  /** Questions in the eval loo format; either this or fromLabels. */
  readonly questions?: string | undefined;
  /** Reviewers' labels on the abstention task instead of a questions file. */
  readonly fromLabels?: boolean | undefined;
  /** A share between 0 and 1, as typed. @default 0.75 */
  readonly targetAbstention?: string | undefined;
  /** Where to write PREFIX.svg and PREFIX.json. @default "calibration-KB" */
  readonly out?: string | undefined;
  /** Store the recommended threshold as the KB's setting. */
  readonly apply?: boolean | undefined;
  readonly json?: boolean | undefined;
  /** Calibrate the grounding check's threshold instead of the gate's (evalCalibrateGrounding). */
  readonly grounding?: boolean | undefined;
  /** With --grounding: facts to generate questions for, at most. */
  readonly maxQuestions?: number | undefined;
}

/** The JSON summary (stdout with --json, and the .json file beside the SVG). */
export interface CalibrationSummary {
  readonly kb: { readonly name: string; readonly version: number };
  readonly model: string;
  readonly method: 'questions' | 'labels';
  readonly n: { readonly answerable: number; readonly refusable: number };
  readonly targetAbstention: number;
  /** The threshold in force before this run, and what it does on these questions. */
  readonly current: SweepPoint & { readonly source: string };
  readonly recommended: Recommendation;
  /** The confident band for the recommended threshold: answers scoring below it carry a caveat (at most 20% of right ones). */
  readonly confidentAbove: number;
  readonly sweep: readonly SweepPoint[];
  readonly files: { readonly svg: string; readonly json: string };
  /** Set by --apply: the KB's new gate-settings version. */
  readonly applied: AppliedSetting | null;
}

/** Below this many of either kind, a sweep says more about chance than about the KB. */
const MIN_EACH = 10;
/** @default the project's target: three in four questions the KB cannot answer refused */
const DEFAULT_TARGET = 0.75;

/**
 * `candor eval calibrate`: sweeps the answerability threshold over a KB's own
 * questions (full KB and leave-one-out, as `eval loo` asks them) or over its
 * reviewers' abstention labels, writes the trade-off as SVG and JSON, and
 * recommends the threshold for a target abstention; `--apply` stores it as
 * that KB's setting. The gate runs as in production, without a model call.
 */
export async function evalCalibrate(
  app: CommandServices,
  args: CalibrateOptions,
  print: (text: string) => void,
  progress: (message: string) => void,
): Promise<number> {
  if (args.grounding) return evalCalibrateGrounding(app, args, print, progress);
  if (args.maxQuestions !== undefined)
    throw new CandorError('option_invalid', '--max-questions is for --grounding (the model answers questions it generates)', {
      status: 400,
    });
  const target = parseTarget(args.targetAbstention);
  if (Boolean(args.questions) === (args.fromLabels === true)) {
    throw new CandorError(
      'option_invalid',
      'eval calibrate needs either --questions FILE (the eval loo format) or --from-labels (reviewer labels on the abstention task). ' +
        "Probes made from the KB's own facts were tried and moved real-question results the wrong way (see docs/evaluation.md), so there is no mode without either.",
      { status: 400 },
    );
  }
  const index = await app.indexes.get(args.kb);
  const model = GATE_MODEL;
  const points = await calibrationPoints(app, args, index, progress);
  const n = {
    answerable: points.filter((p) => p.kind === 'answerable').length,
    refusable: points.filter((p) => p.kind === 'refusable').length,
  };
  if (n.answerable < MIN_EACH || n.refusable < MIN_EACH) {
    throw new CandorError(
      'too_little_data',
      `Too little to calibrate on: ${n.answerable} items that should be answered and ${n.refusable} that should be refused; at least ${MIN_EACH} of each are needed.`,
    );
  }
  const sweep = sweepThresholds(points);
  const recommended = recommendThreshold(sweep, target);
  const band = confidentBand(points, recommended.threshold);
  const inForce = thresholdInForce(index, app.config);
  const current = { ...(sweepThresholds(points, [inForce.threshold])[0] as SweepPoint), source: inForce.source };
  const prefix = args.out ?? `calibration-${args.kb}`;
  const method = args.questions ? 'questions' : 'labels';
  const applied = args.apply
    ? await applyThreshold(app.store.db, index.kbId, {
        minAnswerability: recommended.threshold,
        confidentAbove: band,
        method: `calibrate:${method}`,
        model: modelRef(model),
        note: `target ${target}; ${n.answerable} answerable, ${n.refusable} refusable; answered ${recommended.answeredRight}, abstained ${recommended.abstained}`,
      })
    : null;
  const summary: CalibrationSummary = {
    kb: { name: index.name, version: index.version },
    model: modelRef(model),
    method,
    n,
    targetAbstention: target,
    current,
    recommended,
    confidentAbove: band,
    sweep,
    files: { svg: `${prefix}.svg`, json: `${prefix}.json` },
    applied,
  };
  writeCalibration(summary);
  print(args.json ? JSON.stringify(summary) : formatSummary(summary));
  return 0;
}

/** The scored items to sweep: the questions file's (every fact it names must be in the KB), or the reviewers' labels. */
async function calibrationPoints(
  app: CommandServices,
  args: CalibrateOptions,
  index: KnowledgeIndex,
  progress: (message: string) => void,
): Promise<CalibrationPoint[]> {
  if (args.questions) {
    const questions = readLooQuestions(args.questions);
    const { unknown } = index.resolveExternalIds(questions.flatMap((q) => [...(q.factId ? [q.factId] : []), ...(q.factIds ?? [])]));
    if (unknown.length > 0)
      throw new CandorError(
        'not_found',
        `${unknown.length} factIds are not in knowledge base "${args.kb}": ${unknown.slice(0, 5).join(', ')}`,
      );
    return pointsFromQuestions(index, questions, {
      config: app.config,
      model: GATE_MODEL,
      onProgress: (done, total) => (done % 50 === 0 || done === total ? progress(`scored ${done}/${total} questions`) : undefined),
    });
  }
  const labelled = await pointsFromLabels(app.store.db, index.kbId, modelRef(GATE_MODEL));
  if (labelled.skipped > 0)
    progress(`${labelled.skipped} labelled interactions were scored by another model or before scores were stored; left out`);
  return labelled.points;
}

/** The threshold the KB answers with now, and where it comes from: its own setting, CANDOR_MIN_ANSWERABILITY, or the model. */
function thresholdInForce(index: KnowledgeIndex, config: CommandServices['config']): { threshold: number; source: string } {
  if (index.gateSetting) return { threshold: index.gateSetting.minAnswerability, source: `kb@${index.gateSetting.version}` };
  if (config.gate.minAnswerability !== undefined) return { threshold: config.gate.minAnswerability, source: 'config' };
  return { threshold: GATE_MODEL.threshold, source: 'model' };
}

/** The trade-off as SVG (recommended and current marked) and the summary as JSON, at the summary's file names. */
function writeCalibration(summary: CalibrationSummary): void {
  const { kb, n, method, files } = summary;
  writeFileSync(
    files.svg,
    renderTradeoffSvg({
      title: `Answerability threshold for "${kb.name}" (v${kb.version}), ${n.answerable} + ${n.refusable} ${method === 'questions' ? 'questions' : 'labelled items'}`,
      sweep: summary.sweep,
      marks: [
        { label: 'recommended', point: summary.recommended },
        { label: `current (${summary.current.source})`, point: { ...summary.current } },
      ],
      targetAbstention: summary.targetAbstention,
    }),
  );
  writeFileSync(files.json, `${JSON.stringify(summary, null, 2)}\n`);
}

function parseTarget(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TARGET;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new CandorError('option_invalid', `--target-abstention must be a share between 0 and 1 (exclusive), e.g. 0.75; got "${raw}"`, {
      status: 400,
    });
  }
  return value;
}

function formatSummary(s: CalibrationSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, p: SweepPoint) =>
    `${label} threshold ${p.threshold.toFixed(2)}: answered ${pct(p.answeredRight)} citing a right fact, abstained ${pct(p.abstained)}`;
  return [
    `${s.kb.name} v${s.kb.version}, model ${s.model}, ${s.n.answerable} to answer and ${s.n.refusable} to refuse (${s.method})`,
    line(`current (${s.current.source})`, s.current),
    line('recommended', s.recommended),
    `  ${s.recommended.why}`,
    `  answers scoring below ${s.confidentAbove} would carry the caveat (at most 20% of the right ones)`,
    s.applied
      ? `applied: "${s.kb.name}" now uses ${s.applied.minAnswerability} (gate settings v${s.applied.version})`
      : 'not applied (add --apply to store it for this KB)',
    `wrote ${s.files.svg} and ${s.files.json}`,
  ].join('\n');
}
