import { statSync } from 'node:fs';

import { parseDuration } from '../../core/text/duration.js';
import { CandorError } from '../../kernel/errors.js';
import type { NewSource } from './source-records.js';
import { parseWebSource } from './web/web-connector.js';

/** How often a source is synced when --every is not given: daily. */
export const DEFAULT_EVERY_SECONDS = 86_400;
/** Pages (or files) one sync reads at most when --max-pages is not given. */
export const DEFAULT_MAX_PAGES = 10_000;
/** The shortest period: a sync of a large site takes minutes, and a site is not to be hammered. */
const MIN_EVERY_SECONDS = 300;

export interface SourceSpec {
  readonly kb: string;
  /** An http(s) URL as typed, or a folder's path already resolved against the folder the command ran in. */
  readonly source: string;
  readonly every?: string | undefined;
  readonly include?: string | undefined;
  readonly maxPages?: number | undefined;
}

/**
 * A source as `candor sources add` takes it, checked: an http(s) URL (a page or a sitemap), or a folder that
 * exists. A bad URL, another scheme, a missing folder, a bad duration or glob: each an `option_invalid` error
 * that says what is accepted.
 */
export function parseSourceSpec(spec: SourceSpec): NewSource {
  const everySeconds = spec.every === undefined ? DEFAULT_EVERY_SECONDS : checked(() => parseDuration(spec.every as string));
  if (everySeconds < MIN_EVERY_SECONDS)
    throw new CandorError('option_invalid', `--every ${spec.every}: a source is synced at most every 5m`);
  if (spec.include !== undefined && spec.include.trim() === '')
    throw new CandorError('option_invalid', '--include: an empty glob matches nothing');
  const common = { kb: spec.kb, everySeconds, include: spec.include ?? null, maxPages: spec.maxPages ?? DEFAULT_MAX_PAGES };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec.source)) {
    if (/^[^/]*\/\/[^/@]*@/.test(spec.source))
      throw new CandorError('option_invalid', 'a source URL may not carry a user name or password (they would be shown in lists and logs)');
    const web = parseWebSource(spec.source);
    if (!web.ok) throw new CandorError('option_invalid', `${web.reason}: give an http(s) URL of a page or a sitemap.xml, or a folder`);
    return { ...common, kind: 'web', source: web.source.url.href };
  }
  let folder = false;
  try {
    folder = statSync(spec.source).isDirectory();
  } catch {
    throw new CandorError(
      'file_not_found',
      `There is no folder ${spec.source}: give an http(s) URL of a page or a sitemap.xml, or a folder`,
    );
  }
  if (!folder)
    throw new CandorError('option_invalid', `${spec.source} is a file: a source is a folder (ingest a single file with candor ingest)`);
  return { ...common, kind: 'folder', source: spec.source };
}

function checked<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new CandorError('option_invalid', (error as Error).message);
  }
}
