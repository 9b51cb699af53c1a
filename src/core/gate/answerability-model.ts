import { FEATURE_NAMES, featureVector, type FeatureName, type Features } from './answerability-features.js';

/**
 * A logistic regression over the answerability features: P(answerable) =
 * σ(intercept + Σ weight × (value − center) / scale). Trained by
 * `npm run train:gate`; the weights are data, committed as JSON.
 */
export interface AnswerabilityModel {
  readonly id: string;
  readonly version: number;
  readonly features: readonly FeatureName[];
  readonly center: readonly number[];
  readonly scale: readonly number[];
  readonly weights: readonly number[];
  readonly intercept: number;
  /** The default decision threshold on the probability. */
  readonly threshold: number;
  /**
   * The score from which answers need no caveat (the high band; between the threshold and it, answers carry one).
   * Chosen at training as the lowest score whose answers are right at least as often as the model card says.
   */
  readonly confident?: number;
}

/** The score and why: each feature's value and its pull on the log-odds (negative = towards refusing). */
export interface AnswerabilityScore {
  /** P(answerable | question, evidence), in [0, 1]. */
  readonly score: number;
  readonly features: Features;
  readonly contributions: Readonly<Record<FeatureName, number>>;
}

/** `id@version`, as stored on interactions and traces. */
export function modelRef(model: Pick<AnswerabilityModel, 'id' | 'version'>): string {
  return `${model.id}@${model.version}`;
}

export function scoreAnswerability(model: AnswerabilityModel, values: Features): AnswerabilityScore {
  const x = featureVector(values);
  let logit = model.intercept;
  const contributions = {} as Record<FeatureName, number>;
  FEATURE_NAMES.forEach((name, i) => {
    const pull = (model.weights[i] as number) * (((x[i] as number) - (model.center[i] as number)) / (model.scale[i] as number));
    contributions[name] = pull;
    logit += pull;
  });
  return { score: sigmoid(logit), features: values, contributions };
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * Checks a model read from JSON: the features must be exactly this build's, in
 * order, and every number finite (a scale positive). Throws with what is wrong.
 */
export function validateModel(json: unknown): AnswerabilityModel {
  const m = json as Partial<AnswerabilityModel> | null;
  const problems: string[] = [];
  if (!m || typeof m !== 'object') throw new Error('the answerability model is not a JSON object');
  if (typeof m.id !== 'string' || m.id === '') problems.push('id must be a non-empty string');
  if (!Number.isInteger(m.version)) problems.push('version must be an integer');
  if (!Array.isArray(m.features) || m.features.join() !== FEATURE_NAMES.join()) {
    problems.push(`features must be exactly [${FEATURE_NAMES.join(', ')}] (retrain with npm run train:gate)`);
  }
  for (const key of ['center', 'scale', 'weights'] as const) {
    const xs = m[key];
    if (!Array.isArray(xs) || xs.length !== FEATURE_NAMES.length || !xs.every(Number.isFinite)) {
      problems.push(`${key} must hold ${FEATURE_NAMES.length} finite numbers`);
    }
  }
  if (Array.isArray(m.scale) && m.scale.some((s) => !(s > 0))) problems.push('every scale must be positive');
  if (!Number.isFinite(m.intercept)) problems.push('intercept must be a finite number');
  if (!(typeof m.threshold === 'number' && m.threshold > 0 && m.threshold < 1))
    problems.push('threshold must lie strictly between 0 and 1');
  if (m.confident !== undefined && !(typeof m.confident === 'number' && m.confident > 0 && m.confident < 1))
    problems.push('confident must lie strictly between 0 and 1');
  if (problems.length > 0) throw new Error(`invalid answerability model: ${problems.join('; ')}`);
  return m as AnswerabilityModel;
}
