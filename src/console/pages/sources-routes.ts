import type { ConsoleSources } from '../console-sources.js';
import type { ConsoleHandler, ConsoleRequest } from './console-context.js';
import { redirect } from './console-http.js';
import { html } from './html.js';
import { sourcePage, sourcesPage, type SourcesViewer } from './sources-page.js';

/** `/sources/ID` and its "Sync now" post `/sources/ID/sync`. */
export const SOURCE_PATH = /^\/sources\/(\d{1,9})(\/sync)?$/;

/**
 * The Sources page (`/sources`), one source's documents (`/sources/ID`), and "Sync now" (`POST /sources/ID/sync`,
 * the KB's owners only; anyone else gets 403 and nothing changes): the source is marked due, and the next look
 * of any replica syncs it (one sync at a time per source, whoever asks).
 */
export function sourcesRoutes(sources: ConsoleSources): ConsoleHandler {
  return async (r) => {
    if (r.url.pathname === '/sources') {
      if (r.form) return false;
      const queued = Number(r.url.searchParams.get('queued'));
      const views = await sources.list(r.kb);
      const notice = { pollSeconds: sources.pollSeconds, ...(Number.isSafeInteger(queued) && queued > 0 ? { queued } : {}) };
      return r.page('Sources', '/sources', sourcesPage(views, viewerOf(sources, r), notice));
    }
    const match = SOURCE_PATH.exec(r.url.pathname);
    if (!match) return false;
    const id = Number(match[1]);
    const detail = await sources.detail(id);
    if (!detail) return r.page('Not found', '/sources', html`<p class="muted">There is no source ${id}.</p>`, { status: 404 });
    if (!r.form) return match[2] ? redirect(r.res, `/sources/${id}`) : show(r, detail);
    if (!match[2]) return false;
    if (!sources.canSync(detail.source.kb, r.user))
      return show(r, detail, 403, html`<p class="error" role="alert">${sources.whyNot(detail.source.kb, r.user)}</p>`);
    await sources.syncSoon(id);
    return redirect(r.res, `/sources?queued=${id}`);
  };

  function show(
    r: ConsoleRequest,
    detail: NonNullable<Awaited<ReturnType<ConsoleSources['detail']>>>,
    status = 200,
    before = html``,
  ): true {
    const body = html`${before}${sourcePage(detail.source, detail.documents, detail.staleBefore, viewerOf(sources, r))}`;
    return r.page(`Source ${detail.source.id}`, '/sources', body, { status, kb: detail.source.kb });
  }
}

function viewerOf(sources: ConsoleSources, r: ConsoleRequest): SourcesViewer {
  return { csrf: r.csrf, canSync: (kb) => sources.canSync(kb, r.user), whyNot: (kb) => sources.whyNot(kb, r.user) };
}
