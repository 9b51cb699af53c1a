import { z } from 'zod';

import { readJsonl } from '../../kb/read-jsonl.js';
import { CandorError } from '../../kernel/errors.js';

/** The RAG configurations: DIRECT gives the model no context, so there is nothing to ground in. */
const WITH_CONTEXT = new Set(['BASIC_RAG', 'HYDE_RAG']);

/** Suffix of a control row's id: the same answer with the removed fact restored. */
export const CONTROL_SUFFIX = '+fact';

const Question = z.object({ identifier: z.string().min(1), domain: z.string().min(1), answer: z.string() });

const Response = z.object({
  response_id: z.string().min(1),
  question_id: z.string().min(1),
  question: z.string(),
  response: z.string(),
  retrieval_type: z.string(),
  system_prompt: z.string(),
  context_question_ids: z.array(z.string()),
  /** 0-based into context_question_ids, or "no citation". */
  citation: z.union([z.number(), z.string()]).nullable(),
  abstention: z.string(),
  factuality: z.string().nullable(),
});

/** One line of the `eval grounding` responses file, with PolicyBench's fields kept beside it. */
export interface GroundingLine {
  readonly id: string;
  readonly question: string;
  readonly response: string;
  readonly context: readonly string[];
  readonly cited?: readonly number[];
  readonly supported: boolean;
  readonly domain: string;
  readonly retrieval_type: string;
  readonly system_prompt: string;
  readonly question_id: string;
  readonly factuality: string | null;
}

export interface PolicyBenchGrounding {
  readonly lines: readonly GroundingLine[];
  readonly counts: { readonly responses: number; readonly unsupported: number; readonly supported: number };
}

/**
 * PolicyBench's published leave-one-out answers as `eval grounding` input (the full construction is
 * documented in scripts/make-policybench-grounding.ts). Unsupported: every BASIC_RAG/HYDE_RAG answer
 * the GPT-4.1 judge labelled `abstention: "no"`, with the context the model saw (its own fact was
 * removed). Supported control: those it labelled `factuality: "tier_1"`, with the removed fact
 * appended as the last context fact and added to the citations.
 */
export function policyBenchGrounding(responsesPath: string, questionsPath: string): PolicyBenchGrounding {
  const questions = new Map(
    readJsonl(questionsPath, Question, { expected: '{"identifier","domain","answer"}' }).map(({ value }) => [value.identifier, value]),
  );
  const fact = (id: string, line: number) => {
    const q = questions.get(id);
    if (!q) throw new CandorError('not_found', `${responsesPath} line ${line}: question "${id}" is not in ${questionsPath}`);
    return q;
  };
  const lines: GroundingLine[] = [];
  let responses = 0;
  for (const { line, value: r } of readJsonl(responsesPath, Response, { expected: 'PolicyBench responses_with_labels rows' })) {
    if (!WITH_CONTEXT.has(r.retrieval_type) || r.abstention !== 'no') continue;
    responses += 1;
    const context = r.context_question_ids.map((id) => fact(id, line).answer);
    const cited = Number.isInteger(r.citation) ? [r.citation as number] : [];
    const own = fact(r.question_id, line);
    const row = {
      id: r.response_id,
      question: r.question,
      response: r.response,
      context,
      ...(cited.length > 0 ? { cited } : {}),
      supported: false,
      domain: own.domain,
      retrieval_type: r.retrieval_type,
      system_prompt: r.system_prompt,
      question_id: r.question_id,
      factuality: r.factuality,
    };
    lines.push(row);
    if (r.factuality === 'tier_1')
      lines.push({
        ...row,
        id: `${r.response_id}${CONTROL_SUFFIX}`,
        context: [...context, own.answer],
        cited: [...cited, context.length],
        supported: true,
      });
  }
  const supported = lines.filter((l) => l.supported).length;
  return { lines, counts: { responses, unsupported: lines.length - supported, supported } };
}
