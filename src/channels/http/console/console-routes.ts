import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Ask } from '../../../ask/ask-service.js';
import type { ConsoleFactEdits, ConsoleReads } from '../../../console/console-reads.js';
import { storableText } from '../../../core/text/storable-text.js';
import { CandorError } from '../../../errors.js';
import type { Route } from '../api-routes.js';
import { requestUrl } from '../request-target.js';
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
import type { ConsoleSettings } from './console-settings.js';
import { CONSOLE_CSS } from './console-style.js';
import { factsPage, type FactsNotice } from './facts-page.js';
import { GAP_STATE_TEXT, gapsPage } from './gaps-page.js';
import { href, html, type Html } from './html.js';
import { interactionPage, interactionsPage } from './interactions-page.js';
import { layout, NAV } from './layout.js';
import { consoleOffPage, loginPage } from './login-page.js';
import { overviewPage } from './overview-page.js';
import { reviewPage } from './review-page.js';
import { signInThrottle } from './sign-in-throttle.js';

export interface ConsoleDeps {
  /** The store's reads, as functions (the console holds no database handle). */
  readonly reads: ConsoleReads;
  /** Retiring, re-confirming and editing expert facts (the facts page's forms). */
  readonly facts: ConsoleFactEdits;
  readonly ask: Ask;
  readonly settings: ConsoleSettings;
  readonly defaultKb: string;
  readonly maxBodyBytes: number;
  readonly now?: () => number;
}

const PAGES = new Set<string>([...NAV.map((n) => n.path), '/login', '/logout', '/console.css']);
/** No scripts at all; styles only from /console.css; forms post only here; never framed. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, which sameOrigin refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The console at `/`: overview, interactions, KB gaps, expert facts, review,
 * agreement and an ask box, server-rendered HTML over the same store every
 * replica shares. Read-only but for two form posts: the asks made in the ask
 * box, recorded as POST /api/ask records them (channel "console"), and expert
 * facts retired, re-confirmed or edited (by "console", a new KB version each).
 */
