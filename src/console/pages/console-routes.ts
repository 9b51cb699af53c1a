import type { Ask } from '../../ask/ask-service.js';
import type { Route } from '../../channels/http/api-routes.js';
import { requestUrl } from '../../channels/http/request-target.js';
import type { ConsoleSettings } from '../../config/console-settings.js';
import { storableText } from '../../core/text/storable-text.js';
import { CandorError } from '../../kernel/errors.js';
import type { ConsoleFactEdits, ConsoleReads } from '../console-reads.js';
import type { ConsoleReview } from '../console-review.js';
import { agreementPage } from './agreement-page.js';
import { askPage } from './ask-page.js';
import {
  authenticate,
  newSession,
  presentsCredentials,
  sameOrigin,
  SESSION_COOKIE,
  SESSION_SECONDS,
  tokenMatches,
} from './console-auth.js';
import type { ConsoleHandler, ConsoleRequest } from './console-context.js';
import { timeWindow } from './console-filters.js';
import { readForm, redirect, safeNext, send } from './console-http.js';
import { CONSOLE_CSS } from './console-style.js';
import { CSRF_FIELD, csrfMatches, csrfToken } from './csrf.js';
import { factsPage, type FactsNotice } from './facts-page.js';
import { GAP_STATE_TEXT, gapsPage } from './gaps-page.js';
import { href } from './html.js';
import { interactionsRoutes } from './interactions-routes.js';
import { layout, NAV } from './layout.js';
import { consoleOffPage, loginPage } from './login-page.js';
import { overviewPage } from './overview-page.js';
import { reviewRoutes } from './review-routes.js';
import type { SignInLinks } from './sign-in-link.js';
import { signInThrottle } from './sign-in-throttle.js';

export interface ConsoleDeps {
  /** The store's reads, as functions (the console holds no database handle). */
  readonly reads: ConsoleReads;
  /** Retiring, re-confirming and editing expert facts (the facts page's forms). */
  readonly facts: ConsoleFactEdits;
  /** Labelling review samples (configured reviewers only); absent: the review pages are read-only. */
  readonly review?: ConsoleReview | undefined;
  readonly ask: Ask;
  readonly settings: ConsoleSettings;
  readonly defaultKb: string;
  readonly maxBodyBytes: number;
  readonly now?: () => number;
  /** The one-time sign-in links serve prints (`/login?code=…`); absent: a link never signs in. */
  readonly signInLinks?: SignInLinks | undefined;
}

const PAGES = new Set<string>([...NAV.map((n) => n.path), '/login', '/logout', '/console.css', '/interactions.csv', '/interactions.jsonl']);
const DETAIL = /^\/(?:interactions\/\d{1,15}|review\/\d{1,9})$/;
/** Where a signed-in viewer may post a form (each checked for its CSRF token). */
const POSTABLE = /^\/(?:ask|facts|review\/\d{1,9})$/;

/**
 * The console at `/`: overview, interactions (with exports), KB gaps, expert facts, the review queue with
 * labelling, agreement and an ask box, server-rendered HTML over the same store every replica shares. Form
 * posts: asks made in the ask box (recorded as POST /api/ask records them, channel "console"), expert facts
 * retired, re-confirmed or edited, and review labels by configured reviewers. A browser's post must carry the
 * page's CSRF token (a hidden field) besides coming from this origin; a script with a bearer token needs none.
 */
