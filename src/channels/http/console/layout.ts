import { html, type Html } from './html.js';

export const NAV = [
  { path: '/', label: 'Overview' },
  { path: '/interactions', label: 'Interactions' },
  { path: '/gaps', label: 'KB gaps' },
  { path: '/facts', label: 'Expert facts' },
  { path: '/review', label: 'Review' },
  { path: '/agreement', label: 'Agreement' },
  { path: '/ask', label: 'Ask' },
] as const;

/** The page frame: navigation, the signed-in user and a way out. No scripts: every page works as plain HTML. */
export function layout(page: { title: string; active: string; user: string | null; body: Html }): string {
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
          <a class="brand" href="/">Candor</a>
          <nav>
            ${NAV.map((item) => html`<a href="${item.path}" ${item.path === page.active ? html` aria-current="page"` : ''}>${item.label}</a>`)}
          </nav>
          ${page.user === null ? '' : html`<form class="logout" method="post" action="/logout"><span>${page.user}</span> <button type="submit">Sign out</button></form>`}
        </header>
        <main>
          <h1>${page.title}</h1>
          ${page.body}
        </main>
      </body>
    </html> `.value;
}
