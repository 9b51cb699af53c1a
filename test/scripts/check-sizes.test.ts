import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

import { functionsOf, lineCount, MAX_FILE_LINES, MAX_FUNCTION_LINES, sizeProblems } from '../../scripts/check-sizes.mjs';

// Files and functions a reader can hold: each limit fails one line over it and passes at it; the real tree passes.
const run = promisify(execFile);
const script = new URL('../../scripts/check-sizes.mjs', import.meta.url).pathname;
/** A function of exactly `lines` lines (its first and last line included). */
const fn = (name: string, lines: number) => `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;

describe('check-sizes', () => {
  it('counts lines as an editor does: a final newline ends the last line', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('measures functions, arrows, methods and nested functions from first line to last, with their names', () => {
    const text = `${fn('outer', 5)}const arrow = () => {\n  const inner = function () {\n    return 2;\n  };\n  return inner();\n};\nclass K {\n  method(): void {}\n}\n`;
    expect(functionsOf('src/x.ts', text)).toEqual([
      { name: 'outer', line: 1, lines: 5 },
      { name: 'arrow', line: 6, lines: 6 },
      { name: 'inner', line: 7, lines: 3 },
      { name: 'method', line: 13, lines: 1 },
    ]);
  });

  it('a function one line over the limit fails, naming file, line and function; one at the limit passes', () => {
    const at = { path: 'src/a.ts', text: fn('fits', MAX_FUNCTION_LINES) };
    const over = { path: 'src/b.ts', text: `// b\n${fn('tooLong', MAX_FUNCTION_LINES + 1)}` };
    expect(sizeProblems([at, over])).toEqual([
      `src/b.ts:2: function tooLong is ${MAX_FUNCTION_LINES + 1} lines (at most ${MAX_FUNCTION_LINES})`,
    ]);
  });

  it('a file one line over the limit fails; one at the limit passes', () => {
    const at = { path: 'src/a.ts', text: 'export const a = 1;\n'.repeat(MAX_FILE_LINES) };
    const over = { path: 'src/b.ts', text: 'export const b = 1;\n'.repeat(MAX_FILE_LINES + 1) };
    expect(sizeProblems([at, over])).toEqual([
      `src/b.ts: ${MAX_FILE_LINES + 1} lines (at most ${MAX_FILE_LINES} per file: split it by responsibility)`,
    ]);
  });

  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('the script passes on the real tree and exits 1 on a planted long function', async () => {
    const { stdout } = await run(process.execPath, [script]);
    expect(stdout).toMatch(/^sizes ok \(\d+ files: each ≤ 300 lines, each function ≤ 80\)/);

    const root = mkdtempSync(join(tmpdir(), 'candor-sizes-'));
    roots.push(root);
    mkdirSync(join(root, 'src/ask'), { recursive: true });
    writeFileSync(join(root, 'src/ask/long.ts'), fn('answerEverything', 90));
    const failed = await run(process.execPath, [script, root]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('src/ask/long.ts:1: function answerEverything is 90 lines (at most 80)');
  });
});
