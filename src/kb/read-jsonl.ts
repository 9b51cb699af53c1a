import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';

import { CandorError, fileReadError } from '../kernel/errors.js';

export interface JsonlOptions {
  /** What one line should look like, for the error message (e.g. `{"id","question","response"}`). */
  readonly expected: string;
  /** Refuse files larger than this. @default 256 MiB */
  readonly maxBytes?: number;
  /** Allow a file with no rows. @default false */
  readonly allowEmpty?: boolean;
}

/** A parsed line and where it came from. */
export interface JsonlRow<T> {
  readonly line: number;
  readonly value: T;
}

/**
 * Reads a JSON Lines file, validating every line with `schema`. Every bad line
 * is named (up to ten in the message) and nothing is returned when any is bad:
 * an evaluation or an import must be exact, not quietly partial. Blank lines
 * are skipped; binary files, unreadable or oversized files are refused.
 */
export function readJsonl<T>(path: string, schema: z.ZodType<T>, options: JsonlOptions): JsonlRow<T>[] {
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxBytes)
      throw new CandorError(
        'file_too_large',
        `${path} is ${Math.round(size / 1024 / 1024)} MiB; the limit is ${Math.round(maxBytes / 1024 / 1024)} MiB. Split it into smaller files.`,
      );
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    if (cause instanceof CandorError) throw cause;
    throw fileReadError(path, cause);
  }
  if (text.includes('\u0000'))
    throw new CandorError('file_malformed', `${path} is not a text file (it holds NUL bytes); expected JSON Lines: ${options.expected}`);
  const problems: string[] = [];
  const rows: JsonlRow<T>[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      if (raw.trim() === '') return;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        problems.push(`line ${i + 1}: not valid JSON`);
        return;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) rows.push({ line: i + 1, value: parsed.data });
      else problems.push(`line ${i + 1}: ${parsed.error.issues.map((e) => `${e.path.join('.') || 'line'} ${e.message}`).join('; ')}`);
    });
  if (problems.length > 0) {
    const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
    throw new CandorError(
      'file_malformed',
      `${path} has ${problems.length} bad line${problems.length === 1 ? '' : 's'} (expected ${options.expected}):\n  ${problems.slice(0, 10).join('\n  ')}${more}`,
    );
  }
  if (rows.length === 0 && !options.allowEmpty)
    throw new CandorError('file_malformed', `${path} holds no rows (expected JSON Lines: ${options.expected}).`);
  return rows;
}
