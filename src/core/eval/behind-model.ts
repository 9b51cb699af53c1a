import { checkGrounding } from '../gate/grounding.js';

/** One published model answer given without its question's fact (PolicyBench `removal`), as read. */
export interface PublishedAnswer {
  readonly line: number;
  readonly questionId: string;
  /** The benchmark's domain (e.g. "CPF"), when the row says it. */
  readonly domain: string | null;
  readonly retrieval: string;
  readonly prompt: string;
  /** The published abstention label (a judge's), not ours. */
  readonly abstained: boolean;
  /** The question as the model was asked it, when the row holds it: the grounding check reads it as the ask path does. */
  readonly question: string | null;
  readonly response: string;
  /** External ids of the facts the model was shown, in the order it was shown them. */
  readonly contextIds: readonly string[];
  /** 0-based index into the context the answer cites, or null ("no citation"). */
  readonly citation: number | null;
}

/** What the leave-one-out run says about one of its questions. */
export interface GatedQuestion {
  /** The domain the question belongs to (its id's prefix, or the KB's name). */
  readonly domain: string;
  /** Whether the gate refused it with its fact left out; null when it was not asked that way. */
  readonly refused: boolean | null;
  /** The gate let it through at `medium` (a caveat) with its fact left out; false when refused or high. @default false */
  readonly medium?: boolean;
}

/** Where the questions of a configuration ended: shares of its n that sum to 1. */
export interface Outcomes {
  /** Answered with an answer the facts support (none here: every question's fact was removed). */
  readonly answeredRight: number;
  readonly abstainedRight: number;
  readonly answeredWrong: number;
}

export interface BehindRow {
  readonly domain: string;
  readonly retrieval: string;
  readonly prompt: string;
  readonly n: number;
  /** Share abstained by the model alone. */
  readonly modelAbstained: number;
  /** Share abstained when the gate's refusal also counts. */
  readonly behindGate: number;
  /** And when the grounding check withholding an answer counts too; absent for a configuration without context. */
  readonly behindGateAndGrounding?: number;
  /**
   * The three outcomes: the model alone, behind the gate, and behind the gate, the grounding check and the extractive
   * fallback (a withheld draft is replaced by the gate's extractive answer, which quotes a fact that does not hold the
   * removed answer, so it is answered wrong); the last absent for a configuration without context. `fallbackAtHighOnly`:
   * the same with the fallback only when the gate was `high` (a withheld draft behind a `medium` gate refused).
   */
  readonly outcomes: {
    readonly alone: Outcomes;
    readonly behindGate: Outcomes;
    readonly withFallback?: Outcomes & { readonly quoted: number };
    readonly fallbackAtHighOnly?: Outcomes & { readonly quoted: number };
  };
}

export type UnmatchedReason = 'not in this run' | 'another domain' | 'not asked with its fact left out' | 'duplicate';

export interface BehindSummary {
  readonly rows: BehindRow[];
  readonly matched: number;
  readonly unmatched: { readonly n: number; readonly byReason: Partial<Record<UnmatchedReason, number>>; readonly examples: string[] };
  /** Context ids the KB does not hold (checked as empty evidence, so a citation of one fails grounding). */
  readonly contextFactsMissing: number;
}

/** "CPF_111" → "CPF", "ICA_7" → "ICA"; null when there is no `_N`/`-N` suffix. */
export function domainOf(id: string): string | null {
  const m = /^(.*?[^\d_-])[_-]\d+$/.exec(id.trim());
  return m?.[1] ?? null;
}

/**
 * The system figure: per domain and model configuration, how often a
 * published model answer with the question's fact removed (where any answer
 * is unsupported) is withheld — by the model alone, behind Candor's gate
 * (the gate refused the question in the leave-one-out run, or the model
 * abstained), and behind the gate and the grounding check (also withheld when
 * the answer does not pass `checkGrounding` against the facts the model was shown).
 * Rows whose question is not in the run are counted, not dropped.
 */
