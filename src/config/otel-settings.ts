import { z } from 'zod';

/**
 * The standard OpenTelemetry environment variables Candor honours, validated
 * like every other setting (a typo stops start-up instead of being ignored by
 * the SDK). OTEL_SERVICE_NAME and OTEL_EXPORTER_OTLP_ENDPOINT are in config.ts.
 */
export const otelSettingsShape = {
  /** `key=value,key=value`, values percent-encoded (W3C Baggage octets), e.g. `deployment.environment.name=prod`. */
  OTEL_RESOURCE_ATTRIBUTES: z
    .string()
    .optional()
    .transform((v, ctx) => keyValues(v, ctx)),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional(),
  /** The full URL for traces (used as given, unlike OTEL_EXPORTER_OTLP_ENDPOINT which gets /v1/traces appended). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol(),
  /** Sent with every export (e.g. a vendor's API key): `key=value,…`. Treated as a secret. */
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .transform((v, ctx) => keyValues(v, ctx)),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z
    .string()
    .optional()
    .transform((v, ctx) => keyValues(v, ctx)),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
} as const;

type OtelInput = z.output<z.ZodObject<typeof otelSettingsShape>>;

export interface OtelSettings {
  /** From OTEL_RESOURCE_ATTRIBUTES; `service.name` there is used when OTEL_SERVICE_NAME is unset. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** Where traces go when the exporter is `otlp`; undefined: the exporter's default (localhost:4318). */
  readonly otlpTracesUrl: string | undefined;
  readonly otlpProtocol: 'http/protobuf' | 'http/json';
  readonly otlpHeaders: Readonly<Record<string, string>>;
  readonly sampler: { readonly name: OtelInput['OTEL_TRACES_SAMPLER']; readonly ratio: number };
}

/** The telemetry settings of the standard variables (signal-specific ones win over general ones, as the spec says). */
export function otelSettings(s: OtelInput & { OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined }): OtelSettings {
  return {
    resourceAttributes: s.OTEL_RESOURCE_ATTRIBUTES,
    otlpTracesUrl:
      s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (s.OTEL_EXPORTER_OTLP_ENDPOINT ? `${s.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` : undefined),
    otlpProtocol: s.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? s.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    otlpHeaders: { ...s.OTEL_EXPORTER_OTLP_HEADERS, ...s.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    sampler: { name: s.OTEL_TRACES_SAMPLER, ratio: s.OTEL_TRACES_SAMPLER_ARG },
  };
}

function protocol() {
  return z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .optional()
    .refine((v) => v !== 'grpc', 'Candor exports OTLP over HTTP: use http/protobuf or http/json (the collector port 4318)')
    .transform((v) => v as 'http/protobuf' | 'http/json' | undefined);
}

/** Parses `key=value,key=value` with percent-encoded values; a malformed pair is a config error, not a silent drop. */
function keyValues(raw: string | undefined, ctx: z.RefinementCtx): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    if (!/^[\w.-]+$/.test(key)) {
      ctx.addIssue({ code: 'custom', message: 'expected key=value pairs separated by commas' });
      return out;
    }
    try {
      out[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: `the value of ${key} is not valid percent-encoding` });
      return out;
    }
  }
  return out;
}
