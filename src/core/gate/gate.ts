import { answerabilityFeatures, type FeatureReport } from './answerability-features.js';
import { modelRef, scoreAnswerability, type AnswerabilityModel, type AnswerabilityScore } from './answerability-model.js';
import { explainLowScore } from './explain-score.js';
import { doubtsAbout, focusLayer } from './focus-layer.js';
import { cosineLayer, evidenceLayer, identifierLayer, round } from './rule-layers.js';
import { tierCaps, type TierCap } from './tier-caps.js';
import type { GateInput, Verdict } from './types.js';

/** The answerability score as a decision carries it (JSON, trace, interaction row). */
export interface Answerability {
  readonly score: number;
  readonly threshold: number;
  /** The model's `id@version`. */
  readonly model: string;
  readonly features: AnswerabilityScore['features'];
  /** Each feature's pull on the log-odds (negative = towards refusing). */
  readonly contributions: AnswerabilityScore['contributions'];
}

/**
 * How sure an answer is: `high` answers plainly, `medium` answers with a visible caveat, `low` refuses.
 * The bands come from the answerability model's calibration (its model card; per KB via `eval calibrate`).
 */
export type Confidence = 'high' | 'medium' | 'low';

export interface GateResult {
  readonly pass: boolean;
  /**
   * Low when the gate refuses; medium when it passes but something caps the tier (a score below the confident
   * band, or a signal of tier-caps.ts); high otherwise.
   */
  readonly confidence: Confidence;
  /** For a medium answer, what may be off, in plain words (the caveat names it); empty otherwise. */
  readonly doubts: readonly string[];
  /** For a medium answer, every reason that kept it from `high` (also in `verdicts`, as `confidence` verdicts). */
  readonly caps: readonly TierCap[];
  /** Every layer's verdict; on refusal the deciding one comes first; an answer's tier caps come last. */
  readonly verdicts: readonly Verdict[];
  readonly answerability: Answerability;
}

/** One layer's work, run inside a hook (the ask service opens a span per layer). */
export type LayerHook = (name: GateLayerName, run: () => Verdict) => Verdict;

export const GATE_LAYER_NAMES = ['entity', 'evidence', 'relevance', 'answerability', 'focus'] as const;
export type GateLayerName = (typeof GATE_LAYER_NAMES)[number];

/** Names of the layers that run for these settings, in the order they decide. */
export function activeLayers(input: Pick<GateInput, 'settings'>): GateLayerName[] {
  return GATE_LAYER_NAMES.filter((name) => name !== 'relevance' || input.settings.relevanceSignal === 'cosine');
}

/**
 * The gate every path runs (ask, eval, bench, training): crisp rules first (an
 * unknown identifier, no evidence, the opt-in cosine rule), then one learned
 * answerability score against the threshold. All layers run, so a refusal
 * shows every verdict; the first failing one is the reason given.
 */
export function runGate(input: GateInput, model: AnswerabilityModel, hook: LayerHook = (_name, run) => run()): GateResult {
  let answerability: Answerability | undefined;
  const verdicts = activeLayers(input).map((name) =>
    hook(name, () => {
      switch (name) {
        case 'entity':
          return identifierLayer(input);
        case 'evidence':
          return evidenceLayer(input);
        case 'relevance':
          return cosineLayer(input);
        case 'answerability': {
          const report = answerabilityFeatures(input);
          const scored = scoreAnswerability(model, report.values);
          answerability = {
            score: scored.score,
            threshold: input.settings.minAnswerability,
            model: modelRef(model),
            features: scored.features,
            contributions: scored.contributions,
          };
          return answerabilityVerdict(scored, report, input);
        }
        case 'focus':
          return focusLayer(input);
      }
    }),
  );
  const combined = combineVerdicts(verdicts);
  const scored = answerability as Answerability;
  if (!combined.pass) return { ...combined, answerability: scored, confidence: 'low', doubts: [], caps: [] };
  const band = Math.max(input.settings.confidentAbove ?? confidentAbove(model), scored.threshold);
  const caps: TierCap[] = [
    ...(scored.score < band
      ? [{ code: 'below_confident_band' as const, detail: `the answerability score ${round(scored.score)} is below ${round(band)}` }]
      : []),
    ...tierCaps(input),
  ];
  if (caps.length === 0) return { ...combined, answerability: scored, confidence: 'high', doubts: [], caps };
  const capVerdicts = caps.map((cap): Verdict => ({ layer: 'confidence', pass: true, code: cap.code, detail: cap.detail }));
  return {
    pass: true,
    verdicts: [...combined.verdicts, ...capVerdicts],
    answerability: scored,
    confidence: 'medium',
    // The caveat names what a person can check; the score band alone says nothing they can act on.
    doubts: [...doubtsAbout(input), ...caps.filter((cap) => cap.code !== 'below_confident_band').map((cap) => cap.detail)],
    caps,
  };
}

/** The score above which an answer needs no caveat: the model's calibrated band (its model card), else its threshold. */
export function confidentAbove(model: AnswerabilityModel): number {
  return model.confident ?? model.threshold;
}

function answerabilityVerdict(scored: AnswerabilityScore, report: FeatureReport, input: GateInput): Verdict {
  const threshold = input.settings.minAnswerability;
  const score = round(scored.score);
  if (scored.score >= threshold)
    return { layer: 'answerability', pass: true, code: null, detail: 'the evidence looks like it answers the question', score, threshold };
  const why = explainLowScore(scored, report, input.question);
  return { layer: 'answerability', pass: false, code: why.code, detail: why.detail, score, threshold };
}

/** Passes only when every verdict passes; failed verdicts lead, in layer order. */
export function combineVerdicts(verdicts: readonly Verdict[]): { pass: boolean; verdicts: readonly Verdict[] } {
  const failed = verdicts.filter((v) => !v.pass);
  return failed.length === 0 ? { pass: true, verdicts } : { pass: false, verdicts: [...failed, ...verdicts.filter((v) => v.pass)] };
}
