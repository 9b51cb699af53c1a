import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPModuleFunctions as http, HTTPResponseAck, type App, type Logger, type Receiver } from '@slack/bolt';

import { describeError } from '../../errors.js';
import type { Route } from '../http/api-routes.js';
import { requestPath } from '../http/request-target.js';
import type { SlackInbound, SlackQuestion } from './slack-inbound.js';

export const SLACK_EVENTS_PATH = '/slack/events';

export interface SlackReceiverOptions {
  readonly signingSecret: string;
  readonly logger: Logger;
  /** Reads a question out of an event body (or says why it is none): what this install answers. */
  readonly parse: (body: unknown) => SlackInbound;
  /** Stores a question durably; resolves once stored. Rejects when it cannot be (the database is down). */
  readonly enqueue: (question: SlackQuestion, retryNum: number) => Promise<void>;
  readonly bodyLimitBytes?: number;
  /** The clock the request timestamp is checked against. @default Date.now */
  readonly now?: () => number;
}

/** Slack's replay window: a request timestamp more than this far from now, either way, is refused. */
const MAX_SKEW_SECONDS = 5 * 60;

/** A Slack request timestamp (whole seconds) within the replay window of `nowMs`. */
export function freshTimestamp(header: string | string[] | undefined, nowMs: number): boolean {
  if (typeof header !== 'string' || !/^\d{1,12}$/.test(header)) return false;
  return Math.abs(nowMs / 1000 - Number(header)) <= MAX_SKEW_SECONDS;
}

/**
 * A lean Bolt receiver for HTTP: it verifies the request (Bolt's own
 * signature check: bad or stale signature → 401) and, for a question (an
 * @-mention, a DM), stores it in the inbox and only then answers 200 — the
 * acknowledgement promises nothing the database has not kept, and a question
 * that cannot be stored gets a 503 so that Slack delivers it again. Everything
 * else (review reactions and buttons, /candor, other events) goes to Bolt's
 * processEvent with Bolt's own acknowledgement, as its HTTPReceiver would do.
 */
export class SlackEventsReceiver implements Receiver {
  private app: App | undefined;
  private receiving = 0;

  /** Requests being read, verified and stored right now (the inbox worker waits while there are any). */
  get busy(): boolean {
    return this.receiving > 0;
  }

  constructor(private readonly options: SlackReceiverOptions) {}

  init(app: App): void {
    this.app = app;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  /** POST /slack/events on Candor's server. */
  route(): Route {
    return async (req, res) => {
      if (requestPath(req) !== SLACK_EVENTS_PATH) return false;
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return true;
      }
      this.receiving += 1;
      try {
        await this.handle(req, res);
      } finally {
        this.receiving -= 1;
      }
      return true;
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { logger } = this.options;
    // Bolt refuses only stale timestamps; a request dated ahead of the clock (or not a time at all) is refused too.
    if (!freshTimestamp(req.headers['x-slack-request-timestamp'], this.options.now?.() ?? Date.now())) {
      logger.warn('Refused a request whose x-slack-request-timestamp is missing, malformed or more than 5 minutes off');
      return http.buildNoBodyResponse(res, 401);
    }
    let buffered;
    try {
      buffered = await http.parseAndVerifyHTTPRequest(
        { enabled: true, signingSecret: this.options.signingSecret, bodyLimit: this.options.bodyLimitBytes ?? 1024 * 1024 },
        req,
      );
    } catch (error) {
      if (http.isRawBodyError(error) && (error.type === 'entity.too.large' || error.statusCode === 413))
        return http.buildNoBodyResponse(res, 413);
      logger.warn(`Failed to parse and verify the request data: ${describeError(error)}`);
      return http.buildNoBodyResponse(res, 401);
    }
    let body;
    try {
      body = http.parseHTTPRequestBody(buffered);
    } catch (error) {
      logger.warn(`Malformed request body: ${describeError(error)}`);
      return http.buildNoBodyResponse(res, 400);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      logger.warn('Malformed request body: not an object');
      return http.buildNoBodyResponse(res, 400);
    }
    if (body.ssl_check === '1') return http.buildSSLCheckResponse(res);
    if (body.type === 'url_verification') return http.buildUrlVerificationResponse(res, body);
    // A header that is not a small whole number (`abc`, 1e20) is no retry count: stored as such, the question would never be answered.
    const retryNum = retryCount(http.extractRetryNumFromHTTPRequest(req));
    if (body.type === 'event_callback') {
      const stored = await storeQuestion(this.options, body, retryNum);
      if (stored === 'failed') return void res.writeHead(503, { 'retry-after': '5' }).end();
      if (stored === 'stored') return http.buildNoBodyResponse(res, 200);
    }
    const ack = new HTTPResponseAck({
      logger,
      processBeforeResponse: false,
      httpRequest: buffered,
      httpRequestBody: body,
      httpResponse: res,
    });
    try {
      await this.app?.processEvent({ body, ack: ack.bind(), retryNum, retryReason: http.extractRetryReasonFromHTTPRequest(req) });
      if (ack.storedResponse !== undefined) http.buildContentResponse(res, ack.storedResponse);
    } catch (error) {
      logger.error(`Bolt could not process the event: ${describeError(error)}`);
    }
    // No listener acknowledged it (a payload of no type Bolt knows, or one that failed): answer now rather than
    // leave Slack waiting for Bolt's 3-second timer.
    if (!res.headersSent) {
      ack.ack();
      const known = typeof body.type === 'string' || typeof body.command === 'string';
      if (!known) logger.warn('Malformed request body: a payload of no known type');
      http.buildNoBodyResponse(res, known ? 200 : 400);
    }
  }
}

/** A retry count as a small whole number (0 when absent or not one): stored as is, a bogus one would never be answered. */
export function retryCount(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value < 1_000 ? value : 0;
}

/**
 * Both receivers' first step for an event: a question is stored before anything acknowledges it. 'failed':
 * it could not be stored (logged; the caller must not acknowledge, so Slack delivers it again).
 */
export async function storeQuestion(
  options: Pick<SlackReceiverOptions, 'parse' | 'enqueue' | 'logger'>,
  body: unknown,
  retryNum: number,
): Promise<'stored' | 'failed' | 'not_a_question'> {
  const parsed = options.parse(body);
  if (!parsed.ok) return 'not_a_question';
  try {
    await options.enqueue(parsed.question, retryNum);
    return 'stored';
  } catch (error) {
    options.logger.error(`Could not store the question; not acknowledged, so Slack delivers it again: ${describeError(error)}`);
    return 'failed';
  }
}
