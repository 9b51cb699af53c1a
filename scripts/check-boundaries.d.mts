/** Types of check-boundaries.mjs, for its test. */
export interface BoundaryRule {
  readonly name: string;
  applies(file: string): boolean;
  bad(spec: string, file: string): boolean;
}
export interface SourceFile {
  /** Repository path with "/" separators, e.g. "src/channels/slack/slack-channel.ts". */
  readonly path: string;
  readonly text: string;
}
export const RULES: readonly BoundaryRule[];
export function importsOf(text: string): string[];
export function checkFiles(files: readonly SourceFile[], rules?: readonly BoundaryRule[]): string[];
export function readTree(root: string): SourceFile[];
/** Import cycles among the files (relative imports, type-only too), one line each: "import cycle: a.ts → b.ts → a.ts". */
export function importCycles(files: readonly SourceFile[]): string[];
