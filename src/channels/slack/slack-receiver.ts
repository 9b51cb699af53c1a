import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import { HTTPModuleFunctions as http, HTTPResponseAck, type App, type Logger, type Receiver } from '@slack/bolt';

import { describeError } from '../../kernel/errors.js';
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
  /** The clock the request timestamp is checked against (and quiet is timed with). @default Date.now */
  readonly now?: () => number;
  /** How long after the last request of a burst the receiver still counts as busy (see ReceiveActivity). @default 250 */
  readonly quietMs?: number;
}

/** Slack's replay window: a request timestamp more than this far from now, either way, is refused. */
const MAX_SKEW_SECONDS = 5 * 60;

/** A Slack request timestamp (whole seconds) within the replay window of `nowMs`. */
export function freshTimestamp(header: string | string[] | undefined, nowMs: number): boolean {
  if (typeof header !== 'string' || !/^\d{1,12}$/.test(header)) return false;
  return Math.abs(nowMs / 1000 - Number(header)) <= MAX_SKEW_SECONDS;
}

/** The signing secret as a key, prepared once (null when empty: then no signature is valid). */
export function signingKey(secret: string): KeyObject | null {
  return secret === '' ? null : createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * Slack's v0 request signature: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` under the signing
 * secret, over the body's bytes as received, compared in constant time. Bolt's `verifySlackRequest` computes
 * the same HMAC but compares with a double HMAC under fresh random bytes (tsscmp, from before Node had
 * `timingSafeEqual`): three HMACs and a random draw per request, most of a burst's signature cost.
 */
export function validSlackSignature(key: KeyObject | null, timestamp: string, body: Buffer, signature: unknown): boolean {
  if (key === null || typeof signature !== 'string' || !signature.startsWith('v0=')) return false;
  const given = Buffer.from(signature.slice(3), 'hex');
  const expected = createHmac('sha256', key).update(`v0:${timestamp}:`).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A lean Bolt receiver for HTTP: it verifies the request (Slack's signature
 * check: bad or stale signature → 401) and, for a question (an
 * @-mention, a DM), stores it in the inbox and only then answers 200 — the
 * acknowledgement promises nothing the database has not kept, and a question
 * that cannot be stored gets a 503 so that Slack delivers it again. Everything
 * else (review reactions and buttons, /candor, other events) goes to Bolt's
 * processEvent with Bolt's own acknowledgement, as its HTTPReceiver would do.
 */
export class SlackEventsReceiver implements Receiver {
  private app: App | undefined;
  private readonly activity: ReceiveActivity;
  private readonly key: KeyObject | null;

  /** Requests being read, verified and stored, or, after a burst, one finished within `quietMs` (answering waits meanwhile). */
  get busy(): boolean {
    return this.activity.busy;
  }

  constructor(private readonly options: SlackReceiverOptions) {
    this.activity = new ReceiveActivity(options.quietMs ?? DEFAULT_QUIET_MS, options.now);
    this.key = signingKey(options.signingSecret);
  }

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
      await this.activity.during(() => this.handle(req, res));
      return true;
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { logger } = this.options;
    // Slack's replay window, both ways: Bolt refused only stale timestamps, not ones ahead of the clock or no time at all.
    const timestamp = req.headers['x-slack-request-timestamp'];
    if (typeof timestamp !== 'string' || !freshTimestamp(timestamp, this.options.now?.() ?? Date.now())) {
      logger.warn('Refused a request whose x-slack-request-timestamp is missing, malformed or more than 5 minutes off');
      return http.buildNoBodyResponse(res, 401);
    }
    let buffered;
    try {
      buffered = await http.bufferIncomingMessage(req, this.options.bodyLimitBytes ?? 1024 * 1024);
    } catch (error) {
      if (http.isRawBodyError(error) && (error.type === 'entity.too.large' || error.statusCode === 413))
        return http.buildNoBodyResponse(res, 413);
      logger.warn(`Failed to read the request body: ${describeError(error)}`);
      return http.buildNoBodyResponse(res, 401);
    }
    // Slack's SSL check is sent unsigned; as in Bolt, nothing else of its body is read.
    if (req.headers['content-type'] === 'application/x-www-form-urlencoded' && parseForm(buffered.rawBody.toString()).ssl_check === '1')
      return http.buildSSLCheckResponse(res);
    if (!validSlackSignature(this.key, timestamp, buffered.rawBody, req.headers['x-slack-signature'])) {
      logger.warn('Refused a request whose x-slack-signature is missing or does not match its body');
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

/** @see SlackReceiverOptions.quietMs */
export const DEFAULT_QUIET_MS = 250;

/**
 * Whether events are arriving: some being received now, or, after a burst, the last one finished less than
 * `quietMs` ago. The requests of one burst reach the server tens of milliseconds apart, and in each gap a bare
 * in-flight count reads zero: answering would start there and take the event loop (and the embedded database's one
 * connection) from the acknowledgements still to come. A lone event (none other in flight or within `quietMs`
 * before it) leaves no quiet to wait for: its answer starts as soon as it is acknowledged.
 */
export class ReceiveActivity {
  private inFlight = 0;
  /** When the last request began, and when the last one ended. */
  private lastStart = Number.NEGATIVE_INFINITY;
  private lastEnd = Number.NEGATIVE_INFINITY;
  /** The last request came while another was in flight or had just been. */
  private burst = false;

  constructor(
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get busy(): boolean {
    return this.inFlight > 0 || (this.burst && this.now() - this.lastEnd < this.quietMs);
  }

  async during<T>(receive: () => Promise<T>): Promise<T> {
    const start = this.now();
    this.burst = this.inFlight > 0 || start - Math.max(this.lastStart, this.lastEnd) < this.quietMs;
    this.lastStart = start;
    this.inFlight += 1;
    try {
      return await receive();
    } finally {
      this.inFlight -= 1;
      this.lastEnd = this.now();
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
