import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import type { Config } from '../config.js';
import { packageVersion } from '../kernel/version.js';
import { PROMETHEUS_NAME } from './attributes.js';
import { startRuntimeMetrics } from './runtime-metrics.js';

export interface Telemetry {
  /** Serves the Prometheus text format of every Candor metric (GET /metrics). */
  readonly metrics: (request: IncomingMessage, response: ServerResponse) => void;
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
  // Prometheus is always on, served by Candor's own HTTP server rather than a second port.
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const sdk = new NodeSDK({
    // OTEL_RESOURCE_ATTRIBUTES (through config), then what Candor knows of itself; OTEL_SERVICE_NAME wins.
    resource: resourceFromAttributes({
      'service.version': packageVersion(),
      'service.instance.id': randomUUID(),
      ...config.resourceAttributes,
      'service.name': config.serviceName,
    }),
    // No host/process detectors: command lines and paths have no place in exported telemetry.
    autoDetectResources: false,
    sampler: samplerFor(config.sampler),
    // Explicit (even empty) lists: otherwise NodeSDK falls back to OTLP exporters from the environment.
    spanProcessors,
    metricReaders: [prometheus, ...(options.metricReaders ?? [])],
    // Buckets come with each instrument (advice); views only give some streams a name that carries their unit.
    views: Object.entries(PROMETHEUS_NAME).map(([instrumentName, name]) => ({ instrumentName, name })),
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const runtime = startRuntimeMetrics();
  return {
    metrics: (request, response) => prometheus.getMetricsRequestHandler(request, response),
    shutdown: async () => {
      runtime.stop();
      await sdk.shutdown();
    },
  };
}

function processorsFor(config: Config['telemetry']): SpanProcessor[] {
  switch (config.exporter) {
    case 'otlp': {
      const options = { ...(config.otlpTracesUrl ? { url: config.otlpTracesUrl } : {}), headers: { ...config.otlpHeaders } };
      return [
        new BatchSpanProcessor(config.otlpProtocol === 'http/json' ? new OTLPTraceExporter(options) : new OTLPProtoTraceExporter(options)),
      ];
    }
    case 'console':
      return [new SimpleSpanProcessor(new ConsoleSpanExporter())];
    case 'none':
      return [new RecordOnlyProcessor()];
  }
}

/** OTEL_TRACES_SAMPLER: by default a sampled incoming `traceparent` is followed and new traces are all kept. */
function samplerFor({ name, ratio }: Config['telemetry']['sampler']): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
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
