import type { ServerResponse } from 'node:http';
import { CloudAdapter, type Activity, type TurnContext } from 'botbuilder';

import { describeError } from '../../kernel/errors.js';
import type { Log } from '../../kernel/log.js';
import { sendJson } from '../http/api-routes.js';
import { bearerProblem } from './bearer-precheck.js';

/** The inbox could not store a question: the turn must fail (503), so that the Bot Framework tries again. */
export class InboxUnavailable extends Error {}

/** CloudAdapter with its turn entry point open, so that Candor answers the request itself (no stack traces on stderr). */
export class TurnAdapter extends CloudAdapter {
  turn(authorization: string, activity: Activity, logic: (context: TurnContext) => Promise<void>) {
    return this.processActivity(authorization, activity, logic);
  }
}

/** How one activity's turn ended. */
export type TurnOutcome =
  | { readonly kind: 'done'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'unauthenticated'; readonly reason: string }
  /** The token could not be checked (the signing keys did not load): a caller may try again. */
  | { readonly kind: 'auth_unavailable'; readonly reason: string }
  | { readonly kind: 'inbox_unavailable' }
  | { readonly kind: 'failed'; readonly reason: string };

/** Authenticates and runs one turn; never throws. `authenticated`: refuse a token that cannot be valid before botbuilder reads it. */
export async function runTurn(
  adapter: TurnAdapter,
  authorization: string,
  activity: Record<string, unknown>,
  logic: (context: TurnContext) => Promise<void>,
  options: { readonly authenticated: boolean; readonly nowMs?: number },
): Promise<TurnOutcome> {
  const problem = options.authenticated ? bearerProblem(authorization, options.nowMs ?? Date.now()) : null;
  if (problem !== null) return { kind: 'unauthenticated', reason: problem };
  let started = false;
  try {
    const invoke = await adapter.turn(authorization, activity as unknown as Activity, (context) => {
      started = true;
      return logic(context);
    });
    return { kind: 'done', status: invoke?.status ?? 200, body: invoke?.body };
  } catch (error) {
    if (error instanceof InboxUnavailable) return { kind: 'inbox_unavailable' };
    if (started) return { kind: 'failed', reason: describeError(error) };
    const { statusCode: status, name } = error as { statusCode?: unknown; name?: unknown };
    // jsonwebtoken's own errors (a bad signature, a wrong algorithm) reach here without a status: still the token's fault.
    return status === 401 || status === 403 || JWT_ERRORS.has(name)
      ? { kind: 'unauthenticated', reason: describeError(error) }
      : { kind: 'auth_unavailable', reason: describeError(error) };
  }
}

const JWT_ERRORS = new Set<unknown>(['JsonWebTokenError', 'TokenExpiredError', 'NotBeforeError']);

/** Writes a turn's outcome as the HTTP response, with one JSON log line for anything but success. */
export function answerTurn(res: ServerResponse, outcome: TurnOutcome, log: Log): void {
  switch (outcome.kind) {
    case 'done':
      // botbuilder answers an invoke no handler takes with 501; to the sender it is a request Candor does not take.
      if (outcome.status === 501) {
        return sendJson(res, 400, { error: { code: 'unsupported_activity', message: 'Candor does not handle this invoke activity.' } });
      }
      if (outcome.body === undefined) return void res.writeHead(outcome.status).end();
      return sendJson(res, outcome.status, outcome.body);
    case 'unauthenticated':
      log('warn', 'teams: request not authenticated', { reason: outcome.reason });
      return sendJson(res, 401, { error: { code: 'unauthorized', message: 'The Bot Framework token is missing or not valid.' } });
    case 'auth_unavailable':
      log('error', 'teams: could not check the request token', { reason: outcome.reason });
      res.setHeader('retry-after', '5');
      return sendJson(res, 503, { error: { code: 'auth_unavailable', message: 'The token could not be checked now; try again.' } });
    case 'inbox_unavailable':
      res.setHeader('retry-after', '5');
      return sendJson(res, 503, { error: { code: 'unavailable', message: 'The question could not be stored; try again.' } });
    case 'failed':
      log('error', 'teams: turn failed', { reason: outcome.reason });
      return sendJson(res, 500, { error: { code: 'internal', message: 'Something went wrong on our side; it has been logged.' } });
  }
}
