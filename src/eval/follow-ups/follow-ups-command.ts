import { fileURLToPath } from 'node:url';

import type { Decision } from '../../ask/decision.js';
import type { Services } from '../../ask/services.js';
import { standaloneQuestion, type Standalone } from '../../ask/standalone-question.js';
import { FOLLOW_UP_RULE } from '../../core/text/follow-up.js';
import { REWRITE_FOLLOW_UP_PROMPT_REF } from '../../llm/prompts/rewrite-follow-up.js';
import { FOLLOW_UP_KINDS, readFollowUpPairs, type FollowUpPair } from './follow-up-pairs.js';
import {
  judgeQuestion,
  summariseMethod,
  WORDS_PRECISION,
  WORDS_RECALL,
  type GateOutcome,
  type Judged,
  type MethodSummary,
} from './score-follow-ups.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'ask' | 'indexes' | 'llm' | 'log' | 'config'>;

/** Beside the code (src/ or dist/src/), so the default works from any working directory. */
export const DEFAULT_FOLLOW_UPS = fileURLToPath(new URL('../../../examples/questions/follow-ups.jsonl', import.meta.url));

/** `eval follow-ups`' options, as the command line parses them. */
export interface FollowUpsOptions {
  /** @default CANDOR_KB */
  readonly kb?: string | undefined;
  /** @default DEFAULT_FOLLOW_UPS */
  readonly questions?: string | undefined;
  readonly json?: boolean | undefined;
}

/** How a standalone question is made: as typed, the rule (with and without the KB's vocabulary), the model. */
export type FollowUpMethod = 'as_typed' | 'rule' | 'rule_without_vocabulary' | 'model';

type MethodResult = Judged & Partial<Pick<Standalone, 'method' | 'rewriteFailed'>>;

/** One pair in the `--json` items: the pair, the gate's outcome on its hand-written question, and each method's question. */
export interface FollowUpItem extends FollowUpPair {
  readonly line: number;
  readonly reference: GateOutcome;
  readonly methods: Record<string, MethodResult>;
}

export const RIGHT_DEFINITION =
  'gate: the produced question gets the same decision as the hand-written standalone one and, when answered, the same leading cited fact; ' +
  `words: it holds at least ${WORDS_RECALL * 100}% of the hand-written question's content terms and at least ${WORDS_PRECISION * 100}% of its own terms are among them; right: both`;

/**
 * `candor eval follow-ups [--questions FILE] [--kb NAME] [--json]`: each thread
 * follow-up made standalone by each method, asked through the real ask path
 * (nothing recorded), and held to the hand-written standalone question (RIGHT_DEFINITION).
 */
export async function evalFollowUps(
  app: CommandServices,
  args: FollowUpsOptions,
  print: (text: string) => void,
  progress: (message: string) => void,
): Promise<number> {
  const file = args.questions ?? DEFAULT_FOLLOW_UPS;
  const pairs = readFollowUpPairs(file);
  const kb = args.kb ?? app.config.kb.defaultName;
  const index = await app.indexes.get(kb);
  const vocabulary = index.vocabulary();
  const asked = new Map<string, Promise<GateOutcome>>();
  const gate = (question: string): Promise<GateOutcome> => {
    let outcome = asked.get(question);
    if (!outcome) {
      outcome = app.ask({ question, kb, channel: 'eval' }, { record: false }).then(outcomeOf, () => ({ decision: 'error', topFact: null }));
      asked.set(question, outcome);
    }
    return outcome;
  };
  const methods: FollowUpMethod[] = ['as_typed', 'rule', 'rule_without_vocabulary', ...(app.llm ? (['model'] as const) : [])];
  const items: FollowUpItem[] = [];
  for (const [i, pair] of pairs.entries()) {
    const reference = await gate(pair.standalone);
    const produced: Record<string, Standalone> = {
      as_typed: { question: pair.followUp, method: 'as_asked', rewriteFailed: false },
      rule: await standaloneQuestion(pair, { llm: null, vocabulary: (term) => vocabulary.has(term) }),
      rule_without_vocabulary: await standaloneQuestion(pair, { llm: null }),
      ...(app.llm ? { model: await standaloneQuestion(pair, { llm: app.llm, log: app.log }) } : {}),
    };
    const results: Record<string, MethodResult> = {};
    for (const method of methods) {
      const s = produced[method]!;
      const judged = judgeQuestion(s.question, await gate(s.question), pair.standalone, reference);
      results[method] = method === 'as_typed' ? judged : { ...judged, method: s.method, rewriteFailed: s.rewriteFailed };
    }
    items.push({ line: i + 1, ...pair, reference, methods: results });
    if ((i + 1) % 10 === 0 || i + 1 === pairs.length) progress(`follow-ups: ${i + 1}/${pairs.length} pairs`);
  }
  const byMethod = Object.fromEntries(
    methods.map((m) => [m, summariseMethod(items.map((item) => ({ pair: item, judged: item.methods[m]! })))]),
  ) as Record<FollowUpMethod, MethodSummary>;
  const summary = {
    kb: { name: index.name, version: index.version },
    questions: file,
    pairs: pairs.length,
    kinds: Object.fromEntries(FOLLOW_UP_KINDS.map((k) => [k, pairs.filter((p) => p.kind === k).length])),
    referenceAnswered: items.filter((i) => i.reference.decision === 'answer').length,
    rule: FOLLOW_UP_RULE,
    model: app.llm ? { name: app.llm.chatModel, prompt: REWRITE_FOLLOW_UP_PROMPT_REF } : null,
    right: RIGHT_DEFINITION,
  };
  print(args.json ? JSON.stringify({ summary, methods: byMethod, items }) : formatFollowUps(summary, byMethod));
  return 0;
}

function outcomeOf(d: Decision): GateOutcome {
  return { decision: d.decision, topFact: d.decision === 'answer' ? (d.evidence[0]?.factId ?? null) : null };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Plain text: one block per method, overall and per kind. */
export function formatFollowUps(
  summary: { kb: { name: string; version: number }; pairs: number; referenceAnswered: number },
  methods: Record<string, MethodSummary>,
): string {
  const lines = [
    `${summary.pairs} follow-ups on KB "${summary.kb.name}" v${summary.kb.version}; the hand-written standalone questions are answered for ${summary.referenceAnswered}.`,
    `right = gate and words both right (${RIGHT_DEFINITION}).`,
  ];
  for (const [name, m] of Object.entries(methods)) {
    lines.push(
      '',
      `${name}: right ${m.right}/${m.n} (${pct(m.share)}); gate ${m.gateRight}/${m.n} (${pct(m.gateShare)}); words ${m.wordsRight}/${m.n} (${pct(m.wordsShare)})`,
    );
    for (const [kind, t] of Object.entries(m.byKind))
      lines.push(`  ${kind.padEnd(12)} right ${t.right}/${t.n}  gate ${t.gateRight}/${t.n}  words ${t.wordsRight}/${t.n}`);
  }
  return lines.join('\n');
}
