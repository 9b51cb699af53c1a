import { html } from './html.js';

const head = (title: string) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Candor</title>
        <link rel="stylesheet" href="/console.css" />
      </head>
    </html>`;

/** Why the sign-in form is shown again: a wrong token, or a sign-in link that is spent, expired or unknown. */
export type SignInFailure = 'token' | 'link';

const FAILURE_TEXT: Record<SignInFailure, string> = {
  token: 'That token is not right.',
  link: 'That sign-in link no longer works: each link signs in once, within 15 minutes of the server starting. Sign in with the console token (CANDOR_CONSOLE_TOKEN), or restart the server for a new link.',
};

/** The sign-in form (token); `next` is where to go afterwards (a path on this server). */
export function loginPage(next: string, failed?: SignInFailure): string {
  return html`${head('Sign in')}<body><div class="login"><h1>Candor console</h1>
${failed ? html`<p class="error" role="alert">${FAILURE_TEXT[failed]}</p>` : html`<p class="muted">Sign in with the console token (CANDOR_CONSOLE_TOKEN).</p>`}
<form method="post" action="/login"><input type="hidden" name="next" value="${next}">
<label>Token<input type="password" name="token" autocomplete="current-password" required autofocus data-testid="token"></label>
<button type="submit" data-testid="sign-in">Sign in</button></form></div></body></html>`.value;
}

/** Shown for every console path when no credentials are configured: the console fails closed. */
export function consoleOffPage(): string {
  return html`${head('Console off')}<body><div class="login"><h1>The console is off</h1>
<p>Set <span class="mono">CANDOR_CONSOLE_TOKEN</span> (a long random secret) or <span class="mono">CANDOR_CONSOLE_BASIC_AUTH</span> (<span class="mono">user:password</span>) and restart <span class="mono">candor serve</span>.</p>
<p class="muted">The JSON API (<span class="mono">POST /api/ask</span>), <span class="mono">/healthz</span> and <span class="mono">/metrics</span> work without it.</p></div></body></html>`
    .value;
}
