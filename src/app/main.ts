import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

import { createAsk } from '../ask/ask-service.js';
import { createChatAsk } from '../ask/chat-ask.js';
import { createFollowUp } from '../ask/follow-up.js';
import { createInteractionReads } from '../ask/interaction-reads.js';
import { createInteractionRecorder, hashUserId } from '../ask/record-interaction.js';
import type { Services } from '../ask/services.js';
import type { Config } from '../config.js';
import { KnowledgeIndexCache } from '../kb/knowledge-index-cache.js';
import { createLog, type Log } from '../kernel/log.js';
import { createLlm } from '../llm/llm-client.js';
import { openStore, type Store } from '../store/open-store.js';
import { configureEvaluationEvents } from '../telemetry/evaluation-events.js';
import { setupTelemetry, type Telemetry } from '../telemetry/setup-telemetry.js';

/** Everything Candor runs on, built once from Config: the one composition root. */
export interface Candor extends Services {
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Test hooks: in-memory span exporters and metric readers. */
  readonly spanProcessors?: SpanProcessor[];
  readonly metricReaders?: MetricReader[];
  /** Skip starting the OpenTelemetry SDK (when the caller has started one). */
  readonly telemetry?: false;
  readonly log?: Log;
  /** What this process is (the CLI command), named in an embedded folder's lock for other processes. */
  readonly purpose?: string;
}

export async function buildCandor(config: Config, options: BuildOptions = {}): Promise<Candor> {
  const log = options.log ?? createLog(config.logLevel, { format: config.logFormat, userText: config.telemetry.traceContent });
  const { traceContent, userHashSalt } = config.telemetry;
  configureEvaluationEvents({ traceContent, hashUser: (id) => hashUserId(id, userHashSalt) });
  const telemetry: Telemetry | null =
    options.telemetry === false
      ? null
      : setupTelemetry(config.telemetry, {
          ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
          ...(options.metricReaders ? { metricReaders: options.metricReaders } : {}),
        });
  let store: Store;
  try {
    store = await openStore({ ...config.store, log, ...(options.purpose ? { purpose: options.purpose } : {}) });
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
  const indexes = new KnowledgeIndexCache(store.db, {
    embeddingModel: config.llm?.embeddingModel,
    expertDays: (kb) => config.experts.kbs.find((e) => e.kb === kb)?.reconfirmDays,
  });
  const recorder = createInteractionRecorder(store.db, config.telemetry.userHashSalt);
  const llm = config.llm ? createLlm(config.llm) : null;
  const askDeps = { config, indexes, recorder, log, llm };
  const ask = createAsk(askDeps);
  const followUp = createFollowUp({ indexes, llm, log });
  const chatAsk = createChatAsk({ ...askDeps, reads: createInteractionReads(store.db), followUp });
  return {
    config,
    store,
    indexes,
    ask,
    chatAsk,
    llm,
    log,
    metrics: telemetry?.metrics ?? null,
    async close() {
      await store.close();
      await telemetry?.shutdown();
    },
  };
}