export function behindModel(
  answers: readonly PublishedAnswer[],
  questions: ReadonlyMap<string, GatedQuestion>,
  factText: (externalId: string) => string | undefined,
): BehindSummary {
  const byReason: Partial<Record<UnmatchedReason, number>> = {};
  const examples: string[] = [];
  const unmatch = (a: PublishedAnswer, reason: UnmatchedReason) => {
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    if (examples.length < 5) examples.push(`line ${a.line}: ${a.questionId} (${reason})`);
  };
  const groups = new Map<string, { domain: string; retrieval: string; prompt: string; tally: Tally }>();
  const seen = new Set<string>();
  let missing = 0;
  for (const a of answers) {
    const q = questions.get(a.questionId);
    if (!q) {
      unmatch(a, 'not in this run');
      continue;
    }
    if (a.domain !== null && a.domain.toLowerCase() !== q.domain.toLowerCase()) {
      unmatch(a, 'another domain');
      continue;
    }
    if (q.refused === null) {
      unmatch(a, 'not asked with its fact left out');
      continue;
    }
    const key = JSON.stringify([q.domain, a.retrieval, a.prompt]);
    if (seen.has(`${key}${a.questionId}`)) {
      unmatch(a, 'duplicate');
      continue;
    }
    seen.add(`${key}${a.questionId}`);
    const group = groups.get(key) ?? { domain: a.domain ?? q.domain, retrieval: a.retrieval, prompt: a.prompt, tally: newTally() };
    groups.set(key, group);
    const t = group.tally;
    t.n += 1;
    if (a.abstained) t.model += 1;
    const gated = a.abstained || q.refused;
    if (gated) t.gate += 1;
    if (hasContext(a)) {
      t.withContext += 1;
      const evidence = a.contextIds.map((id) => {
        const text = factText(id);
        if (text === undefined) missing += 1;
        return { text: text ?? '' };
      });
      const citations = a.citation === null ? [] : [a.citation + 1];
      if (gated) t.grounded += 1;
      else if (!checkGrounding({ answer: a.response, citations }, evidence, a.question ? { question: a.question } : {}).pass) {
        t.grounded += 1;
        t.withheld += 1;
        if (q.medium) t.withheldMedium += 1;
      }
    }
  }
  const rows = [...groups.values()]
    .sort((x, y) => x.domain.localeCompare(y.domain) || x.retrieval.localeCompare(y.retrieval) || x.prompt.localeCompare(y.prompt))
    .map(({ domain, retrieval, prompt, tally }) => behindRow(domain, retrieval, prompt, tally));
  const unmatched = Object.values(byReason).reduce((s, c) => s + c, 0);
  return { rows, matched: answers.length - unmatched, unmatched: { n: unmatched, byReason, examples }, contextFactsMissing: missing };
}

function behindRow(domain: string, retrieval: string, prompt: string, t: Tally): BehindRow {
  // a configuration is checked for grounding only when every one of its answers had context
  const checked = t.withContext === t.n;
  return {
    domain,
    retrieval,
    prompt,
    n: t.n,
    modelAbstained: share(t.model, t.n),
    behindGate: share(t.gate, t.n),
    ...(checked ? { behindGateAndGrounding: share(t.grounded, t.n) } : {}),
    outcomes: {
      alone: removalOutcomes(t.model, t.n),
      behindGate: removalOutcomes(t.gate, t.n),
      ...(checked
        ? {
            withFallback: { ...removalOutcomes(t.gate, t.n), quoted: share(t.withheld, t.n) },
            fallbackAtHighOnly: {
              ...removalOutcomes(t.gate + t.withheldMedium, t.n),
              quoted: share(t.withheld - t.withheldMedium, t.n),
            },
          }
        : {}),
    },
  };
}

interface Tally {
  n: number;
  model: number;
  gate: number;
  withContext: number;
  grounded: number;
  /** Answers the gate let through that the grounding check withheld (the fallback quotes instead), and those at medium. */
  withheld: number;
  withheldMedium: number;
}

const newTally = (): Tally => ({ n: 0, model: 0, gate: 0, withContext: 0, grounded: 0, withheld: 0, withheldMedium: 0 });

/** With every question's fact removed, abstaining is the one right outcome: whatever is answered is wrong. */
function removalOutcomes(abstained: number, n: number): Outcomes {
  return { answeredRight: 0, abstainedRight: share(abstained, n), answeredWrong: share(n - abstained, n) };
}

/** DIRECT (no retrieval) answers had no context: there is nothing to check them against. */
function hasContext(a: PublishedAnswer): boolean {
  return a.retrieval.toUpperCase() !== 'DIRECT' && a.contextIds.length > 0;
}

function share(count: number, n: number): number {
  return n === 0 ? 0 : Math.round((count / n) * 10_000) / 10_000;
}
