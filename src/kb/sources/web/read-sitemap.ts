import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

import { describeLimit, formatBytes } from '../../../config/ingest-limits.js';
import { sitemapKind, type SitemapKind } from '../../../core/web/sitemap-xml.js';
import type { PageFetch } from './fetch-page.js';
import { getFollowingRedirects } from './follow-redirects.js';
import { readBody } from './read-body.js';
import { refusal } from './site-rules.js';
import { discard } from './web-request.js';

const gunzipAsync = promisify(gunzip);

/** A sitemap's text and kind; or why it could not be read, `gone` when the site says it is no more (404, 410). */
export type SitemapRead =
  | { readonly ok: true; readonly xml: string; readonly kind: SitemapKind }
  | { readonly ok: false; readonly gone: boolean; readonly reason: string };

/**
 * One sitemap (or sitemap index), within the size limit, gzip-compressed or not (the limit bounds it once
 * uncompressed too), redirects within the site's rules. Anything but a `<urlset>` or `<sitemapindex>` is refused.
 */
export async function readSitemap({ client, site, maxFileBytes }: PageFetch, url: URL, signal: AbortSignal): Promise<SitemapRead> {
  const failed = (reason: string, gone = false): SitemapRead => ({ ok: false, gone, reason: `sitemap ${url.href}: ${reason}` });
  const accept = 'application/xml,text/xml;q=0.9,*/*;q=0.1';
  const got = await getFollowingRedirects(client, url, { accept }, (next) => refusal(site, next), signal);
  if (!got.ok) return failed(got.reason);
  const { response } = got;
  if (response.status < 200 || response.status >= 300) {
    await discard(response);
    const gone = response.status === 404 || response.status === 410;
    return failed(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, gone);
  }
  const body = await readBody(response, maxFileBytes, got.explain);
  if (!body.ok) return failed(body.reason);
  let bytes = body.bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzipAsync(bytes, { maxOutputLength: maxFileBytes });
    } catch (error) {
      const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      const limit = describeLimit('maxFileBytes', maxFileBytes, formatBytes(maxFileBytes));
      return failed(tooLarge ? `larger than ${limit} once uncompressed` : `not readable gzip (${(error as Error).message})`);
    }
  }
  const xml = new TextDecoder().decode(bytes);
  const kind = sitemapKind(xml);
  if (kind === null) return failed('not a sitemap (no <urlset> or <sitemapindex>)');
  return { ok: true, xml, kind };
}
