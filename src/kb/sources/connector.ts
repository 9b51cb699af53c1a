/**
 * What a source of documents offers a sync: the documents it holds now, each
 * with a version token, and one document's bytes. The web (a page or a
 * sitemap) and a local folder are connectors; Confluence, SharePoint or Google
 * Drive can be added behind the same interface. A connector only reads: the
 * sync compares what it lists and fetches with what the KB holds.
 */

/** One document a source holds now. */
export interface ListedDocument {
  /** Its identity in the KB (documents.path): the page URL for the web, the path below the folder for a folder. */
  readonly key: string;
  /** The link a person follows from an answer (the page URL); null when there is none (a local file). */
  readonly url: string | null;
  /** Changes when the document changes, as far as the listing tells (a sitemap's lastmod, a file's mtime and size); null when it does not. */
  readonly versionToken: string | null;
}

/** What the previous sync learned of a document, for a conditional request. */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** The version token the document was listed with last time (a connector may skip a fetch when it is the same). */
  readonly versionToken?: string | null;
}

/** The document types a sync reads: those ingest reads. */
export type FetchedType = 'html' | 'markdown' | 'text' | 'pdf' | 'docx';

/** Fetching one listed document. */
export type FetchOutcome =
  /** Its bytes, what they are, and the validators to send next time. */
  | {
      readonly kind: 'document';
      readonly bytes: Uint8Array;
      readonly type: FetchedType;
      /** The URL it was read from after redirects (the citation link); null for a local file. */
      readonly url: string | null;
      readonly validators: Validators;
    }
  /** A local file, read as `candor ingest` reads it (a .jsonl streamed, whatever its size). */
  | { readonly kind: 'file'; readonly file: string; readonly validators: Validators }
  /** Not changed since the validators given (HTTP 304). */
  | { readonly kind: 'unchanged'; readonly validators: Validators }
  /** No longer there (HTTP 404 or 410, a deleted file): its facts are retired. */
  | { readonly kind: 'gone'; readonly reason: string }
  /** Could not be read this time (a 500, a timeout, over a limit, not a document type, disallowed): its previous facts stay. */
  | { readonly kind: 'failed'; readonly reason: string };

/** Listing a source: its documents, or why the source as a whole could not be listed (its KB is then left as it is). */
export type ListOutcome =
  | { readonly ok: true; readonly documents: readonly ListedDocument[]; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

export interface Connector {
  list(signal: AbortSignal): Promise<ListOutcome>;
  fetch(document: ListedDocument, previous: Validators | null, signal: AbortSignal): Promise<FetchOutcome>;
}
