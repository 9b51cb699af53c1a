/** A fitted logistic regression on standardised inputs. */
export interface LogisticFit {
  readonly center: number[];
  readonly scale: number[];
  readonly weights: number[];
  readonly intercept: number;
  /** Newton steps taken; the fit stops when the largest step falls below 1e-10. */
  readonly iterations: number;
}

export interface LogisticOptions {
  /** L2 penalty on the (standardised) weights, per unit of total sample weight; the intercept is not penalised. @default 0.01 */
  readonly l2?: number;
  /** @default 100 */
  readonly maxIterations?: number;
}

/**
 * Weighted, L2-regularised logistic regression fitted by Newton's method
 * (iteratively reweighted least squares). Inputs are centred and scaled by
 * their weighted mean and standard deviation, so the penalty treats every
 * feature alike and weights are comparable. Deterministic: the same rows give
 * the same model, bit for bit.
 */
export function fitLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  sampleWeights: readonly number[],
  options: LogisticOptions = {},
): LogisticFit {
  const n = rows.length;
  if (n === 0) throw new Error('no rows to fit');
  const d = (rows[0] as readonly number[]).length;
  const totalWeight = sampleWeights.reduce((a, b) => a + b, 0);
  if (!(totalWeight > 0)) throw new Error('sample weights must sum to more than 0');
  const center = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  rows.forEach((x, i) => x.forEach((v, j) => (center[j] = (center[j] as number) + ((sampleWeights[i] as number) * v) / totalWeight)));
  rows.forEach((x, i) =>
    x.forEach(
      (v, j) => (scale[j] = (scale[j] as number) + ((sampleWeights[i] as number) * (v - (center[j] as number)) ** 2) / totalWeight),
    ),
  );
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j] as number) || 1;
  const z = rows.map((x) => [1, ...x.map((v, j) => (v - (center[j] as number)) / (scale[j] as number))]);

  const l2 = (options.l2 ?? 0.01) * totalWeight;
  const beta = new Array<number>(d + 1).fill(0);
  let iterations = 0;
  for (; iterations < (options.maxIterations ?? 100); iterations++) {
    const gradient = new Array<number>(d + 1).fill(0);
    const hessian = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const zi = z[i] as number[];
      const p = sigmoid(dot(beta, zi));
      const w = sampleWeights[i] as number;
      const residual = w * (p - (labels[i] as number));
      const curvature = w * p * (1 - p);
      for (let a = 0; a <= d; a++) {
        gradient[a] = (gradient[a] as number) + residual * (zi[a] as number);
        const row = hessian[a] as number[];
        for (let b = 0; b <= a; b++) row[b] = (row[b] as number) + curvature * (zi[a] as number) * (zi[b] as number);
      }
    }
    for (let a = 1; a <= d; a++) {
      gradient[a] = (gradient[a] as number) + l2 * (beta[a] as number);
      (hessian[a] as number[])[a] = ((hessian[a] as number[])[a] as number) + l2;
    }
    for (let a = 0; a <= d; a++) for (let b = 0; b < a; b++) (hessian[b] as number[])[a] = (hessian[a] as number[])[b] as number;
    const step = solve(hessian, gradient);
    let largest = 0;
    for (let a = 0; a <= d; a++) {
      beta[a] = (beta[a] as number) - (step[a] as number);
      largest = Math.max(largest, Math.abs(step[a] as number));
    }
    if (largest < 1e-10) {
      iterations += 1;
      break;
    }
  }
  return { center, scale, weights: beta.slice(1), intercept: beta[0] as number, iterations };
}

/** P(y = 1) for one raw (unstandardised) row. */
export function predictLogistic(
  fit: {
    readonly center: readonly number[];
    readonly scale: readonly number[];
    readonly weights: readonly number[];
    readonly intercept: number;
  },
  x: readonly number[],
): number {
  let logit = fit.intercept;
  x.forEach((v, j) => (logit += (fit.weights[j] as number) * ((v - (fit.center[j] as number)) / (fit.scale[j] as number))));
  return sigmoid(logit);
}

function sigmoid(t: number): number {
  return t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite here). */
function solve(matrix: readonly (readonly number[])[], rhs: readonly number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs((a[r] as number[])[col] as number) > Math.abs((a[pivot] as number[])[col] as number)) pivot = r;
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const p = (a[col] as number[])[col] as number;
    if (Math.abs(p) < 1e-300) throw new Error('singular system in logistic regression');
    for (let r = col + 1; r < n; r++) {
      const f = ((a[r] as number[])[col] as number) / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) (a[r] as number[])[c] = ((a[r] as number[])[c] as number) - f * ((a[col] as number[])[c] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = (a[r] as number[])[n] as number;
    for (let c = r + 1; c < n; c++) s -= ((a[r] as number[])[c] as number) * (x[c] as number);
    x[r] = s / ((a[r] as number[])[r] as number);
  }
  return x;
}
