// Files and functions a reader can hold (STYLE.md), checked on every `npm test`: no file of src/ over
// MAX_FILE_LINES lines, no function over MAX_FUNCTION_LINES (from its first line to its last, nested functions
// included in their parent and measured on their own too). `node scripts/check-sizes.mjs [ROOT]` checks ROOT/src.
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

import { readTree } from './check-boundaries.mjs';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 80;

/** Each function-like node with a body in `text`: its name (or "(anonymous)"), first line and line count. */
export function functionsOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node, source) {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) return parent.name.getText(source);
  return '(anonymous)';
}

/** Lines in `text` (a final newline ends the last line; it does not start another). */
export const lineCount = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** Every file and function over its limit among `files` ({ path, text }), one line each. */
export function sizeProblems(files, limits = { file: MAX_FILE_LINES, fn: MAX_FUNCTION_LINES }) {
  const problems = [];
  for (const { path, text } of files) {
    const lines = lineCount(text);
    if (lines > limits.file) problems.push(`${path}: ${lines} lines (at most ${limits.file} per file: split it by responsibility)`);
    for (const fn of functionsOf(path, text)) {
      if (fn.lines > limits.fn) problems.push(`${path}:${fn.line}: function ${fn.name} is ${fn.lines} lines (at most ${limits.fn})`);
    }
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
  const files = readTree(root);
  const problems = sizeProblems(files);
  if (problems.length > 0) {
    console.error(`Files or functions over their size limits:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`sizes ok (${files.length} files: each ≤ ${MAX_FILE_LINES} lines, each function ≤ ${MAX_FUNCTION_LINES})`);
}
