import { z } from 'zod';

import {
  behindModel,
  domainOf,
  type BehindRow,
  type BehindSummary,
  type GatedQuestion,
  type Outcomes,
  type PublishedAnswer,
} from '../core/eval/behind-model.js';
import { readJsonl } from '../kb/read-jsonl.js';
import { abstainedLabel } from '../review/response-rows.js';
import type { LooReport } from './leave-one-out.js';

const FORMAT =
  '{"question_id","retrieval_type","system_prompt","abstention":"yes"|"no","response","context_question_ids":[…],"citation":N|"no citation"} (PolicyBench responses_with_labels)';

const id = z.union([z.string().trim().min(1).max(200), z.number().int()]).transform(String);

/** A PolicyBench `responses_with_labels` line; other fields are ignored. */
const PublishedLine = z
  .object({
    question_id: id,
    knowledge_base_identifier: z.string().trim().min(1).optional(),
    retrieval_type: z.string().trim().min(1),
    system_prompt: z.string().trim().min(1).optional(),
    system_prompt_name: z.string().trim().min(1).optional(),
    abstention: z.union([z.string(), z.boolean()]).transform((v, ctx) => {
      const label = abstainedLabel(String(v));
      if (label === null) ctx.addIssue({ code: 'custom', message: `must be yes or no, not ${JSON.stringify(v)}` });
      return label === 'yes';
    }),
    question: z.string().max(20_000).optional(),
    response: z.string().max(200_000).default(''),
    context_question_ids: z.array(id).max(1000).default([]),
    citation: z
      .union([z.number().int().min(0), z.string(), z.null()])
      .optional()
      .transform((v, ctx) => {
        if (typeof v === 'number') return v;
        if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
        if (v === undefined || v === null || /^\s*(no citation|none|)\s*$/i.test(v)) return null;
        ctx.addIssue({ code: 'custom', message: `must be a 0-based context index or "no citation", not ${JSON.stringify(v)}` });
        return null;
      }),
  })
  .refine((row) => row.system_prompt !== undefined || row.system_prompt_name !== undefined, {
    message: 'needs "system_prompt"',
  });

/** Reads a published responses file; any bad line fails the whole read, naming its line number. */
export function readPublishedAnswers(path: string): PublishedAnswer[] {
  return readJsonl(path, PublishedLine, { expected: FORMAT }).map(({ line, value: v }) => ({
    line,
    questionId: v.question_id,
    domain: domainOf(v.knowledge_base_identifier ?? '') ?? v.knowledge_base_identifier ?? domainOf(v.question_id),
    retrieval: v.retrieval_type,
    prompt: (v.system_prompt ?? v.system_prompt_name ?? '').replace(/_(llm_)?prompt$/, ''),
    abstained: v.abstention,
    question: v.question?.trim() || null,
    response: v.response,
    contextIds: v.context_question_ids,
    citation: v.citation,
  }));
}

/** The leave-one-out run's verdict per question: refused with its fact left out (or, unanswerable, refused at all). */
export function gatedQuestions(kb: string, report: LooReport): Map<string, GatedQuestion> {
  return new Map(
    report.items.map((item) => {
      const run = item.loo ?? (item.answerable ? undefined : item.full);
      const medium = run?.decision === 'answer' && run.reasons.some((v) => v.layer === 'confidence');
      return [item.id, { domain: domainOf(item.id) ?? kb, refused: run ? run.decision === 'abstain' : null, medium }];
    }),
  );
}

/** The `behind` key of `eval loo --json`. */
export interface BehindReport extends BehindSummary {
  readonly file: string;
  /** The gate's own answered-right rate on the full KB (answered citing the question's fact), for the same run. */
  readonly gateFullKbAnswered: number;
}

/** `eval loo --behind FILE`: the published answers (read before the run, so a bad file fails fast) joined to this leave-one-out run. */
export function behindReport(
  published: { readonly file: string; readonly answers: readonly PublishedAnswer[] },
  kb: string,
  report: LooReport,
  factText: (externalId: string) => string | undefined,
): BehindReport {
  const { file, answers } = published;
  const summary = behindModel(answers, gatedQuestions(kb, report), factText);
  return { file, ...summary, gateFullKbAnswered: report.summary.fullAnsweredWithFact };
}

