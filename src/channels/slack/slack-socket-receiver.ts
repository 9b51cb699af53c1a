import { defaultProcessEventErrorHandler, type App, type Logger, type Receiver, type ReceiverEvent, type webApi } from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';

import { describeError } from '../../kernel/errors.js';
import type { SlackInbound, SlackQuestion } from './slack-inbound.js';
import { DEFAULT_QUIET_MS, ReceiveActivity, retryCount, storeQuestion } from './slack-receiver.js';

export interface SlackSocketReceiverOptions {
  /** The app-level token (`xapp-…`, scope connections:write) that opens the connection. */
  readonly appToken: string;
  readonly logger: Logger;
  /** For apps.connections.open: Slack's API URL, timeout and retries (the socket client keeps its own copy). */
  readonly clientOptions?: webApi.WebClientOptions;
  /** Reads a question out of an event body (or says why it is none): what this install answers. */
  readonly parse: (body: unknown) => SlackInbound;
  /** Stores a question durably; resolves once stored. Rejects when it cannot be (the database is down). */
  readonly enqueue: (question: SlackQuestion, retryNum: number) => Promise<void>;
  /** How long after the last envelope of a burst the receiver still counts as busy (see ReceiveActivity). @default 250 */
  readonly quietMs?: number;
}

/** What SocketModeClient emits as `slack_event` for each envelope Slack sends. */
interface SocketEnvelope {
  readonly type: string;
  readonly body?: Record<string, unknown>;
  readonly retry_num?: unknown;
  readonly retry_reason?: unknown;
  /** Sends the envelope id back, with a response payload (a string is sent as `{ text }`). */
  readonly ack: (response?: unknown) => Promise<void>;
}

/**
 * A Bolt receiver for Socket Mode that acknowledges a question only once it is
 * stored, as the HTTP receiver does: Bolt's SocketModeReceiver acknowledges
 * events before any listener runs, so a crash between the two loses the
 * question. An envelope that is not acknowledged (the store refused it, or the
 * process died first) is delivered again by Slack, and the inbox drops the
 * duplicate of one that was stored. Everything else (review reactions and
 * buttons, /candor, other events) goes to Bolt's processEvent, whose listeners'
 * acknowledgement (with any response payload) goes back over the socket.
 */
export class SlackSocketReceiver implements Receiver {
  private app: App | undefined;
  private readonly client: SocketModeClient;
  private readonly activity: ReceiveActivity;

  /** Envelopes being read and stored, or, after a burst, one finished within `quietMs`. */
  get busy(): boolean {
    return this.activity.busy;
  }

  constructor(private readonly options: SlackSocketReceiverOptions) {
    this.activity = new ReceiveActivity(options.quietMs ?? DEFAULT_QUIET_MS);
    this.client = new SocketModeClient({
      appToken: options.appToken,
      logger: options.logger,
      clientOptions: { ...options.clientOptions },
    });
    this.client.on('slack_event', (envelope: SocketEnvelope) => void this.receive(envelope));
  }

  init(app: App): void {
    this.app = app;
  }

  /** Opens the connection (apps.connections.open, then the WebSocket); rejects when Slack refuses the token. */
  async start(): Promise<void> {
    await this.client.start();
  }

  async stop(): Promise<void> {
    await this.client.disconnect();
  }

  private async receive(envelope: SocketEnvelope): Promise<void> {
    try {
      await this.activity.during(() => this.handle(envelope));
    } catch (error) {
      this.options.logger.error(`Could not handle a Socket Mode envelope (${envelope.type}): ${describeError(error)}`);
    }
  }

  private async handle(envelope: SocketEnvelope): Promise<void> {
    const { logger } = this.options;
    const { body } = envelope;
    if (!body) return;
    const retryNum = retryCount(envelope.retry_num);
    if (envelope.type === 'events_api') {
      const stored = await storeQuestion(this.options, body, retryNum);
      if (stored === 'failed') return;
      if (stored === 'stored') {
        return envelope.ack().catch((error: unknown) => {
          logger.warn(`Stored a question but could not acknowledge it (its redelivery is ignored): ${describeError(error)}`);
        });
      }
    }
    let acked = false;
    const event: ReceiverEvent = {
      body,
      ack: async (response?: unknown) => {
        if (acked) return void logger.warn('ack() has already been called. Additional calls will be ignored.');
        acked = true;
        await envelope.ack(response);
      },
      retryNum,
      ...(typeof envelope.retry_reason === 'string' && envelope.retry_reason !== '' ? { retryReason: envelope.retry_reason } : {}),
    };
    try {
      await this.app?.processEvent(event);
    } catch (error) {
      // As Bolt's SocketModeReceiver: unacknowledged, so Slack delivers it again, unless no installation could be authorised.
      const coded = error instanceof Error ? error : new Error(String(error), { cause: error });
      if (await defaultProcessEventErrorHandler({ error: coded, logger, event })) await event.ack();
      return;
    }
    // No listener acknowledged it (a payload of no type Bolt knows): acknowledge now, or Slack delivers it again and again.
    if (!acked) await event.ack();
  }
}
