import { statSync } from 'node:fs';

import { globMatcher } from '../../core/text/glob-match.js';
import { listSourceFiles } from '../ingest/read-sources.js';
import type { Connector, FetchOutcome, ListedDocument, ListOutcome } from './connector.js';

export interface FolderConnectorOptions {
  /** Only files whose path below the folder matches. */
  readonly include?: string | null;
  readonly maxPages: number;
}

/**
 * A local folder: the files under it that `candor ingest` reads, each known by its path below the folder (as an
 * ingest of the folder names them, so syncing a folder that was ingested by hand takes its documents over). A
 * file's version token is its size and modification time: an untouched file is not read again.
 */
export function createFolderConnector(folder: string, options: FolderConnectorOptions): Connector {
  const included = options.include ? globMatcher(options.include) : () => true;
  const files = new Map<string, string>();
  return {
    async list(): Promise<ListOutcome> {
      let isFolder = false;
      try {
        isFolder = statSync(folder).isDirectory();
      } catch (error) {
        return {
          ok: false,
          reason: `the folder ${folder} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        };
      }
      if (!isFolder) return { ok: false, reason: `${folder} is not a folder` };
      const { files: found, skipped } = listSourceFiles([folder]);
      const notes = skipped.map((entry) => `${entry.path}: ${entry.reason}`);
      const wanted = found.filter((file) => included(file.key));
      if (wanted.length > options.maxPages)
        notes.push(`${wanted.length - options.maxPages} files past the limit of ${options.maxPages} were left out`);
      files.clear();
      const documents: ListedDocument[] = [];
      for (const file of wanted.slice(0, options.maxPages)) {
        const token = versionToken(file.file);
        if (token === null) continue; // gone between listing and stat: not listed
        files.set(file.key, file.file);
        documents.push({ key: file.key, url: null, versionToken: token });
      }
      return { ok: true, documents, notes };
    },
    async fetch(document, previous): Promise<FetchOutcome> {
      const file = files.get(document.key);
      const token = file === undefined ? null : versionToken(file);
      if (file === undefined || token === null) return { kind: 'gone', reason: 'the file was deleted' };
      const validators = { etag: null, lastModified: null, versionToken: token };
      if (previous?.versionToken === token) return { kind: 'unchanged', validators };
      return { kind: 'file', file, validators };
    },
  };
}

/** Size and modification time, or null when the file is gone. */
function versionToken(file: string): string | null {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}
