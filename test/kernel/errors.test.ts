import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { CandorError, ERROR_CODES, fileReadError } from '../../src/kernel/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The codes a response writes itself (`{ error: { code: 'internal', … } }`), besides a CandorError's. */
function responseCodes(): string[] {
  const found = sources(join(ROOT, 'src')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/error: \{ code: '([a-z_]+)'/g)].map((m) => m[1] as string),
  );
  return [...new Set(found)];
}

/** The first column of the table under "## Errors" in docs/commands.md. */
function documentedCodes(): string[] {
  const page = readFileSync(join(ROOT, 'docs/commands.md'), 'utf8');
  const section = page.split(/^## Errors$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] as string);
}

describe('error codes', () => {
  it('every code, a CandorError’s or one a response writes, is in the docs’ table once, and nothing else is', () => {
    const documented = documentedCodes();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...new Set([...ERROR_CODES, ...responseCodes()])].sort());
  });

  it('a CandorError is not retryable and is a 500 unless it says otherwise', () => {
    expect(new CandorError('busy', 'Another run.')).toMatchObject({ code: 'busy', status: 500, retryable: false });
    expect(new CandorError('kb_warming', 'Loading.', { status: 503, retryable: true })).toMatchObject({ status: 503, retryable: true });
  });

  it('a file that cannot be read: file_not_found when it is missing, file_unreadable when it is there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'candor-errors-'));
    try {
      const failure = (path: string) => {
        try {
          readFileSync(path, 'utf8');
        } catch (cause) {
          return fileReadError(path, cause);
        }
        throw new Error(`${path} was read`);
      };
      const missing = failure(join(dir, 'nope.jsonl'));
      expect(missing).toMatchObject({ code: 'file_not_found', message: expect.stringContaining('nope.jsonl') });
      expect((missing.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
      expect(failure(join(dir, 'nope', 'deeper.jsonl')).code).toBe('file_not_found');
      expect(failure(dir)).toMatchObject({ code: 'file_unreadable', message: expect.stringContaining('EISDIR') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
