import { writeFileSync } from 'node:fs';

import type { Services } from '../../ask/services.js';
import {
  GROUNDING_TARGET_PASSED,
  groundingAuc,
  groundingCheckRef,
  recommendGroundingThreshold,
  sweepGrounding,
  type GroundingPoint,
  type GroundingRecommendation,
  type GroundingSweepPoint,
} from '../../core/calibrate/grounding-sweep.js';
import { renderTradeoffSvg } from '../../core/calibrate/tradeoff-svg.js';
import { GROUNDING_THRESHOLD } from '../../core/gate/grounding.js';
import type { KnowledgeIndex } from '../../kb/knowledge-index.js';
import { CandorError } from '../../kernel/errors.js';
import { ANSWER_PROMPT_REF } from '../../llm/grounded-answer.js';
import type { DraftCounts } from './grounding-drafts.js';
import type { LabelCounts } from './grounding-label-points.js';
import { groundingPoints, type FoundPoints, type GroundingCalibrateOptions } from './grounding-sources.js';
import { applyGroundingThreshold, type AppliedGroundingSetting } from './kb-grounding-settings.js';

type CommandServices = Pick<Services, 'indexes' | 'config' | 'store' | 'llm'>;

/** `eval calibrate --grounding`'s JSON summary (stdout with --json, and the .json file beside the SVG). */
export interface GroundingCalibrationSummary {
  readonly kb: { readonly name: string; readonly version: number };
  /** The grounding check calibrated (its weights): a threshold means nothing for another. */
  readonly check: string;
  /** `model`: the configured model's drafts with and without their facts; `labels`: reviewers' factuality labels. */
  readonly method: 'model' | 'labels';
  /** The model and prompt that wrote the drafts (method `model`). */
  readonly generation: { readonly model: string; readonly prompt: string } | null;
  readonly n: { readonly supported: number; readonly unsupported: number };
  /** What the model did (method `model`), or what the labels gave (method `labels`). */
  readonly drafts: DraftCounts | null;
  readonly labels: LabelCounts | null;
  readonly targetPassed: number;
  /** The threshold in force before this run (the KB's setting, or the check's default), on these drafts. */
  readonly current: GroundingSweepPoint & { readonly source: string };
  readonly recommended: GroundingRecommendation;
  /** How well the support score separates supported from unsupported drafts (0.5: not at all). */
  readonly auc: number;
  readonly sweep: readonly GroundingSweepPoint[];
  readonly files: { readonly svg: string; readonly json: string };
  /** Set by --apply: the KB's new grounding-settings version. */
  readonly applied: AppliedGroundingSetting | null;
}

/** Below this many drafts of either kind, the threshold a sweep picks says more about chance than about the KB. */
export const MIN_GROUNDING_EACH = 20;

/**
 * `candor eval calibrate --grounding --kb KB`: the grounding check's threshold for one KB, from the configured
 * model's own drafts (questions generated from the KB's facts, answered with and without their fact) or, without a
 * model, from reviewers' factuality labels on the KB's model answers. Recommends the highest threshold at which 90%
 * of the supported drafts pass, writes the trade-off as SVG and JSON; `--apply` stores it as the KB's setting.
 */
export async function evalCalibrateGrounding(
  app: CommandServices,
  args: GroundingCalibrateOptions,
  print: (text: string) => void,
  progress: (message: string) => void,
): Promise<number> {
  if (args.targetAbstention !== undefined)
    throw new CandorError(
      'option_invalid',
      `--target-abstention is the gate's; with --grounding the target is fixed: ${GROUNDING_TARGET_PASSED * 100}% of the supported drafts pass`,
      { status: 400 },
    );
  const index = await app.indexes.get(args.kb);
  if (index.size === 0)
    throw new CandorError(
      'kb_empty',
      `Knowledge base "${args.kb}" has no facts. Ingest documents first: candor ingest PATH --kb ${args.kb}`,
    );
  const prefix = args.out ?? `grounding-calibration-${args.kb}`;
  const found = await groundingPoints(app, args, index, prefix, progress);
  const points = found.points;
  const n = { supported: points.filter((p) => p.supported).length, unsupported: points.filter((p) => !p.supported).length };
  if (n.supported < MIN_GROUNDING_EACH || n.unsupported < MIN_GROUNDING_EACH) throw tooLittle(args.kb, found, app.llm !== null);
  const sweep = sweepGrounding(points);
  const recommended = recommendGroundingThreshold(sweep);
  const current = currentPoint(index, points);
  const applied = args.apply
    ? await applyGroundingThreshold(app.store.db, index.kbId, {
        threshold: recommended.threshold,
        method: `calibrate-grounding:${found.method}`,
        checker: groundingCheckRef(),
        note: `${n.supported} supported, ${n.unsupported} unsupported; passed ${recommended.passedSupported}, flagged ${recommended.flaggedUnsupported}`,
      })
    : null;
  const summary: GroundingCalibrationSummary = {
    kb: { name: index.name, version: index.version },
    check: groundingCheckRef(),
    method: found.method,
    generation: found.method === 'model' && app.llm ? { model: app.llm.chatModel, prompt: ANSWER_PROMPT_REF } : null,
    n,
    drafts: found.method === 'model' ? found.counts : null,
    labels: found.method === 'labels' ? found.counts : null,
    targetPassed: GROUNDING_TARGET_PASSED,
    current,
    recommended,
    auc: groundingAuc(points),
    sweep,
    files: { svg: `${prefix}.svg`, json: `${prefix}.json` },
    applied,
  };
  writeGroundingCalibration(summary);
  print(args.json ? JSON.stringify(summary) : formatGroundingSummary(summary));
  return 0;
}

