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
export interface Layer {
  readonly name: string;
  /** Repository paths: a folder ends with "/", a file does not. */
  readonly paths: readonly string[];
}
/** The layers of src/, lowest first. */
export const LAYERS: readonly Layer[];
/** The index of the layer a path belongs to, or -1. */
export function layerOf(path: string, layers?: readonly Layer[]): number;
/** Upward imports and files in no layer, one line each. */
export function layerProblems(files: readonly SourceFile[], layers?: readonly Layer[]): string[];
/** Cycles among src/'s top-level folders, one line each: "folder import cycle: a → b → a". */
export function folderCycles(files: readonly SourceFile[]): string[];
