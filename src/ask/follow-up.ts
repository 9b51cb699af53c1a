import { normaliseQuestion } from '../core/text/normalise-question.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { describeError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import type { Llm } from '../llm/llm-client.js';
import { SPAN } from '../telemetry/attributes.js';
import { withSpan } from '../telemetry/with-span.js';
import type { Understood } from './record-interaction.js';
import { standaloneQuestion } from './standalone-question.js';

/** Reads a follow-up with the thread's earlier question: the question the gate should judge. */
export type FollowUp = (input: {
  readonly previous: string;
  readonly followUp: string;
  readonly kbs: readonly string[];
}) => Promise<{ readonly question: string; readonly method: 'as_asked' | 'rewritten' | 'borrowed' }>;

/**
 * Follow-ups in threads: the model rewrites them when one is configured; otherwise the no-model rule borrows
 * the earlier question's topic words that the channel's KBs hold.
 */
export function createFollowUp(deps: { readonly indexes: KnowledgeIndexCache; readonly llm: Llm | null; readonly log: Log }): FollowUp {
  return async ({ previous, followUp, kbs }) => {
    const vocabularies = deps.llm ? [] : await Promise.all(kbs.map(async (kb) => (await deps.indexes.get(kb)).vocabulary()));
    const made = await standaloneQuestion(
      { previous, followUp },
      {
        llm: deps.llm,
        log: deps.log,
        ...(vocabularies.length > 0 ? { vocabulary: (word: string) => vocabularies.some((v) => v.has(word)) } : {}),
      },
    );
    return { question: made.question, method: made.method };
  };
}

/**
 * The follow-up as a standalone question, or undefined when it is judged as typed (it stands alone, or the
 * rewrite failed: fail closed). The rewrite never stops the answer.
 */
export async function understandFollowUp(
  deps: { readonly followUp?: FollowUp | undefined; readonly maxQuestionChars: number; readonly log?: Log | undefined },
  input: { readonly previous: string; readonly typed: string; readonly kbs: readonly string[] },
): Promise<Understood | undefined> {
  const { followUp } = deps;
  if (!followUp) return undefined;
  try {
    const made = await withSpan(SPAN.followUp, {}, () => followUp({ previous: input.previous, followUp: input.typed, kbs: input.kbs }));
    const standalone = normaliseQuestion(made.question, deps.maxQuestionChars);
    if (made.method === 'as_asked' || !standalone.ok || standalone.text === input.typed) return undefined;
    return { question: standalone.text, typed: input.typed, by: made.method };
  } catch (error) {
    deps.log?.('warn', 'follow-up could not be read with its thread; judged as typed', { error: describeError(error) });
    return undefined;
  }
}
