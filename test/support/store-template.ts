// Vitest globalSetup: a folder for the run's migrated-store template (made on first use, see migrated-store.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where migratedStore() keeps the run's template; removed when the run ends. */
    storeTemplateDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'candor-store-template-'));
  project.provide('storeTemplateDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
