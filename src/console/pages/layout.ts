import { csrfInput } from './csrf.js';
import { href, html, type Html } from './html.js';

export const NAV = [
  { path: '/', label: 'Overview' },
  { path: '/interactions', label: 'Interactions' },
  { path: '/gaps', label: 'KB gaps' },
  { path: '/facts', label: 'Expert facts' },
  { path: '/sources', label: 'Sources' },
  { path: '/review', label: 'Review' },
  { path: '/agreement', label: 'Agreement' },
  { path: '/ask', label: 'Ask' },
] as const;

/** The knowledge base a page is looking at, and the ones it may switch to (the header's selector). */
export interface KbChoice {
  /** The KB chosen (`?kb=`), kept on every navigation link; undefined: all of them. */
  readonly kb: string | undefined;
  readonly kbs: readonly string[];
}

/**
 * The page frame: navigation (keeping the chosen KB), the KB selector, the signed-in user and a way out.
 * No scripts: every page works as plain HTML (the selector is a small GET form with its own button).
 */
export function layout(page: {
  title: string;
  active: string;
  user: string | null;
  body: Html;
  kb?: KbChoice | undefined;
  /** The page's CSRF token, and whether the viewer may sign everyone out (a second button). */
  signOut?: { csrf: string | null; admin: boolean } | undefined;
}): string {
  const kb = page.kb?.kb;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · Candor</title>
        <link rel="stylesheet" href="/console.css" />
      </head>
      <body>
        <header>
          <a class="brand" href="${href('/', { kb })}">Candor</a>
          <nav aria-label="Console pages">
            ${NAV.map((item) => html`<a href="${href(item.path, { kb })}" ${item.path === page.active ? html` aria-current="page"` : ''}>${item.label}</a>`)}
          </nav>
          ${page.kb && page.user !== null ? kbSelector(page.active, page.kb) : ''}
          ${page.user === null ? '' : signOutForms(page.user, page.signOut)}
        </header>
        <main>
          <h1>${page.title}</h1>
          ${page.body}
        </main>
      </body>
    </html> `.value;
}

function kbSelector(active: string, choice: KbChoice): Html {
  return html`<form class="kb-select" method="get" action="${active}" data-testid="kb-selector">
    <label
      ><span class="visually-hidden">Knowledge base</span
      ><select name="kb" aria-label="Knowledge base">
        <option value="">all knowledge bases</option>
        ${choice.kbs.map((k) => html`<option value="${k}" ${k === choice.kb ? html` selected` : ''}>${k}</option>`)}
      </select></label
    >
    <button type="submit">Switch</button>
  </form>`;
}

/** Sign out (this browser); for an admin also sign out everywhere, a form of its own carrying the CSRF token. */
function signOutForms(user: string, options: { csrf: string | null; admin: boolean } | undefined): Html {
  return html`<form class="logout" method="post" action="/logout"><span>${user}</span> <button type="submit">Sign out</button></form>
    ${
      options?.admin
        ? html`<form class="logout-all" method="post" action="/sign-out-everywhere">
            ${csrfInput(options.csrf)}<button type="submit" data-testid="sign-out-everywhere">Sign out everywhere</button>
          </form>`
        : ''
    }`;
}
