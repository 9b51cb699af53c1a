import type { SourceDocumentRow } from '../../kb/sources/source-records.js';
import type { SourceView } from '../../kb/sources/source-view.js';
import { csrfInput } from './csrf.js';
import { formatTime, href, html, truncate, type Html } from './html.js';

/** Who is looking: whether they may press "Sync now" on a KB's sources, else why not. */
export interface SourcesViewer {
  readonly csrf: string | null;
  canSync(kb: string): boolean;
  whyNot(kb: string): string;
}

const OUTCOME_TEXT: Readonly<Record<string, string>> = { changed: 'changed', unchanged: 'unchanged', failed: 'FAILED' };

/**
 * Every source of the KBs shown: where it syncs from, its last sync (outcome, documents fetched, changed,
 * removed and failed), its documents now (stale ones counted apart), the next run and the last error; a
 * "Sync now" button for the KB's owners.
 */
export function sourcesPage(views: readonly SourceView[], viewer: SourcesViewer, notice: { queued?: number; pollSeconds: number }): Html {
  const queued =
    notice.queued === undefined
      ? ''
      : html`<p class="notice" role="status">Source ${notice.queued} is queued: a server syncs it within ${notice.pollSeconds} s.</p>`;
  if (views.length === 0)
    return html`${queued}
      <p class="muted">
        No sources yet. Point a KB at a site or a folder with <code>candor sources add https://intranet.example.com/sitemap.xml --kb handbook</code>.
      </p>`;
  return html`${queued}
    <table data-testid="sources">
      <thead>
        <tr>
          <th>#</th><th>KB</th><th>Source</th><th>Every</th><th>Last sync</th><th>Pages</th><th>Changed</th><th>Removed</th><th>Failed</th>
          <th>Next run</th><th>Last error</th><th></th>
        </tr>
      </thead>
      <tbody>
        ${views.map((view) => row(view, viewer))}
      </tbody>
    </table>
    <p class="muted">
      Pages: documents in the KB from the source, with those it has not listed for ${views[0]?.staleDays} days (CANDOR_SOURCES_STALE_DAYS) counted as
      stale. Changed, removed and failed: the last sync's documents.
    </p>`;
}

function row(view: SourceView, viewer: SourcesViewer): Html {
  const last = view.lastDocuments;
  const docs = view.documents;
  const overdue = view.lastOutcome === 'failed';
  return html`<tr data-source="${view.id}"${overdue ? html` class="failed"` : ''}>
    <td><a href="/sources/${view.id}">${view.id}</a></td>
    <td>${view.kb}</td>
    <td>${view.kind === 'web' ? html`<a href="${view.source}" rel="noreferrer">${truncate(view.source, 60)}</a>` : truncate(view.source, 60)}</td>
    <td>${view.every}</td>
    <td>${view.lastSync ? html`${formatTime(view.lastSync)} ${OUTCOME_TEXT[view.lastOutcome ?? ''] ?? view.lastOutcome}` : html`<span class="muted">never</span>`}</td>
    <td>${docs.active + docs.stale}${docs.stale > 0 ? html` <span class="warn">(${docs.stale} stale)</span>` : ''}</td>
    <td>${last?.changed ?? '–'}</td>
    <td>${last?.removed ?? '–'}</td>
    <td>${last?.failed ?? '–'}</td>
    <td>${formatTime(view.nextRun)}</td>
    <td>${view.lastError ? truncate(view.lastError, 120) : ''}</td>
    <td>${syncButton(view, viewer)}</td>
  </tr>`;
}

function syncButton(view: SourceView, viewer: SourcesViewer): Html {
  if (!viewer.canSync(view.kb)) return html`<button type="button" disabled title="${viewer.whyNot(view.kb)}">Sync now</button>`;
  return html`<form method="post" action="/sources/${view.id}/sync">
    ${csrfInput(viewer.csrf)}<button type="submit">Sync now</button>
  </form>`;
}

const STATE_TEXT: Readonly<Record<string, string>> = {
  active: 'in the KB',
  failed: 'failing (previous facts kept)',
  gone: 'gone (retired)',
};

/** One source and its documents: state, last seen in the listing (stale when long ago), last change and error. */
export function sourcePage(view: SourceView, documents: readonly SourceDocumentRow[], staleBefore: Date, viewer: SourcesViewer): Html {
  return html`<p>
      <a href="${href('/sources', { kb: view.kb })}">All sources</a> · ${view.kb} · ${view.source} · every ${view.every}
      ${syncButton(view, viewer)}
    </p>
    ${view.lastError ? html`<p class="error">Last error: ${view.lastError}</p>` : ''}
    <table data-testid="source-documents">
      <thead>
        <tr><th>Document</th><th>State</th><th>Last seen</th><th>Changed</th><th>Facts</th><th>Error</th></tr>
      </thead>
      <tbody>
        ${documents.map((doc) => {
          const stale = doc.state === 'active' && doc.lastSeenAt < staleBefore;
          return html`<tr data-state="${stale ? 'stale' : doc.state}">
            <td>${doc.url ? html`<a href="${doc.url}" rel="noreferrer">${truncate(doc.key, 80)}</a>` : truncate(doc.key, 80)}</td>
            <td>${stale ? 'stale (not listed lately)' : (STATE_TEXT[doc.state] ?? doc.state)}</td>
            <td>${formatTime(doc.lastSeenAt)}</td>
            <td>${doc.changedAt ? formatTime(doc.changedAt) : ''}</td>
            <td>${doc.facts}</td>
            <td>${doc.lastError ? truncate(doc.lastError, 120) : ''}</td>
          </tr>`;
        })}
      </tbody>
    </table>
    ${documents.length >= 200 ? html`<p class="muted">The first 200 documents are shown.</p>` : ''}`;
}
