import type { Config } from '../config.js';
import type { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import type { Log } from '../kernel/log.js';
import type { Llm } from '../llm/llm-client.js';
import type { Store } from '../store/open-store.js';
import type { Telemetry } from '../telemetry/setup-telemetry.js';
import type { Ask } from './ask-service.js';
import type { ChatAsk } from './chat-ask.js';

/**
 * The services the composition root (src/app/main.ts) builds. A command or a job
 * names the ones it uses (`Pick<Services, 'store' | 'config'>`), so it is
 * handed those and can reach nothing else; only the root closes them.
 */
export interface Services {
  readonly config: Config;
  readonly store: Store;
  readonly indexes: KnowledgeIndexCache;
  readonly ask: Ask;
  /** The ask of a chat event (Slack, Teams): the one writer of its claimed interaction row. */
  readonly chatAsk: ChatAsk;
  /** The configured model, or null in extractive mode. */
  readonly llm: Llm | null;
  readonly log: Log;
  /** GET /metrics (Prometheus text format); null when the caller runs its own OpenTelemetry SDK. */
  readonly metrics: Telemetry['metrics'] | null;
}