const pct = (x: number | undefined) => (x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);

function unmatchedLine(b: BehindReport): string {
  const reasons = Object.entries(b.unmatched.byReason)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  return (
    `${b.matched} published answers matched; ${b.unmatched.n} not matched${b.unmatched.n > 0 ? ` (${reasons})` : ''}` +
    (b.contextFactsMissing > 0 ? `; ${b.contextFactsMissing} context facts not in the KB (checked as empty evidence)` : '')
  );
}

/** A few lines for the text output: one per configuration. */
export function formatBehind(b: BehindReport): string {
  const head = ['domain', 'configuration', 'n', 'model alone', 'behind gate', '+ grounding'];
  const body = b.rows.map((r) => [
    r.domain,
    `${r.retrieval} ${r.prompt}`,
    String(r.n),
    pct(r.modelAbstained),
    pct(r.behindGate),
    pct(r.behindGateAndGrounding),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [
    `abstained behind the published answers in ${b.file} (each given without its fact): ${unmatchedLine(b)}`,
    line(head),
    ...body.map(line),
    `the gate alone, full KB: answered citing its own fact ${pct(b.gateFullKbAnswered)}`,
    'answered right / abstained right / answered wrong: alone | behind gate | behind gate + grounding + fallback (quoted)',
    ...b.rows.map((r) => `${r.domain} ${r.retrieval} ${r.prompt}: ${outcomeCells(r).join(' | ')}`),
  ].join('\n');
}

const triple = (o: Outcomes | undefined) =>
  o === undefined ? '—' : `${pct(o.answeredRight)} / ${pct(o.abstainedRight)} / ${pct(o.answeredWrong)}`;

/** A row's outcomes: alone, behind the gate, behind the gate, grounding and fallback (with the share quoted). */
function outcomeCells(r: BehindRow): string[] {
  const f = r.outcomes.withFallback;
  return [triple(r.outcomes.alone), triple(r.outcomes.behindGate), f ? `${triple(f)} (${pct(f.quoted)})` : '—'];
}

/** The Markdown section appended to `--markdown` when `--behind` is given. */
export function renderBehindMarkdown(b: BehindReport): string {
  const cell = (s: string) => s.replace(/[|\n]/g, ' ');
  return [
    '',
    '## Behind the published model answers',
    '',
    `Answers in \`${cell(b.file)}\`, each given with the question's fact removed (any answer is unsupported): the share withheld by the model alone, behind the gate (the gate refused that question in this leave-one-out run, or the model abstained), and behind the gate and the grounding check (the answer fails it against the facts the model was shown). ${unmatchedLine(b)}. The gate alone, on the full KB, answers ${pct(b.gateFullKbAnswered)} citing the question's own fact.`,
    '',
    '| domain | retrieval | prompt | n | model alone | behind gate | behind gate + grounding |',
    '|---|---|---|---|---|---|---|',
    ...b.rows.map(
      (r) =>
        `| ${cell(r.domain)} | ${cell(r.retrieval)} | ${cell(r.prompt)} | ${r.n} | ${pct(r.modelAbstained)} | ${pct(r.behindGate)} | ${pct(r.behindGateAndGrounding)} |`,
    ),
    '',
    'With the extractive fallback (a draft the grounding check withholds is replaced by the quoted lead fact), each cell answered right / abstained right / answered wrong; with every fact removed no answer is right, so a quoted answer is wrong. In brackets: the share quoted.',
    '',
    '| domain | retrieval | prompt | alone | behind gate | behind gate + grounding + fallback |',
    '|---|---|---|---|---|---|',
    ...b.rows.map((r) => `| ${cell(r.domain)} | ${cell(r.retrieval)} | ${cell(r.prompt)} | ${outcomeCells(r).join(' | ')} |`),
    '',
  ].join('\n');
}
