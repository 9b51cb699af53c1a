import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

import type { Ask } from '../../ask/ask-service.js';
import { CandorError } from '../../errors.js';
import { readJsonBody } from './read-json-body.js';

const AskBody = z.object({
  question: z.string({ error: 'question must be a string' }),
  kb: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'kb must be a knowledge base name')
    .optional(),
});

export interface ApiDeps {
  readonly ask: Ask;
  readonly maxBodyBytes: number;
  readonly healthy: () => Promise<boolean>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** POST /api/ask and GET /healthz. Returns false for paths it does not own. */
export function apiRoutes(deps: ApiDeps): Route {
  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
      const ok = await deps.healthy().catch(() => false);
      sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
      return true;
    }
    if (path !== '/api/ask') return false;
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    const body = AskBody.safeParse(await readJsonBody(req, deps.maxBodyBytes));
    if (!body.success) {
      throw new CandorError('input_invalid', body.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), {
        status: 400,
      });
    }
    const decision = await deps.ask({ question: body.data.question, kb: body.data.kb, channel: 'http' });
    sendJson(res, 200, decision);
    return true;
  };
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
