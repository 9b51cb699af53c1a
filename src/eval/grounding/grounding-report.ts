import { flaggingFigures, type Estimate, type FlaggingConfusion, type JudgedAnswer } from '../../core/eval/flagging-figures.js';
import { GROUNDING_THRESHOLD } from '../../core/gate/grounding.js';
import { ABSTENTION_RULE_ID } from '../../core/judge/abstention-detector.js';
import { groundingOutcomes, type ConfigurationOutcomes } from './grounding-outcomes.js';
import type { ScoredResponse } from './score-response.js';

export interface Interval {
  readonly low: number | null;
  readonly high: number | null;
}

/** One check's figures over the answers scored (declined replies left out); rates and AUC over the labelled ones. */
export interface CheckFigures {
  readonly n: number;
  readonly labelled: number;
  /** Answers the check flagged, labelled or not. */
  readonly flagged: number;
  readonly unsupportedFlagged: number | null;
  readonly supportedPassed: number | null;
  readonly auc: number | null;
  readonly ci: { readonly unsupportedFlagged: Interval; readonly supportedPassed: Interval; readonly auc: Interval };
  readonly confusion: FlaggingConfusion;
}

export interface LexicalFigures extends CheckFigures {
  readonly threshold: number;
  /** AUC of the support against every fact shown, cited or not (reported, never decides). */
  readonly aucAnyEvidence: number | null;
  readonly aucAnyEvidenceCI: Interval;
}

export interface EntailmentFigures extends CheckFigures {
  /** Answers flagged because the model call failed (fail closed), not because it judged them unentailed. */
  readonly modelErrors: number;
}

export type GroundingItem = Omit<Extract<ScoredResponse, { declined: false }>, 'lexical' | 'entailment' | 'pass' | 'threshold'> & {
  readonly pass: { readonly lexical: boolean; readonly entailment?: boolean; readonly combined: boolean };
  readonly detail: string;
};

/**
 * `candor eval grounding --json`: `summary` is the combined check (flagged when any check fails,
 * as the ask path withholds the answer), `checks` each check alone, `items` one per response.
 */
export interface GroundingReport {
  readonly summary: CheckFigures & {
    readonly rows: number;
    readonly declined: number;
    readonly supported: number;
    readonly unsupported: number;
    readonly unlabelled: number;
    readonly detector: string;
    readonly checks: readonly string[];
    readonly threshold: number;
    readonly aucAnyEvidence: number | null;
    readonly bootstrap: { readonly iterations: number; readonly confidence: number; readonly seed: number };
  };
  readonly checks: { readonly lexical: LexicalFigures; readonly entailment?: EntailmentFigures };
  /** Per configuration: answered right, abstained right, answered wrong — alone, checks as refusals, checks + fallback. */
  readonly outcomes: readonly ConfigurationOutcomes[];
  readonly items: readonly (GroundingItem | DeclinedItem)[];
}

export type DeclinedItem = Extract<ScoredResponse, { declined: true }> & {
  readonly pass: null;
  readonly support: null;
  readonly supportAnyEvidence: null;
  readonly weakestClaim: null;
};

type Scored = Extract<ScoredResponse, { declined: false }>;

const BOOTSTRAP = { iterations: 1000, confidence: 0.95, seed: 1 };

/** The figures of each check and of the combination, from the scored responses (seeded, so reproducible). */
export function groundingReport(responses: readonly ScoredResponse[]): GroundingReport {
  const scored = responses.filter((r): r is Scored => !r.declined);
  const withEntailment = scored.length > 0 && scored.every((r) => r.entailment !== undefined);
  const lexical = figures(
    scored,
    (r) => r.lexical.pass,
    (r) => r.support,
  );
  const anyEvidence = figures(
    scored,
    (r) => r.lexical.pass,
    (r) => r.supportAnyEvidence,
  );
  const combined = figures(
    scored,
    (r) => r.pass,
    (r) => (r.entailment && !r.entailment.pass ? 0 : r.support),
  );
  const threshold = scored[0]?.threshold ?? GROUNDING_THRESHOLD;
  const count = (supported: boolean | null) => scored.filter((r) => r.supported === supported).length;
  return {
    summary: {
      ...combined,
      rows: responses.length,
      declined: responses.length - scored.length,
      supported: count(true),
      unsupported: count(false),
      unlabelled: count(null),
      detector: ABSTENTION_RULE_ID,
      checks: withEntailment ? ['lexical', 'entailment'] : ['lexical'],
      threshold,
      aucAnyEvidence: anyEvidence.auc,
      bootstrap: BOOTSTRAP,
    },
    checks: {
      lexical: { ...lexical, threshold, aucAnyEvidence: anyEvidence.auc, aucAnyEvidenceCI: anyEvidence.ci.auc },
      ...(withEntailment
        ? {
            entailment: {
              ...figures(
                scored,
                (r) => r.entailment?.pass ?? false,
                (r) => (r.entailment?.pass ? 1 : 0),
              ),
              modelErrors: scored.filter((r) => r.entailment && !r.entailment.pass && r.entailment.code !== 'ungrounded').length,
            },
          }
        : {}),
    },
    outcomes: groundingOutcomes(responses),
    items: responses.map(item),
  };
}

function figures(scored: readonly Scored[], passed: (r: Scored) => boolean, score: (r: Scored) => number): CheckFigures {
  const judged: JudgedAnswer[] = scored.flatMap((r) =>
    r.supported === null ? [] : [{ supported: r.supported, passed: passed(r), score: score(r) }],
  );
  const f = flaggingFigures(judged, BOOTSTRAP);
  const interval = (e: Estimate): Interval => ({ low: e.low, high: e.high });
  return {
    n: scored.length,
    labelled: f.labelled,
    flagged: scored.filter((r) => !passed(r)).length,
    unsupportedFlagged: f.unsupportedFlagged.estimate,
    supportedPassed: f.supportedPassed.estimate,
    auc: f.auc.estimate,
    ci: { unsupportedFlagged: interval(f.unsupportedFlagged), supportedPassed: interval(f.supportedPassed), auc: interval(f.auc) },
    confusion: f.confusion,
  };
}

function item(r: ScoredResponse): GroundingItem | DeclinedItem {
  if (r.declined) return { ...r, pass: null, support: null, supportAnyEvidence: null, weakestClaim: null };
  const { lexical, entailment, pass, threshold: _threshold, ...rest } = r;
  return {
    ...rest,
    pass: { lexical: lexical.pass, ...(entailment ? { entailment: entailment.pass } : {}), combined: pass },
    detail: entailment && !entailment.pass && lexical.pass ? entailment.detail : lexical.detail,
  };
}
