import { NodeSDK } from '@opentelemetry/sdk-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { Config } from '../config.js';

export interface Telemetry {
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Replaces the exporters chosen by config (tests pass an in-memory one). */
  readonly spanProcessors?: SpanProcessor[];
  readonly metricReaders?: MetricReader[];
}

/**
 * Starts the OpenTelemetry SDK. Spans are always recorded (interactions carry
 * their trace id) and exported only where config says: OTLP, console or nowhere.
 */
export function setupTelemetry(config: Config['telemetry'], options: TelemetryOptions = {}): Telemetry {
  const spanProcessors = options.spanProcessors ?? processorsFor(config);
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    // Explicit (even empty) lists: otherwise NodeSDK falls back to OTLP exporters from the environment.
    spanProcessors,
    metricReaders: options.metricReaders ?? [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

function processorsFor(config: Config['telemetry']): SpanProcessor[] {
  switch (config.exporter) {
    case 'otlp':
      return [new BatchSpanProcessor(new OTLPTraceExporter(config.otlpEndpoint ? { url: `${config.otlpEndpoint.replace(/\/$/, '')}/v1/traces` } : {}))];
    case 'console':
      return [new SimpleSpanProcessor(new ConsoleSpanExporter())];
    case 'none':
      return [new RecordOnlyProcessor()];
  }
}

/** Keeps a tracer provider registered (so asks get real trace ids) without exporting anything. */
class RecordOnlyProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
