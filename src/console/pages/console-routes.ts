import type { Ask } from '../../ask/ask-service.js';
import type { Route } from '../../channels/http/api-routes.js';
import { requestUrl } from '../../channels/http/request-target.js';
import type { ConsoleSettings } from '../../config/console-settings.js';
import type { ConsoleGaps } from '../console-gaps.js';
import type { ConsoleFactEdits, ConsoleReads } from '../console-reads.js';
import type { ConsoleReview } from '../console-review.js';
import type { ConsoleSessions } from '../console-sessions.js';
import type { ConsoleSources } from '../console-sources.js';
import { askRoute } from './ask-route.js';
import { authenticate, presentsCredentials, sameOrigin } from './console-auth.js';
import type { ConsoleHandler } from './console-context.js';
import { send } from './console-http.js';
import { signedInRequest } from './console-request.js';
import { CONSOLE_CSS } from './console-style.js';
import { factsRoute } from './facts-route.js';
import { gapRoutes } from './gap-routes.js';
import { interactionsRoutes } from './interactions-routes.js';
import { NAV } from './layout.js';
import { consoleOffPage } from './login-page.js';
import { agreementRoute, gapsRoute, overviewRoute } from './report-routes.js';
import { reviewRoutes } from './review-routes.js';
import { loginRoute, logout, refuse, signOutEverywhere } from './sign-in-routes.js';
import { signInThrottle } from './sign-in-throttle.js';
import { sourcesRoutes } from './sources-routes.js';
import { unavailableWhileStoreDown } from './store-down.js';

export interface ConsoleDeps {
  /** The store's reads, as functions (the console holds no database handle). */
  readonly reads: ConsoleReads;
  /** Retiring, re-confirming and editing expert facts (the facts page's forms). */
  readonly facts: ConsoleFactEdits;
  /** Gap pages, and answering or dismissing gaps (the KB's console:NAME experts only); absent: the gaps page is read-only. */
  readonly gaps?: ConsoleGaps | undefined;
  /** The Sources page and "Sync now" (the KB's owners only); absent: no Sources page. */
  readonly sources?: ConsoleSources | undefined;
  /** Labelling review samples (configured reviewers only); absent: the review pages are read-only. */
  readonly review?: ConsoleReview | undefined;
  readonly ask: Ask;
  readonly settings: ConsoleSettings;
  readonly defaultKb: string;
  readonly maxBodyBytes: number;
  readonly now?: () => number;
  /** Sign-in sessions and the one-time links serve prints (`/login?code=…`), in the store every replica shares. */
  readonly sessions: ConsoleSessions;
}

const PAGES = new Set<string>([
  ...NAV.map((n) => n.path),
  '/login',
  '/logout',
  '/sign-out-everywhere',
  '/console.css',
  '/interactions.csv',
  '/interactions.jsonl',
]);
const DETAIL = /^\/(?:interactions\/\d{1,15}|review\/\d{1,9}|gaps\/\d{1,9}(?:\/answer|\/dismiss)?|sources\/\d{1,9}(?:\/sync)?)$/;
/** Where a signed-in viewer may post a form (each checked for its CSRF token). */
const POSTABLE = /^\/(?:ask|facts|sign-out-everywhere|review\/\d{1,9}|gaps\/\d{1,9}\/(?:answer|dismiss)|sources\/\d{1,9}\/sync)$/;

/**
 * The console at `/`: overview, interactions (with exports), KB gaps, expert facts, the review queue with
 * labelling, agreement and an ask box, server-rendered HTML over the same store every replica shares. Form
 * posts: asks made in the ask box (recorded as POST /api/ask records them, channel "console"), expert facts
 * retired, re-confirmed or edited, review labels by configured reviewers, and gaps answered or marked not for the KB by
 * the KB's console experts. A browser's post must carry the
 * page's CSRF token (a hidden field) besides coming from this origin; a script with a bearer token needs none.
 * While the store cannot be reached every page and form answers 503 with a plain message (as the API does).
 */
export function consoleRoutes(deps: ConsoleDeps): Route {
  const now = deps.now ?? Date.now;
  const throttle = signInThrottle(now);
  const login = loginRoute({ ...deps, now });
  const handlers = pageHandlers({ ...deps, now });
  return unavailableWhileStoreDown(async (req, res) => {
    const url = requestUrl(req);
    const path = url.pathname;
    if (!PAGES.has(path) && !DETAIL.test(path)) return false;
    if (path === '/console.css') return send(res, 200, CONSOLE_CSS, 'text/css; charset=utf-8', { 'cache-control': 'public, max-age=3600' });
    if (!deps.settings.enabled) return send(res, 404, consoleOffPage());
    const method = req.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    if (!reading && method !== 'POST') return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET, POST' });
    if (method === 'POST' && !sameOrigin(req)) return send(res, 403, 'Cross-site form posts are refused.', 'text/plain; charset=utf-8');
    const client = req.socket.remoteAddress ?? 'unknown';
    const code = path === '/login' && method === 'GET' ? url.searchParams.get('code') : null;
    const signingIn = path === '/login' && (method === 'POST' || code !== null);
    const wait = throttle.retryAfter(client);
    if (wait > 0 && (signingIn || presentsCredentials(req))) {
      return send(res, 429, 'Too many failed sign-ins from this address; try again in a minute.', 'text/plain; charset=utf-8', {
        'retry-after': String(wait),
      });
    }
    const viewer = await authenticate(req, deps.settings, deps.sessions, now());
    if (!viewer.ok && viewer.presented) throttle.failed(client);

    if (path === '/login') return login({ req, res, url, reading, code, signedIn: viewer.ok, failed: () => throttle.failed(client) });
    if (path === '/logout') return logout(req, res, deps.sessions, now());
    if (!viewer.ok) return refuse(res, deps.settings, `${path}${url.search}`);
    if (!reading && !POSTABLE.test(path)) return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET' });
    const request = await signedInRequest({ req, res, url, reading }, viewer, deps);
    if (request === true) return true;
    for (const handler of handlers) if (await handler(request)) return true;
    return false;
  });
}

/** The routing table of the signed-in pages: one handler per page, and the interactions and review pages' own. */
function pageHandlers(deps: ConsoleDeps & { now: () => number }): ConsoleHandler[] {
  const byPath: Readonly<Record<string, ConsoleHandler>> = {
    '/': (r) => overviewRoute(deps, r),
    '/gaps': (r) => gapsRoute(deps, r),
    '/facts': (r) => factsRoute(deps, r),
    '/agreement': (r) => agreementRoute(deps, r),
    '/ask': (r) => askRoute(deps, r),
    '/sign-out-everywhere': async (r) =>
      r.reading
        ? send(r.res, 405, 'Use the Sign out everywhere button (a POST).', 'text/plain; charset=utf-8', { allow: 'POST' })
        : signOutEverywhere(deps, r),
  };
  return [
    interactionsRoutes({ reads: deps.reads, traceUrl: deps.settings.traceUrl, now: deps.now, gaps: deps.gaps }),
    reviewRoutes({ reads: deps.reads, review: deps.review }),
    ...(deps.gaps ? [gapRoutes(deps.gaps)] : []),
    ...(deps.sources ? [sourcesRoutes(deps.sources)] : []),
    async (r) => byPath[r.url.pathname]?.(r) ?? false,
  ];
}
