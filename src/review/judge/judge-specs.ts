import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';

import { CandorError } from '../../kernel/errors.js';
import type { Db } from '../../store/open-store.js';
import { judgeSpecs } from '../../store/schema.js';

/** A judge: a task, the criteria it applies, its allowed outcomes, its prompt and model. */
export const JudgeSpecInput = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'expected a lower-case name of letters, digits, _ and -'),
  task: z.enum(['abstention', 'factuality', 'dontknowness']),
  criteria: z.string().trim().min(20, 'write the criteria out: the rules a reviewer and the judge both follow'),
  outcomes: z.array(z.string().min(1)).min(2),
  promptId: z.string().min(1).default('judge'),
  promptVersion: z.string().min(1).default('1'),
  model: z.string().min(1),
});
export type JudgeSpecInput = z.input<typeof JudgeSpecInput>;

export interface JudgeSpec {
  readonly id: number;
  readonly name: string;
  readonly version: number;
  readonly task: 'abstention' | 'factuality' | 'dontknowness';
  readonly criteria: string;
  readonly outcomes: readonly string[];
  readonly promptId: string;
  readonly promptVersion: string;
  readonly model: string;
  readonly createdAt: Date;
}

/** The annotator id a judge's labels are stored under. */
export function judgeAnnotator(spec: Pick<JudgeSpec, 'name' | 'version'>): string {
  return `llm:${spec.name}@${spec.version}`;
}

/**
 * Adds a judge spec: a new name starts at version 1, an existing name gets the
 * next version. Old versions stay, so reports can compare them.
 */
export async function addJudgeSpec(db: Db, input: JudgeSpecInput): Promise<JudgeSpec> {
  const parsed = JudgeSpecInput.safeParse(input);
  if (!parsed.success) {
    throw new CandorError(
      'option_invalid',
      `Invalid judge spec: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const spec = parsed.data;
  return db.transaction(async (tx) => {
    // One writer per name at a time, so two adds cannot claim the same version.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`candor.judge:${spec.name}`}))`);
    const [latest] = await tx
      .select({ version: judgeSpecs.version })
      .from(judgeSpecs)
      .where(eq(judgeSpecs.name, spec.name))
      .orderBy(desc(judgeSpecs.version))
      .limit(1);
    const [row] = await tx
      .insert(judgeSpecs)
      .values({ ...spec, version: (latest?.version ?? 0) + 1 })
      .returning();
    return toSpec(row as typeof judgeSpecs.$inferSelect);
  });
}

/** Every spec, newest version first within each name; `latestOnly` keeps one per name. */
export async function listJudgeSpecs(db: Db, options: { latestOnly?: boolean } = {}): Promise<JudgeSpec[]> {
  const rows = await db.select().from(judgeSpecs).orderBy(judgeSpecs.name, desc(judgeSpecs.version));
  const specs = rows.map(toSpec);
  if (!options.latestOnly) return specs;
  const seen = new Set<string>();
  return specs.filter((s) => !seen.has(s.name) && (seen.add(s.name), true));
}

function toSpec(row: typeof judgeSpecs.$inferSelect): JudgeSpec {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    task: row.task as JudgeSpec['task'],
    criteria: row.criteria,
    outcomes: row.outcomes,
    promptId: row.promptId,
    promptVersion: row.promptVersion,
    model: row.model,
    createdAt: row.createdAt,
  };
}
