import { z } from 'zod';

import { httpUrl } from '../../core/text/http-url.js';

/** Folder (as ingested) → base URL: where people can open the documents below it. */
export type SourceUrls = Readonly<Record<string, string>>;

/** A CANDOR_SOURCE_URLS value that works. */
export const SOURCE_URLS_EXAMPLE =
  '{"medishield-life":"https://example.gov.sg/booklet.pdf","handbook/":"https://intranet.example.com/handbook/"}';

/**
 * CANDOR_SOURCE_URLS: a JSON object mapping folders to http(s) base URLs. A
 * bad value fails start-up with the setting named, like every setting.
 */
export const sourceUrlsSetting = z.string().transform((text, ctx): SourceUrls => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON object of folder → http(s) base URL (this is not valid JSON)' });
    return z.NEVER;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON object of folder → http(s) base URL' });
    return z.NEVER;
  }
  const urls: Record<string, string> = {};
  for (const [folder, base] of Object.entries(json)) {
    const url = httpUrl(base);
    if (url === null) {
      ctx.addIssue({ code: 'custom', message: `folder "${folder}" has no http(s) URL as its base` });
      continue;
    }
    // new URL() adds a "/" to a bare origin; keep what was written, so "https://host" stays one exact link
    urls[folder] = typeof base === 'string' && base.trim().endsWith('/') ? url : url.replace(/\/$/, '');
  }
  return urls;
});

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
