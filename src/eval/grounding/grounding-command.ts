import { writeFileSync } from 'node:fs';

import { CandorError } from '../../kernel/errors.js';
import type { Llm } from '../../llm/llm-client.js';
import { groundingReport } from './grounding-report.js';
import { readGroundingRows } from './grounding-rows.js';
import { formatGroundingReport, renderGroundingMarkdown } from './grounding-text.js';
import { scoreResponse, type ScoredResponse } from './score-response.js';

/** `eval grounding`'s options, as the command line parses them. */
export interface GroundingOptions {
  /** The answers file (.jsonl). */
  readonly responses: string;
  readonly json?: boolean | undefined;
  /** Also write the report as Markdown to this file. */
  readonly markdown?: string | undefined;
}

/** Responses judged at once; the model calls among them are bounded by CANDOR_LLM_CONCURRENCY. */
const BATCH = 100;

/**
 * `candor eval grounding --responses FILE [--json] [--markdown FILE]`: the post-generation checks
 * the ask path runs (lexical grounding; model entailment when `llm` has it on), over model answers
 * with their context and a label saying whether the context supports them. Needs no database.
 */
export async function evalGrounding(
  llm: Llm | null,
  args: GroundingOptions,
  print: (text: string) => void,
  progress: (message: string) => void,
): Promise<number> {
  const rows = readGroundingRows(args.responses);
  const scored: ScoredResponse[] = [];
  for (let at = 0; at < rows.length; at += BATCH) {
    scored.push(...(await Promise.all(rows.slice(at, at + BATCH).map(({ value }) => scoreResponse(llm, value)))));
    if (rows.length > BATCH) progress(`grounding: ${scored.length}/${rows.length} responses checked`);
  }
  const report = groundingReport(scored);
  if (args.markdown) {
    try {
      writeFileSync(args.markdown, renderGroundingMarkdown(args.responses, report));
    } catch (cause) {
      throw new CandorError('file_unwritable', `Cannot write the Markdown report to ${args.markdown}: ${(cause as Error).message}`, {
        cause,
      });
    }
  }
  print(args.json ? JSON.stringify(report) : formatGroundingReport(report));
  return 0;
}
