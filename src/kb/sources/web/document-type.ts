import type { FetchedType } from '../connector.js';

const BY_MEDIA_TYPE: Readonly<Record<string, FetchedType>> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

const BY_EXTENSION: Readonly<Record<string, FetchedType>> = {
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  md: 'markdown',
  markdown: 'markdown',
  pdf: 'pdf',
  docx: 'docx',
};

/** Media types that say only "bytes": the URL's extension tells what they are. */
const UNSPECIFIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/** What the Accept header of a document request asks for: the types read, anything else as a last resort. */
export const DOCUMENT_ACCEPT = `${Object.keys(BY_MEDIA_TYPE).join(',')},*/*;q=0.1`;

/**
 * What a response is, from its Content-Type, or null when it is not a document ingest reads (an image, a zip, a
 * JSON API). Tolerated as servers commonly send them: Markdown served as text/plain under a .md name, and a file
 * served without a type or as application/octet-stream, read by its extension.
 */
export function documentTypeOf(contentType: string | null, url: URL): FetchedType | null {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? '';
  const byExtension = BY_EXTENSION[extension] ?? null;
  if (UNSPECIFIC.has(mediaType)) return byExtension;
  const type = BY_MEDIA_TYPE[mediaType] ?? null;
  return type === 'text' && byExtension === 'markdown' ? 'markdown' : type;
}
