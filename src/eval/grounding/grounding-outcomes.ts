import type { ScoredResponse } from './score-response.js';

/** Where the labelled answers of a configuration ended: shares of its n (the rest was abstained wrongly). */
export interface OutcomeShares {
  readonly answeredRight: number;
  readonly abstainedRight: number;
  readonly answeredWrong: number;
}

/** One configuration's outcomes: the model alone, behind the checks as refusals, and behind the checks with the fallback. */
export interface ConfigurationOutcomes {
  readonly configuration: string;
  /** Labelled responses (declined ones included: a decline is an abstention). */
  readonly n: number;
  readonly alone: OutcomeShares;
  /** A withheld answer refused, as before issue 37. */
  readonly checksRefuse: OutcomeShares;
  /**
   * A withheld answer quoted instead (the extractive fallback; a check that failed as a model failure still refuses):
   * right when the answer was supported (its fact is among those shown), wrong when not. `quoted`: the share quoted.
   */
  readonly checksFallback: OutcomeShares & { readonly quoted: number };
}

type Fate = 'declined' | 'passed' | 'withheld' | 'failed';

/**
 * The three outcome shares per configuration over the labelled responses. No gate here (the file holds no KB): the
 * figures behind the gate are `eval loo --behind`'s. Without a gate the fallback answers whatever the model answered,
 * so what it changes is which text is given (a summary or a quote), and how many right answers survive the checks.
 */
export function groundingOutcomes(responses: readonly ScoredResponse[]): ConfigurationOutcomes[] {
  const groups = new Map<string, { supported: boolean; fate: Fate }[]>();
  for (const r of responses) {
    if (r.supported === null) continue;
    const fate: Fate = r.declined ? 'declined' : r.pass ? 'passed' : quotable(r) ? 'withheld' : 'failed';
    const list = groups.get(r.configuration) ?? [];
    list.push({ supported: r.supported, fate });
    groups.set(r.configuration, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([configuration, rows]) => {
      const n = rows.length;
      const count = (keep: (x: { supported: boolean; fate: Fate }) => boolean) => share(rows.filter(keep).length, n);
      const answered = (fates: readonly Fate[]): OutcomeShares => ({
        answeredRight: count((x) => x.supported && fates.includes(x.fate)),
        abstainedRight: count((x) => !x.supported && !fates.includes(x.fate)),
        answeredWrong: count((x) => !x.supported && fates.includes(x.fate)),
      });
      return {
        configuration,
        n,
        alone: answered(['passed', 'withheld', 'failed']),
        checksRefuse: answered(['passed']),
        checksFallback: { ...answered(['passed', 'withheld']), quoted: count((x) => x.fate === 'withheld') },
      };
    });
}

/** Withheld as unsupported (every failing check said `ungrounded`): the fallback quotes; a model failure refuses. */
function quotable(r: Extract<ScoredResponse, { declined: false }>): boolean {
  return [r.lexical, r.entailment].every((c) => c === undefined || c.pass || c.code === 'ungrounded');
}

function share(count: number, n: number): number {
  return n === 0 ? 0 : Math.round((count / n) * 10_000) / 10_000;
}
