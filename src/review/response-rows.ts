import { z } from 'zod';

/**
 * A labelled reply to judge or import: `{"id","question","response","label"?}`.
 * PolicyBench's published rows are read as they are: `response_id` stands for
 * `id`, and the label named by `labelField` (e.g. `abstention`, `factuality`)
 * for `label`. `answerable` (or PolicyBench's `experiment_type: "removal"`, a
 * question whose fact was removed) says which decision was right, when known.
 */
export const RESPONSES_FORMAT = '{"id","question","response","label"?,"answerable"?}';

export interface ResponseRow {
  readonly id: string;
  readonly question: string;
  readonly response: string;
  readonly label?: string;
  /** True: answering was right; false: abstaining was right; absent: not known. */
  readonly answerable?: boolean;
}

const Row = z.object({
  id: z.union([z.string().trim().min(1).max(200), z.number().int()]).transform(String),
  question: z.string().trim().min(1, 'is empty').max(20_000),
  response: z.string().max(200_000),
  label: z
    .union([z.string().trim().min(1), z.boolean()])
    .transform(String)
    .optional(),
  answerable: z.boolean().optional(),
});

/** The row schema, reading `labelField` as the label when `label` is absent. */
export function responseRowSchema(labelField?: string): z.ZodType<ResponseRow> {
  return z.preprocess((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const v = value as Record<string, unknown>;
    const label = v.label ?? (labelField ? v[labelField] : undefined);
    const answerable = v.answerable ?? (v.experiment_type === 'removal' ? false : undefined);
    return {
      id: v.id ?? v.response_id,
      question: v.question,
      response: v.response,
      ...(label === undefined || label === null ? {} : { label }),
      ...(answerable === undefined ? {} : { answerable }),
    };
  }, Row) as unknown as z.ZodType<ResponseRow>;
}

/** Reads an abstention label: yes/no, true/false, abstain/answer → "yes" (abstained) or "no"; null if it is none of these. */
export function abstainedLabel(raw: string): 'yes' | 'no' | null {
  const v = raw.trim().toLowerCase();
  if (['yes', 'true', 'abstain', 'abstained', 'abstention'].includes(v)) return 'yes';
  if (['no', 'false', 'answer', 'answered'].includes(v)) return 'no';
  return null;
}
