import { readFollowUp } from '../core/text/follow-up.js';
import type { Log } from '../kernel/log.js';
import { toFailure } from '../llm/chat-json.js';
import type { Llm } from '../llm/llm-client.js';
import { REWRITE_FOLLOW_UP_PROMPT_REF } from '../llm/prompts/rewrite-follow-up.js';
import { rewriteFollowUp } from '../llm/rewrite-follow-up.js';

/** A thread's follow-up as the question the gate judges. */
export interface Standalone {
  /** What the gate judges. */
  readonly question: string;
  /** 'as_asked': used as typed; 'rewritten': the model rewrote it; 'borrowed': the no-model rule added the earlier question's topic words. */
  readonly method: 'as_asked' | 'rewritten' | 'borrowed';
  /** True when a model rewrite was tried and failed (then method is 'as_asked': fail closed, judged as asked). */
  readonly rewriteFailed: boolean;
  /** The prompt id@version, whenever the model's reply was used (also when it returned the follow-up unchanged). */
  readonly prompt?: string;
}

export interface StandaloneInput {
  /** The thread's earlier question (the one the bot answered). */
  readonly previous: string;
  readonly followUp: string;
}

export interface StandaloneDeps {
  /** The model; null: the no-model rule (`rule:follow-up@1`, src/core/text/follow-up.ts). */
  readonly llm: Llm | null;
  readonly log?: Log;
  /**
   * Whether the KB holds a term as `contentTerms` gives it (e.g. `index.vocabulary().has`);
   * the rule then borrows only words the KB knows. Unused with a model.
   */
  readonly vocabulary?: (word: string) => boolean;
}

/** A rewrite may merge the two messages, not grow beyond them: longer is answering, not rewriting. */
const REWRITE_SLACK_CHARS = 80;

/**
 * The follow-up as a question that stands alone. With a model: one rewrite call
 * (prompt `rewrite-follow-up`); any failure — unreachable, timed out, not JSON,
 * empty, longer than both messages together — fails closed: the follow-up is
 * judged as asked, `rewriteFailed` is set and a warning logged (no user text).
 * Without a model: the rule of `readFollowUp`. Never throws.
 */
export async function standaloneQuestion(input: StandaloneInput, deps: StandaloneDeps): Promise<Standalone> {
  const followUp = input.followUp.trim();
  const previous = input.previous.trim();
  const asAsked: Standalone = { question: followUp, method: 'as_asked', rewriteFailed: false };
  if (previous === '' || followUp === '') return asAsked;
  if (deps.llm) {
    try {
      const limit = previous.length + followUp.length + REWRITE_SLACK_CHARS;
      const question = await rewriteFollowUp(deps.llm, previous, followUp, limit);
      const unchanged = fold(question) === fold(followUp);
      return {
        question: unchanged ? followUp : question,
        method: unchanged ? 'as_asked' : 'rewritten',
        rewriteFailed: false,
        prompt: REWRITE_FOLLOW_UP_PROMPT_REF,
      };
    } catch (error) {
      const failure = toFailure(error);
      deps.log?.('warn', 'follow-up rewrite failed; judging the follow-up as asked', {
        code: failure.code,
        reason: failure.message,
        prompt: REWRITE_FOLLOW_UP_PROMPT_REF,
      });
      return { ...asAsked, rewriteFailed: true };
    }
  }
  const reading = readFollowUp(previous, followUp, { knows: deps.vocabulary });
  return { question: reading.question, method: reading.method, rewriteFailed: false };
}

function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s?.!]+/g, ' ')
    .trim();
}
