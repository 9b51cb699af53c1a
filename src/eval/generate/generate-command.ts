import { renameSync, writeFileSync } from 'node:fs';

import type { Services } from '../../ask/services.js';
import { diversityFilter, type DiversityResult } from '../../core/eval/diversity-filter.js';
import { DONT_KNOW_CATEGORY_IDS, isDontKnowCategory, type DontKnowCategory } from '../../core/eval/dontknow-categories.js';
import { CandorError } from '../../kernel/errors.js';
import { embedTexts } from '../../llm/embed.js';
import { GENERATION_PROMPTS } from '../../llm/generate-questions.js';
import type { Llm } from '../../llm/llm-client.js';
import { generateCandidates, type Candidate, type Generation } from './generate-questions.js';

/** The services these commands use. */
type CommandServices = Pick<Services, 'llm' | 'store' | 'config'>;

/** `eval generate`'s options, as the command line parses them (numbers as typed, checked here). */
export interface EvalGenerateOptions {
  readonly kb: string;
  /** Questions per fact, 1 to 10. @default 1 */
  readonly perFact?: string | undefined;
  /** Don't-know questions per category, 1 to 50. @default 5 */
  readonly perCategory?: string | undefined;
  /** A comma list of don't-know categories, all or none. @default all */
  readonly categories?: string | undefined;
  /** Write the questions here (.jsonl); FILE.cache.jsonl lets a failed run resume. */
  readonly out?: string | undefined;
  readonly json?: boolean | undefined;
}

/** A generated question line: the `eval loo` questions format plus `expected` and `category`. */
export interface QuestionLine {
  readonly id: string;
  readonly question: string;
  readonly factId?: string;
  /** Don't-know questions: no fact answers them. */
  readonly answerable?: false;
  readonly expected: string | null;
  readonly category: string;
}

/**
 * `candor eval generate --kb NAME [--per-fact N] [--categories LIST|all|none]
 * [--per-category N] [--out FILE] [--json]`. Needs a model: without one it
 * says so and stops (template questions would measure the templates, not the
 * bot). With --out, FILE.cache.jsonl keeps what was generated, so a failed run
 * resumes where it stopped.
 */
export async function evalGenerate(
  app: CommandServices,
  args: EvalGenerateOptions,
  print: (text: string) => void,
  progress: (text: string) => void,
): Promise<number> {
  if (!args.kb) throw new CandorError('option_invalid', 'eval generate needs --kb NAME');
  const perFact = count(args.perFact, 1, '--per-fact', 10);
  const perCategory = count(args.perCategory, 5, '--per-category', 50);
  const categories = parseCategories(args.categories);
  const llm = app.llm;
  if (!llm)
    throw new CandorError(
      'llm_not_configured',
      'eval generate needs a model to write questions: set OPENAI_API_KEY, OPENAI_BASE_URL (Ollama, vLLM) or AZURE_OPENAI_* (see docs/llm.md).',
    );
  const cachePath = args.out ? `${args.out}.cache.jsonl` : null;
  const generation = await generateCandidates(app.store.db, llm, {
    kb: args.kb,
    perFact,
    perCategory,
    categories,
    cachePath,
    onProgress: progress,
  });
  if (generation.failed.length > 0) throw generationFailed(generation, categories.length, cachePath);

  const texts = generation.candidates.map((c) => c.question);
  const { embeddings, semanticNote } = await embedQuestions(llm, texts, progress);
  const { generate } = app.config;
  const filtered = diversityFilter(texts, {
    keywordThreshold: generate.keywordSimilarity,
    semanticThreshold: generate.semanticSimilarity,
    lexicalThreshold: generate.lexicalSimilarity,
    ...(embeddings ? { embeddings } : {}),
  });
  const lines = toLines(generation.candidates, filtered.kept);
  const summary = summarise(args, generation, texts, filtered, lines, semanticNote);
  const body = lines.map((l) => JSON.stringify(l)).join('\n');
  if (args.out) {
    writeFileSync(`${args.out}.tmp`, lines.length ? `${body}\n` : '');
    renameSync(`${args.out}.tmp`, args.out);
  }
  if (args.json) print(JSON.stringify(args.out ? summary : { ...summary, questions: lines }));
  else {
    if (!args.out && lines.length) print(body);
    const say = args.out ? print : progress;
    say(
      `${lines.length} questions kept of ${texts.length} generated for ${generation.facts} facts (${summary.removed.keyword} removed as keyword near-duplicates, ${summary.removed.semantic} as ${filtered.semantic} near-duplicates)${args.out ? `, written to ${args.out}` : ''}; by category: ${JSON.stringify(summary.byCategory)}`,
    );
  }
  return 0;
}

