import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

import { openStore } from '../../src/store/open-store.js';

import './store-template.js';

/**
 * Copies an empty, migrated embedded store to `dataDir` (which must not exist yet)
 * and returns it. Creating a PGlite folder (initdb, every migration, one fsync per
 * commit) costs ~15 s on a loaded machine; opening a copy costs what opening any
 * store does. The template is made once per run, by whichever file needs it first.
 */
export async function migratedStore(dataDir: string): Promise<string> {
  const template = join(inject('storeTemplateDir'), 'migrated');
  if (!existsSync(template)) {
    // Made aside and renamed into place: a file running beside this one sees a whole template or none.
    const making = `${template}-${process.pid}`;
    await (await openStore({ dataDir: making, purpose: 'test template' })).close();
    try {
      renameSync(making, template);
    } catch {
      rmSync(making, { recursive: true, force: true }); // the other file's template won
    }
  }
  cpSync(template, dataDir, { recursive: true, errorOnExist: true, force: false });
  return dataDir;
}
