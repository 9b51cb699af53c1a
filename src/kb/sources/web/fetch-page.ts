import type { FetchOutcome, ListedDocument, Validators } from '../connector.js';
import { DOCUMENT_ACCEPT, documentTypeOf } from './document-type.js';
import { getFollowingRedirects } from './follow-redirects.js';
import { readBody } from './read-body.js';
import { pageUrl, refusal, type SiteRules } from './site-rules.js';
import { discard, type WebClient } from './web-request.js';

/** Reading one page of a site: how to ask, where it may go, how much it may read. */
export interface PageFetch {
  readonly client: WebClient;
  readonly site: SiteRules;
  readonly maxFileBytes: number;
}

/**
 * One listed page, asked for conditionally when the previous sync left validators: 304 → unchanged; 404 or
 * 410 → gone; any other status that is not 2xx → failed with it; a type ingest does not read → failed; a body
 * over the size limit → failed, stopped as it passes the limit. Redirects go only where the site rules allow.
 */
export async function fetchPage(
  { client, site, maxFileBytes }: PageFetch,
  document: ListedDocument,
  previous: Validators | null,
  signal: AbortSignal,
): Promise<FetchOutcome> {
  const start = pageUrl(document.url ?? document.key);
  if (start === null) return { kind: 'failed', reason: `not an http(s) URL: ${document.url ?? document.key}` };
  const refused = refusal(site, start);
  if (refused !== null) return { kind: 'failed', reason: refused };
  const got = await getFollowingRedirects(client, start, requestHeaders(previous), (url) => refusal(site, url), signal);
  if (!got.ok) return { kind: 'failed', reason: got.reason };
  const { response, url } = got;
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status === 304 && conditional(previous)) {
    await discard(response);
    return { kind: 'unchanged', validators: { ...previous, ...validatorsOf(response, false) } };
  }
  if (response.status === 404 || response.status === 410) {
    await discard(response);
    return { kind: 'gone', reason: `${status} at ${url.href}` };
  }
  if (response.status < 200 || response.status >= 300) {
    await discard(response);
    return { kind: 'failed', reason: `${status} at ${url.href}` };
  }
  const contentType = response.headers.get('content-type');
  const type = documentTypeOf(contentType, url);
  if (type === null) {
    await discard(response);
    const sitemap = /\bxml\b/i.test(contentType ?? '') ? '; a sitemap is read as one when its URL ends in .xml or .xml.gz' : '';
    return { kind: 'failed', reason: `not a document type (content-type ${contentType ?? 'missing'}) at ${url.href}${sitemap}` };
  }
  const body = await readBody(response, maxFileBytes, got.explain);
  if (!body.ok) return { kind: 'failed', reason: body.reason };
  return { kind: 'document', bytes: body.bytes, type, url: url.href, validators: validatorsOf(response, true) };
}

function conditional(previous: Validators | null): previous is Validators {
  return previous !== null && (previous.etag !== null || previous.lastModified !== null);
}

function requestHeaders(previous: Validators | null): Record<string, string> {
  const headers: Record<string, string> = { accept: DOCUMENT_ACCEPT };
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  return headers;
}

/** The response's validators; with `all` false only those it sent (a 304 may repeat or renew them, or not). */
function validatorsOf(response: Response, all: true): Validators;
function validatorsOf(response: Response, all: false): Partial<Validators>;
function validatorsOf(response: Response, all: boolean): Partial<Validators> {
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  if (all) return { etag, lastModified };
  return { ...(etag !== null && { etag }), ...(lastModified !== null && { lastModified }) };
}
