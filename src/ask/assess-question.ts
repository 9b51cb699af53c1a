import type { Config } from '../config.js';
import type { AnswerabilityModel } from '../core/gate/answerability-model.js';
import { selectCitations } from '../core/gate/citations.js';
import { runGate, type GateResult, type LayerHook } from '../core/gate/gate.js';
import type { EvidenceFact, GateInput } from '../core/gate/types.js';
import { analyseQuestion } from '../core/text/analyse-question.js';
import type { KnowledgeIndex } from '../kb/knowledge-index.js';
import type { ThresholdSource } from './decision.js';

/** What the gate made of one question: the evidence, the verdicts and score, and what an answer would cite. */
export interface Assessment {
  readonly ranked: readonly EvidenceFact[];
  readonly input: GateInput;
  readonly gate: GateResult;
  readonly thresholdSource: ThresholdSource;
  /** The facts an extractive answer cites (computed on demand: refusals never need them). */
  cited(): EvidenceFact[];
}

export interface AssessOptions {
  readonly config: Pick<Config, 'ask' | 'gate'>;
  readonly model: AnswerabilityModel;
  /** Store ids treated as absent for this one ask (leave-one-out). */
  readonly exclude?: ReadonlySet<number>;
  readonly queryVector?: Float32Array | undefined;
  /** Overrides every configured threshold (evaluation and calibration sweeps). */
  readonly minAnswerability?: number;
  /** Wraps retrieval (the ask service opens a span). */
  readonly retrieveHook?: (run: () => EvidenceFact[]) => EvidenceFact[];
  readonly layerHook?: LayerHook;
}

/**
 * Retrieve, gate, cite: the one path every caller runs — `ask()` for every
 * channel, leave-one-out and calibration through it, the bench and the
 * training of the answerability model directly.
 */
export function assessQuestion(index: KnowledgeIndex, question: string, options: AssessOptions): Assessment {
  const { config, model } = options;
  const exclude = options.exclude ?? new Set<number>();
  const retrieve = () => index.retrieve(question, config.ask.topK, exclude, options.queryVector);
  const ranked = options.retrieveHook ? options.retrieveHook(retrieve) : retrieve();
  const threshold = thresholdFor(index, config.gate.minAnswerability, model, options.minAnswerability);
  const input: GateInput = {
    question: analyseQuestion(question),
    ranked,
    vocabulary: index.vocabulary(exclude),
    settings: {
      ...config.gate,
      minAnswerability: threshold.value,
      // A KB's calibrated band goes with its calibrated threshold.
      ...(threshold.source.startsWith('kb@') && index.gateSetting?.confidentAbove != null
        ? { confidentAbove: index.gateSetting.confidentAbove }
        : {}),
    },
  };
  const gate = runGate(input, model, options.layerHook);
  return {
    ranked,
    input,
    gate,
    thresholdSource: threshold.source,
    cited: () =>
      selectCitations(ranked, input.question, input.vocabulary, {
        max: config.ask.maxCitations,
        minShareOfTop: config.ask.citeShare,
        minCoverageOfTop: config.ask.citeCoverage,
      }),
  };
}

/** The threshold in force: an explicit override, else the KB's calibrated setting, else CANDOR_MIN_ANSWERABILITY, else the model's. */
function thresholdFor(
  index: KnowledgeIndex,
  configured: number | undefined,
  model: AnswerabilityModel,
  override?: number,
): { value: number; source: ThresholdSource } {
  if (override !== undefined) return { value: override, source: 'override' };
  if (index.gateSetting) return { value: index.gateSetting.minAnswerability, source: `kb@${index.gateSetting.version}` };
  if (configured !== undefined) return { value: configured, source: 'config' };
  return { value: model.threshold, source: 'model' };
}
