import { z } from 'zod';

import { httpUrl } from '../core/text/http-url.js';

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
