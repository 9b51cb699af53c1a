import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

import type { Ask } from '../../ask/ask-service.js';
import type { IndexReadiness } from '../../kb/knowledge-index-cache.js';
import { CandorError, describeError } from '../../kernel/errors.js';
import { withinTime } from '../../kernel/within-time.js';
import { bearerAllowed } from './bearer-token.js';
import { readJsonBody } from './read-json-body.js';
import { requestPath } from './request-target.js';

const AskBody = z.object({
  question: z.string({ error: 'question must be a string' }),
  kb: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'kb must be a knowledge base name')
    .optional(),
});

/** A dependency /healthz checks: resolves when it works, throws (or takes over a second) when it does not. */
export interface HealthCheck {
  readonly name: string;
  readonly check: () => Promise<void>;
}

export interface ApiDeps {
  readonly ask: Ask;
  readonly maxBodyBytes: number;
  readonly health: readonly HealthCheck[];
  /** The KBs' indexes, reported by /healthz; a KB with none built yet makes it 503 (not ready). */
  readonly indexes?: (() => readonly IndexReadiness[]) | undefined;
  /** When set, POST /api/ask needs `Authorization: Bearer <token>` (CANDOR_API_TOKEN). /healthz stays open for probes. */
  readonly token?: string | undefined;
}

const HEALTH_TIMEOUT_MS = 1_000;

/** When a client should ask again after a retryable error (a KB whose index is still being built). */
const RETRY_AFTER_SECONDS = 5;

export type Route = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** POST /api/ask and GET /healthz. Returns false for paths it does not own. */
export function apiRoutes(deps: ApiDeps): Route {
  return async (req, res) => {
    const path = requestPath(req);
    if (path === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
      const kbs = deps.indexes?.() ?? [];
      const warming = kbs.filter((k) => k.version === null && k.building !== null);
      const failing = [
        ...(await failingChecks(deps.health)),
        ...warming.map((k) => ({ name: `kb:${k.kb}`, detail: `warming up (building version ${k.building})` })),
      ];
      const extra = kbs.length > 0 ? { kbs } : {};
      if (failing.length === 0) sendJson(res, 200, { status: 'ok', ...extra });
      else sendJson(res, 503, { status: 'unavailable', failing, ...extra });
      return true;
    }
    if (path !== '/api/ask') return false;
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    if (!bearerAllowed(req, res, deps.token, 'candor api')) return true;
    const body = AskBody.safeParse(await readJsonBody(req, deps.maxBodyBytes));
    if (!body.success) {
      throw new CandorError('input_invalid', body.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), {
        status: 400,
      });
    }
    let decision;
    try {
      decision = await deps.ask({ question: body.data.question, kb: body.data.kb, channel: 'http' });
    } catch (error) {
      // Worth another try unchanged (a KB still loading): 503 with Retry-After, so the client comes back.
      if (!(error instanceof CandorError && error.retryable)) throw error;
      res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      sendJson(res, 503, { error: { code: error.code, message: error.message } });
      return true;
    }
    // A 200 promises the interaction is stored; when it could not be (the database is down), say so.
    if (decision.interactionId === null) res.setHeader('retry-after', '5');
    sendJson(res, decision.interactionId === null ? 503 : 200, decision);
    return true;
  };
}

/** The checks that fail now, each with why (a timeout counts as a failure). */
async function failingChecks(checks: readonly HealthCheck[]): Promise<{ name: string; detail: string }[]> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await withinTime(check(), HEALTH_TIMEOUT_MS, () => {
          throw new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`);
        });
        return null;
      } catch (error) {
        return { name, detail: describeError(error) };
      }
    }),
  );
  return results.filter((r): r is { name: string; detail: string } => r !== null);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function methodNotAllowed(res: ServerResponse, allow: string): true {
  res.setHeader('allow', allow);
  sendJson(res, 405, { error: { code: 'method_not_allowed', message: `Use ${allow}.` } });
  return true;
}
