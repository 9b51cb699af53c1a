/** Types of check-sizes.mjs, for its test. */
import type { SourceFile } from './check-boundaries.mjs';

export const MAX_FILE_LINES: number;
export const MAX_FUNCTION_LINES: number;
export interface FunctionSize {
  readonly name: string;
  /** 1-based line the function starts on. */
  readonly line: number;
  readonly lines: number;
}
export function functionsOf(path: string, text: string): FunctionSize[];
export function lineCount(text: string): number;
export function sizeProblems(files: readonly SourceFile[], limits?: { file: number; fn: number }): string[];
