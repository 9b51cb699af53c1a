import { z } from 'zod';

/** Settings of the console at `/`: it is on only when one of them is set (fail closed). */
export const consoleSettingsShape = {
  /** A shared secret: the login form takes it, and scripts send `Authorization: Bearer <token>`. */
  CANDOR_CONSOLE_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  /** `user:password,user:password`: HTTP basic auth, for a console behind a proxy that passes it through. */
  CANDOR_CONSOLE_BASIC_AUTH: z
    .string()
    .regex(
      /^[^:,\s]+:[^,]{8,}(,[^:,\s]+:[^,]{8,})*$/,
      'expected user:password pairs separated by commas, passwords of 8 characters or more',
    )
    .optional(),
  /** Where a trace id links to: an http(s) URL with `{traceId}` in it (Tempo, Jaeger, Langfuse…); unset: no link. */
  CANDOR_TRACE_URL: z.string().refine(isTraceTemplate, 'expected an http(s) URL with {traceId} in it').optional(),
} as const;

export interface ConsoleSettings {
  readonly token: string | undefined;
  readonly basicAuth: readonly { readonly user: string; readonly password: string }[];
  /** False when neither a token nor a basic-auth user is set: then every console page refuses. */
  readonly enabled: boolean;
  /** CANDOR_TRACE_URL: the trace link template, `{traceId}` in it; undefined: trace ids are not links. */
  readonly traceUrl?: string | undefined;
}

export function consoleSettings(s: {
  CANDOR_CONSOLE_TOKEN?: string | undefined;
  CANDOR_CONSOLE_BASIC_AUTH?: string | undefined;
  CANDOR_TRACE_URL?: string | undefined;
}): ConsoleSettings {
  const basicAuth = (s.CANDOR_CONSOLE_BASIC_AUTH ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => ({ user: pair.slice(0, pair.indexOf(':')), password: pair.slice(pair.indexOf(':') + 1) }));
  return {
    token: s.CANDOR_CONSOLE_TOKEN,
    basicAuth,
    enabled: s.CANDOR_CONSOLE_TOKEN !== undefined || basicAuth.length > 0,
    traceUrl: s.CANDOR_TRACE_URL,
  };
}

/** A trace's address from the template (undefined without one). */
export function traceLink(template: string | undefined, traceId: string): string | undefined {
  return template?.replaceAll('{traceId}', encodeURIComponent(traceId));
}

function isTraceTemplate(value: string): boolean {
  if (!value.includes('{traceId}')) return false;
  try {
    const url = new URL(value.replaceAll('{traceId}', '0123456789abcdef0123456789abcdef'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