export function consoleRoutes(deps: ConsoleDeps): Route {
  const now = deps.now ?? Date.now;
  const throttle = signInThrottle(now);
  const handlers: ConsoleHandler[] = [
    interactionsRoutes({ reads: deps.reads, traceUrl: deps.settings.traceUrl, now }),
    reviewRoutes({ reads: deps.reads, review: deps.review }),
  ];
  return async (req, res) => {
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
    const viewer = authenticate(req, deps.settings, now());
    if (!viewer.ok && viewer.presented) throttle.failed(client);

    if (path === '/login') {
      const token = deps.settings.token;
      if (token === undefined) return refuse(res, deps.settings, '/');
      const signIn = (next: string) => {
        const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
        res.setHeader(
          'set-cookie',
          `${SESSION_COOKIE}=${newSession(token, now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`,
        );
        return redirect(res, next);
      };
      if (code !== null) {
        // A printed one-time link: it signs in as the token would, once; a spent link is harmless to one signed in.
        if (deps.signInLinks?.redeem(code)) return signIn('/');
        if (viewer.ok) return redirect(res, '/');
        throttle.failed(client);
        return send(res, 401, loginPage('/', 'link'));
      }
      if (reading)
        return viewer.ok
          ? redirect(res, safeNext(url.searchParams.get('next')))
          : send(res, 200, loginPage(safeNext(url.searchParams.get('next'))));
      const form = await readForm(req, deps.maxBodyBytes);
      if (!tokenMatches(form.get('token') ?? '', deps.settings)) {
        throttle.failed(client);
        return send(res, 401, loginPage(safeNext(form.get('next')), 'token'));
      }
      return signIn(safeNext(form.get('next')));
    }
    if (path === '/logout') {
      res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
      return redirect(res, '/login');
    }
    if (!viewer.ok) return refuse(res, deps.settings, `${path}${url.search}`);
    if (!reading && !POSTABLE.test(path)) return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET' });

    const csrf = csrfToken(viewer.via, viewer.user, deps.settings);
    let form: URLSearchParams | null = null;
    if (!reading) {
      form = await readForm(req, deps.maxBodyBytes);
      if (csrf !== null && !csrfMatches(form.get(CSRF_FIELD), csrf))
        return send(
          res,
          403,
          'This form did not carry the console’s token (it came from elsewhere, or the page is older than your sign-in): reload the page and try again.',
          'text/plain; charset=utf-8',
        );
    }
    // Filters reach SQL: a NUL or lone surrogate in one is a value no row holds, not a database error.
    const q = (name: string) => {
      const value = url.searchParams.get(name);
      return value === null || value === '' ? undefined : storableText(value);
    };
    const kbs = await deps.reads.kbNames();
    const kb = q('kb');
    const request: ConsoleRequest = {
      req,
      res,
      url,
      reading,
      user: viewer.user,
      csrf,
      form,
      kb,
      kbs,
      q,
      page: (title, active, body, options = {}) =>
        send(
          res,
          options.status ?? 200,
          layout({ title, active, user: viewer.user, body, kb: { kb: 'kb' in options ? options.kb : kb, kbs } }),
        ),
    };
    for (const handler of handlers) if (await handler(request)) return true;
    return pages(request);
  };

  /** The pages without a module of their own: overview, gaps, facts, agreement and the ask box. */
  async function pages(r: ConsoleRequest): Promise<true> {
    const { q, kb, kbs } = r;
    const path = r.url.pathname;
    if (path === '/') {
      const window = timeWindow(q, now());
      const [measured, feedback] = await Promise.all([
        deps.reads.overview({ from: window.from, to: window.to, bucket: window.bucket, kb }),
        deps.reads.feedbackSummary(window.from, kb),
      ]);
      return r.page('Overview', '/', overviewPage(measured, window, kb, feedback));
    }
    if (path === '/gaps') {
      const chosen = kb ?? deps.defaultKb;
      const days = [7, 30, 90].find((d) => d === Number(q('days'))) ?? 30;
      const state = Object.keys(GAP_STATE_TEXT).find((s) => s === q('state')) as keyof typeof GAP_STATE_TEXT | undefined;
      const report = kbs.includes(chosen) ? await deps.reads.gaps({ kb: chosen, days, now: new Date(now()) }) : null;
      return r.page('KB gaps', '/gaps', gapsPage(report, kbs, chosen, days, state), { kb: chosen });
    }
    if (path === '/facts') return facts(r);
    if (path === '/agreement') {
      const history = await deps.reads.agreementHistory();
      const latest = history[0]?.report;
      const disagreements = latest ? await deps.reads.disagreements(latest, kb) : null;
      return r.page('Agreement', '/agreement', agreementPage(history, disagreements, kb));
    }
    // The ask box.
    if (!r.form) return r.page('Ask', '/ask', askPage(kbs, kb ?? deps.defaultKb, '', {}, r.csrf), { kb: kb ?? deps.defaultKb });
    const question = r.form.get('question') ?? '';
    const asked = r.form.get('kb') || deps.defaultKb;
    try {
      const decision = await deps.ask({ question, kb: asked, channel: 'console', userId: r.user === 'token' ? undefined : r.user });
      return r.page('Ask', '/ask', askPage(kbs, asked, question, { decision }, r.csrf), { kb: asked });
    } catch (error) {
      if (!(error instanceof CandorError) || error.status >= 500) throw error;
      return r.page('Ask', '/ask', askPage(kbs, asked, question, { error: error.message }, r.csrf), { status: error.status, kb: asked });
    }
  }

  /** The expert facts of a KB, and their retire / re-confirm / edit forms (by "console" or "console:NAME"). */
  async function facts(r: ConsoleRequest): Promise<true> {
    const show = async (kb: string, all: boolean, outcome: Parameters<typeof factsPage>[4], status = 200) => {
      const list = r.kbs.includes(kb) ? await deps.reads.expertFacts({ kb, includeRetired: all, now: new Date(now()) }) : null;
      return r.page('Expert facts', '/facts', factsPage(list, r.kbs, kb, all, outcome, r.csrf), { status, kb });
    };
    if (!r.form) return show(r.kb ?? deps.defaultKb, r.q('all') === '1', { notice: readNotice(r.url.searchParams) });
    const form = r.form;
    const kb = storableText(form.get('kb') || deps.defaultKb);
    const all = form.get('all') === '1';
    const fact = Number(form.get('fact'));
    const action = form.get('action');
    if (!Number.isSafeInteger(fact) || fact < 1 || (action !== 'retire' && action !== 'confirm' && action !== 'edit'))
      return show(kb, all, { error: 'Choose a fact and what to do with it (retire, re-confirm or edit).' }, 400);
    // Who did it, as the KB versions and the fact's source record it.
    const actor = r.user === 'token' ? 'console' : `console:${r.user}`;
    const name = r.user === 'token' ? 'console' : r.user;
    try {
      const back = (notice: FactsNotice) => redirect(r.res, href('/facts', { kb, source: 'expert', all: all ? 1 : undefined, ...notice }));
      if (action === 'retire') {
        await deps.facts.retire(fact, actor);
        return back({ done: 'retired', fact });
      }
      const text = action === 'edit' ? storableText(form.get('text') ?? '') : undefined;
      const revised = await deps.facts.confirm(fact, { text, actor, name });
      return back({ done: action === 'edit' ? 'edited' : 'confirmed', fact, replacement: revised.factId });
    } catch (error) {
      if (!(error instanceof CandorError) || error.status >= 500) throw error;
      return show(kb, all, { error: error.message }, error.status);
    }
  }
}

function refuse(res: Parameters<typeof send>[0], settings: ConsoleSettings, next: string): true {
  if (settings.token !== undefined) return send(res, 401, loginPage(safeNext(next)));
  return send(res, 401, 'Sign in to the Candor console.', 'text/plain; charset=utf-8', {
    'www-authenticate': 'Basic realm="Candor console", charset="UTF-8"',
  });
}

/** The outcome a fact change redirected with (only known words and numbers: nothing from it is echoed). */
function readNotice(params: URLSearchParams): FactsNotice | undefined {
  const done = params.get('done');
  const fact = Number(params.get('fact'));
  const replacement = Number(params.get('replacement'));
  if ((done !== 'retired' && done !== 'confirmed' && done !== 'edited') || !Number.isSafeInteger(fact) || fact < 1) return undefined;
  return { done, fact, replacement: Number.isSafeInteger(replacement) && replacement > 0 ? replacement : undefined };
}