function toLines(candidates: readonly Candidate[], kept: readonly number[]): QuestionLine[] {
  const seen = new Map<string, number>();
  return kept.map((i) => {
    const c = candidates[i] as Candidate;
    const stem = c.factId ?? c.category;
    const n = (seen.get(stem) ?? 0) + 1;
    seen.set(stem, n);
    return c.factId
      ? { id: `${stem}#q${n}`, question: c.question, factId: c.factId, expected: c.expected ?? null, category: c.category }
      : { id: `${stem}#q${n}`, question: c.question, answerable: false, expected: null, category: c.category };
  });
}

/** Some facts or categories got no questions (the model failed): what failed, and how a re-run resumes. */
function generationFailed(generation: Generation, categories: number, cachePath: string | null): CandorError {
  const first = generation.failed
    .slice(0, 5)
    .map((f) => `${f.item}: ${f.error}`)
    .join('\n  ');
  const resume = cachePath
    ? `The rest is kept in ${cachePath}: run the same command again to resume.`
    : 'Nothing was kept: use --out FILE so that a re-run resumes.';
  // Retryable: a re-run asks the model again, for what is missing only when --out keeps the rest.
  return new CandorError(
    'llm_unavailable',
    `${generation.failed.length} of ${generation.facts + categories} facts and categories could not be generated:\n  ${first}\n${resume}`,
    { retryable: true },
  );
}

/** The questions' embeddings for the semantic filter, when the model has an embedding model; a failure falls back to the lexical stand-in. */
async function embedQuestions(
  llm: Llm,
  texts: readonly string[],
  progress: (text: string) => void,
): Promise<{ embeddings: Float32Array[] | undefined; semanticNote: string }> {
  if (!llm.embeddingModel || texts.length === 0) return { embeddings: undefined, semanticNote: '' };
  try {
    const embeddings: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += 64) embeddings.push(...(await embedTexts(llm, texts.slice(i, i + 64))));
    return { embeddings, semanticNote: '' };
  } catch (error) {
    const semanticNote = `embedding the questions failed (${(error as Error).message}); the semantic filter used the lexical stand-in`;
    progress(semanticNote);
    return { embeddings: undefined, semanticNote };
  }
}

/** The run's JSON summary: what was generated, kept and removed (and why), by category. */
function summarise(
  args: EvalGenerateOptions,
  generation: Generation,
  texts: readonly string[],
  filtered: DiversityResult,
  lines: readonly QuestionLine[],
  semanticNote: string,
) {
  const removed = filtered.removed.map((r) => ({
    question: texts[r.index] as string,
    by: r.by,
    duplicateOf: texts[r.duplicateOf] as string,
    similarity: r.similarity,
  }));
  return {
    kb: args.kb,
    out: args.out ?? null,
    prompts: GENERATION_PROMPTS,
    facts: generation.facts,
    resumed: generation.resumed,
    generatedNow: generation.generatedNow,
    candidates: texts.length,
    kept: lines.length,
    removed: {
      keyword: removed.filter((r) => r.by === 'keyword').length,
      semantic: removed.filter((r) => r.by === 'semantic').length,
      semanticFilter: filtered.semantic,
      ...(semanticNote ? { note: semanticNote } : {}),
    },
    byCategory: tally(lines.map((l) => l.category)),
    removedQuestions: removed,
  };
}

function parseCategories(raw: string | undefined): DontKnowCategory[] {
  if (raw === undefined || raw === 'all') return [...DONT_KNOW_CATEGORY_IDS];
  if (raw === 'none' || raw === '') return [];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !isDontKnowCategory(n));
  if (unknown.length > 0)
    throw new CandorError(
      'option_invalid',
      `--categories: unknown ${unknown.join(', ')}; choose from ${DONT_KNOW_CATEGORY_IDS.join(', ')}, or all / none`,
    );
  return [...new Set(names)] as DontKnowCategory[];
}

function count(raw: string | undefined, fallback: number, flag: string, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new CandorError('option_invalid', `${flag} must be a whole number from 1 to ${max} (got "${raw}")`);
  return n;
}

function tally(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