export function consoleRoutes(deps: ConsoleDeps): Route {
  const now = deps.now ?? Date.now;
  const throttle = signInThrottle(now);
  return async (req, res) => {
    const url = requestUrl(req);
    const path = url.pathname;
    const detail = /^\/interactions\/(\d{1,15})$/.exec(path);
    if (!PAGES.has(path) && !detail) return false;
    if (path === '/console.css') return send(res, 200, CONSOLE_CSS, 'text/css; charset=utf-8', { 'cache-control': 'public, max-age=3600' });
    if (!deps.settings.enabled) return send(res, 404, consoleOffPage());
    const method = req.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    if (!reading && method !== 'POST') return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET, POST' });
    if (method === 'POST' && !sameOrigin(req)) return send(res, 403, 'Cross-site form posts are refused.', 'text/plain; charset=utf-8');
    const client = req.socket.remoteAddress ?? 'unknown';
    const signingIn = path === '/login' && method === 'POST';
    const wait = throttle.retryAfter(client);
    if (wait > 0 && (signingIn || presentsCredentials(req))) {
      return send(res, 429, 'Too many failed sign-ins from this address; try again in a minute.', 'text/plain; charset=utf-8', {
        'retry-after': String(wait),
      });
    }
    const viewer = authenticate(req, deps.settings, now());
    if (!viewer.ok && viewer.presented) throttle.failed(client);
    const next = `${path}${url.search}`;

    if (path === '/login') {
      if (deps.settings.token === undefined) return refuse(res, deps.settings, '/');
      if (reading)
        return viewer.ok
          ? redirect(res, safeNext(url.searchParams.get('next')))
          : send(res, 200, loginPage(safeNext(url.searchParams.get('next')), false));
      const form = await readForm(req, deps.maxBodyBytes);
      if (!tokenMatches(form.get('token') ?? '', deps.settings)) {
        throttle.failed(client);
        return send(res, 401, loginPage(safeNext(form.get('next')), true));
      }
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader(
        'set-cookie',
        `${SESSION_COOKIE}=${newSession(deps.settings.token, now())}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`,
      );
      return redirect(res, safeNext(form.get('next')));
    }
    if (path === '/logout') {
      res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
      return redirect(res, '/login');
    }
    if (!viewer.ok) return refuse(res, deps.settings, next);
    if (!reading && path !== '/ask' && path !== '/facts')
      return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8', { allow: 'GET' });

    const page = (title: string, active: string, body: Html, status = 200) =>
      send(res, status, layout({ title, active, user: viewer.user, body }));
    // Filters reach SQL: a NUL or lone surrogate in one is a value no row holds, not a database error.
    const q = (name: string) => {
      const value = url.searchParams.get(name);
      return value === null ? undefined : storableText(value);
    };
    if (path === '/') {
      const days = choice(q('days'), [1, 7, 30, 90], 30);
      const since = startOfDay(now() - (days - 1) * 86_400_000);
      return page('Overview', '/', overviewPage(await deps.reads.overview(since), days, now(), await deps.reads.feedbackSummary(since)));
    }
    if (path === '/interactions') {
      const filter = { decision: q('decision'), reason: q('reason'), channel: q('channel'), kb: q('kb') };
      const number = Math.max(1, Math.min(10_000, Number.parseInt(q('page') ?? '1', 10) || 1));
      return page(
        'Interactions',
        '/interactions',
        interactionsPage(await deps.reads.listInteractions(filter, number), await deps.reads.filterChoices(), filter, number),
      );
    }
    if (detail) {
      const found = await deps.reads.findInteraction(Number(detail[1]));
      if (!found) return page('Not found', '/interactions', layoutMessage(`There is no interaction ${detail[1]}.`), 404);
      const labels = found.sampleId ? await deps.reads.labelsOf([found.sampleId]) : [];
      const feedback = await deps.reads.feedbackOn(found.interaction.id);
      return page(`Interaction ${found.interaction.id}`, '/interactions', interactionPage(found, labels, feedback));
    }
    if (path === '/gaps') {
      const kbs = (await deps.reads.filterChoices()).kbs;
      const kb = q('kb') ?? deps.defaultKb;
      const days = choice(q('days'), [7, 30, 90], 30);
      const state = Object.keys(GAP_STATE_TEXT).find((s) => s === q('state')) as keyof typeof GAP_STATE_TEXT | undefined;
      const report = kbs.includes(kb) ? await deps.reads.gaps({ kb, days, now: new Date(now()) }) : null;
      return page('KB gaps', '/gaps', gapsPage(report, kbs, kb, days, state));
    }
    if (path === '/facts') {
      const kbs = (await deps.reads.filterChoices()).kbs;
      const show = async (kb: string, all: boolean, outcome: Parameters<typeof factsPage>[4], status = 200) => {
        const list = kbs.includes(kb) ? await deps.reads.expertFacts({ kb, includeRetired: all, now: new Date(now()) }) : null;
        return page('Expert facts', '/facts', factsPage(list, kbs, kb, all, outcome), status);
      };
      if (reading) return show(q('kb') ?? deps.defaultKb, q('all') === '1', { notice: readNotice(url.searchParams) });
      const form = await readForm(req, deps.maxBodyBytes);
      const kb = storableText(form.get('kb') || deps.defaultKb);
      const all = form.get('all') === '1';
      const fact = Number(form.get('fact'));
      const action = form.get('action');
      if (!Number.isSafeInteger(fact) || fact < 1 || (action !== 'retire' && action !== 'confirm' && action !== 'edit'))
        return show(kb, all, { error: 'Choose a fact and what to do with it (retire, re-confirm or edit).' }, 400);
      // Who did it, as the KB versions and the fact's source record it.
      const actor = viewer.user === 'token' ? 'console' : `console:${viewer.user}`;
      const name = viewer.user === 'token' ? 'console' : viewer.user;
      try {
        const back = (notice: FactsNotice) => redirect(res, href('/facts', { kb, source: 'expert', all: all ? 1 : undefined, ...notice }));
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
    if (path === '/review') {
      const samples = await deps.reads.reviewSamples();
      return page('Review', '/review', reviewPage(samples, await deps.reads.labelsOf(samples.map((s) => s.sampleId))));
    }
    if (path === '/agreement') return page('Agreement', '/agreement', agreementPage(await deps.reads.agreementHistory()));
    // The ask box.
    const kbs = (await deps.reads.filterChoices()).kbs;
    if (reading) return page('Ask', '/ask', askPage(kbs, q('kb') ?? deps.defaultKb, ''));
    const form = await readForm(req, deps.maxBodyBytes);
    const question = form.get('question') ?? '';
    const kb = form.get('kb') || deps.defaultKb;
    try {
      const decision = await deps.ask({ question, kb, channel: 'console', userId: viewer.user === 'token' ? undefined : viewer.user });
      return page('Ask', '/ask', askPage(kbs, kb, question, { decision }));
    } catch (error) {
      if (!(error instanceof CandorError) || error.status >= 500) throw error;
      return page('Ask', '/ask', askPage(kbs, kb, question, { error: error.message }), error.status);
    }
  };
}

function refuse(res: ServerResponse, settings: ConsoleSettings, next: string): true {
  if (settings.token !== undefined) return send(res, 401, loginPage(safeNext(next), false));
  return send(res, 401, 'Sign in to the Candor console.', 'text/plain; charset=utf-8', {
    'www-authenticate': 'Basic realm="Candor console", charset="UTF-8"',
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/html; charset=utf-8',
  headers: Record<string, string> = {},
): true {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return true;
}

function redirect(res: ServerResponse, location: string): true {
  res.writeHead(303, { ...SECURITY_HEADERS, location });
  res.end();
  return true;
}

function layoutMessage(text: string): Html {
  return html`<p class="muted">${text}</p>`;
}

/** Only a path on this server (never "//evil" or "https://…"), so the login cannot redirect elsewhere. */
function safeNext(next: string | null | undefined): string {
  return next && /^\/(?!\/)[\w\-./?=&%]*$/.test(next) && !next.startsWith('/login') ? next : '/';
}

/** The outcome a fact change redirected with (only known words and numbers: nothing from it is echoed). */
function readNotice(params: URLSearchParams): FactsNotice | undefined {
  const done = params.get('done');
  const fact = Number(params.get('fact'));
  const replacement = Number(params.get('replacement'));
  if ((done !== 'retired' && done !== 'confirmed' && done !== 'edited') || !Number.isSafeInteger(fact) || fact < 1) return undefined;
  return { done, fact, replacement: Number.isSafeInteger(replacement) && replacement > 0 ? replacement : undefined };
}

/** Midnight UTC of the day `ms` falls in: the overview counts whole days. */
function startOfDay(ms: number): Date {
  return new Date(`${new Date(ms).toISOString().slice(0, 10)}T00:00:00Z`);
}

function choice(raw: string | undefined, allowed: readonly number[], fallback: number): number {
  const n = Number(raw);
  return allowed.includes(n) ? n : fallback;
}

/** A url-encoded form body up to `limit` bytes. */
async function readForm(req: IncomingMessage, limit: number): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    throw new CandorError('input_invalid', 'Send the form as application/x-www-form-urlencoded.', { status: 415 });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CandorError('input_invalid', `The form is larger than ${limit} bytes.`, { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