/** The threshold the KB's model answers are held to now, and what it does on these drafts. */
function currentPoint(index: KnowledgeIndex, points: readonly GroundingPoint[]): GroundingSweepPoint & { source: string } {
  const setting = index.groundingSetting;
  const threshold = setting?.threshold ?? GROUNDING_THRESHOLD;
  return { ...(sweepGrounding(points, [threshold])[0] as GroundingSweepPoint), source: setting ? `kb@${setting.version}` : 'default' };
}

function tooLittle(kb: string, found: FoundPoints, hasModel: boolean): CandorError {
  const need = `at least ${MIN_GROUNDING_EACH} of each are needed`;
  if (found.method === 'model') {
    const { supported, unsupported } = found.counts;
    return new CandorError(
      'too_little_data',
      `Too little to calibrate the grounding check of "${kb}" on: the model gave ${supported.scored} drafts with their facts shown and ${unsupported.scored} without (${supported.declined} and ${unsupported.declined} declined, ${unsupported.noEvidence} had nothing else to show); ${need}. Raise --max-questions, or give more questions with --questions FILE.`,
    );
  }
  const { factual, nonFactual, quoted } = found.counts;
  const noModel = hasModel
    ? ''
    : ' No model is configured, so Candor cannot write and score drafts of its own: configure one (OPENAI_API_KEY, OPENAI_BASE_URL or AZURE_OPENAI_*, see docs/llm.md) and run this again, or label more.';
  return new CandorError(
    'too_little_data',
    `Too few reviewers' labels to calibrate the grounding check of "${kb}": ${factual} model answers labelled factual and ${nonFactual} non_factual (the human majority on the factuality task${quoted ? `; ${quoted} more quote the sources instead of the withheld draft and cannot count` : ''}); ${need}.${noModel} Label model answers with: candor review sample, then candor review label ID factuality factual|non_factual --as NAME.`,
  );
}

/** The trade-off as SVG (recommended and current marked) and the summary as JSON, at the summary's file names. */
function writeGroundingCalibration(summary: GroundingCalibrationSummary): void {
  const { kb, n, method, files } = summary;
  const asChart = (p: GroundingSweepPoint) => ({
    threshold: p.threshold,
    answeredRight: p.passedSupported,
    abstained: p.flaggedUnsupported,
  });
  writeFileSync(
    files.svg,
    renderTradeoffSvg({
      title: `Grounding threshold for "${kb.name}" (v${kb.version}), ${n.supported} + ${n.unsupported} ${method === 'model' ? "of the model's drafts" : 'labelled answers'}`,
      sweep: summary.sweep.map(asChart),
      marks: [
        { label: 'recommended', point: asChart(summary.recommended) },
        { label: `current (${summary.current.source})`, point: asChart(summary.current) },
      ],
      xLabel: 'unsupported drafts flagged (the sources quoted instead)',
      yLabel: 'supported drafts passed',
      pointWords: { y: 'passed', x: 'flagged' },
    }),
  );
  writeFileSync(files.json, `${JSON.stringify(summary, null, 2)}\n`);
}

function formatGroundingSummary(s: GroundingCalibrationSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, p: GroundingSweepPoint) =>
    `${label} threshold ${p.threshold.toFixed(2)}: supported drafts passed ${pct(p.passedSupported)}, unsupported flagged ${pct(p.flaggedUnsupported)}`;
  const from = s.method === 'model' ? `drafts by ${s.generation?.model ?? 'the model'}` : "reviewers' factuality labels";
  return [
    `${s.kb.name} v${s.kb.version}, grounding check ${s.check}, ${s.n.supported} supported and ${s.n.unsupported} unsupported (${from}), AUC ${s.auc.toFixed(3)}`,
    line(`current (${s.current.source})`, s.current),
    line('recommended', s.recommended),
    `  ${s.recommended.why}`,
    s.applied
      ? `applied: "${s.kb.name}" now holds model answers to ${s.applied.threshold} (grounding settings v${s.applied.version})`
      : 'not applied (add --apply to store it for this KB)',
    `wrote ${s.files.svg} and ${s.files.json}`,
  ].join('\n');
}
