import type { Config } from '../config.js';
import type { ExampleQuestion } from '../eval/example-questions/example-questions.js';
import type { ExampleReport } from '../eval/example-questions/example-report.js';
import { summariseOutcomes } from '../eval/example-questions/example-totals.js';
import { scoreReply, type ScoredRow } from '../eval/example-questions/score-replies.js';
import { ingestPaths } from '../kb/ingest/ingest.js';
import { CandorError } from '../kernel/errors.js';
import { buildCandor } from './main.js';

export type { ExampleReport, QuestionSetReport } from '../eval/example-questions/example-report.js';

export interface ExampleRunOptions {
  /** Settings for the run; its store should be a throw-away one (`CANDOR_DATA_DIR=memory://`). */
  readonly config: Config;
  /** Documents to ingest into the config's default KB before asking. */
  readonly kbPaths: readonly string[];
  readonly questions: readonly ExampleQuestion[];
  /** A second set, asked of the same KB and reported apart. */
  readonly fresh?: { readonly name: string; readonly questions: readonly ExampleQuestion[] };
  readonly onProgress?: (message: string) => void;
}

/**
 * Builds Candor from `config` (the one composition root), ingests `kbPaths`, asks every question
 * through the product's own ask path — nothing recorded — and scores each reply.
 */
export async function runExampleQuestions(options: ExampleRunOptions): Promise<ExampleReport> {
  const { config, questions, onProgress } = options;
  const kb = config.kb.defaultName;
  const app = await buildCandor(config, { telemetry: false, purpose: 'eval example' });
  try {
    const ingested = await ingestPaths(app.store.db, options.kbPaths, { kb, ...(onProgress ? { onProgress } : {}) });
    if (ingested.errors.length > 0 || ingested.facts === 0) {
      const why = ingested.errors.map((e) => `${e.path}: ${e.reason}`).join('; ') || 'no facts were stored';
      throw new CandorError(ingested.errors.length > 0 ? 'file_unreadable' : 'kb_empty', `Could not ingest the example KB (${why}).`);
    }
    onProgress?.(`ingested ${ingested.documents} documents, ${ingested.facts} facts; asking ${questions.length} questions`);
    const askAll = async (set: readonly ExampleQuestion[], label: string) => {
      const rows: ScoredRow[] = [];
      for (const [i, q] of set.entries()) {
        const decision = await app.ask({ question: q.question, kb, channel: 'eval' }, { record: false });
        rows.push(scoreReply(q, decision));
        if ((i + 1) % 20 === 0 || i + 1 === set.length) onProgress?.(`${label}: asked ${i + 1}/${set.length}`);
      }
      return rows;
    };
    const rows = await askAll(questions, 'questions');
    const fresh = options.fresh ? await askAll(options.fresh.questions, options.fresh.name) : null;
    return {
      kb: { ...ingested.kb, documents: ingested.documents, facts: ingested.facts },
      mode: app.llm ? 'llm' : 'extractive',
      totals: summariseOutcomes(rows),
      rows,
      ...(options.fresh && fresh ? { fresh: { name: options.fresh.name, totals: summariseOutcomes(fresh), rows: fresh } } : {}),
    };
  } finally {
    await app.close();
  }
}
