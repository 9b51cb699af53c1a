import type { SourceUrls } from '../../config/source-urls-setting.js';

export type { SourceUrls } from '../../config/source-urls-setting.js';

/**
 * The URL CANDOR_SOURCE_URLS gives a document, or null. A document is
 * matched by its path below the folder that was ingested (`key`) or by that
 * path under the ingested folder's own name (`folder/key`), and the longest
 * matching folder wins ("." is the ingested folder itself). A base that ends
 * with "/" gets the rest of the document's path appended (each part
 * URL-encoded): a folder mirrored on a web server. Otherwise the document
 * gets the base as it is: a folder of pages extracted from one PDF maps to
 * that PDF.
 */
export function sourceUrlFor(document: { readonly key: string; readonly folder?: string }, urls: SourceUrls): string | null {
  const paths = [document.key, ...(document.folder ? [`${document.folder}/${document.key}`] : [])];
  let best: { length: number; url: string } | null = null;
  for (const [rawFolder, base] of Object.entries(urls)) {
    const folder = rawFolder
      .trim()
      .replace(/\\/g, '/')
      .replace(/^(?:\.\/)+/, '')
      .replace(/\/+$/, '');
    for (const path of paths) {
      const rest =
        folder === '' || folder === '.'
          ? path
          : path === folder
            ? ''
            : path.startsWith(`${folder}/`)
              ? path.slice(folder.length + 1)
              : null;
      if (rest === null) continue;
      const length = folder === '.' ? 0 : folder.length;
      if (best !== null && best.length >= length) continue;
      const url = base.endsWith('/') ? `${base}${rest.split('/').map(encodeURIComponent).join('/')}` : base;
      best = { length, url };
    }
  }
  return best?.url ?? null;
}
