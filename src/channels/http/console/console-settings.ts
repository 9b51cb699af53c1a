import { z } from 'zod';

/** Settings of the console at `/`: it is on only when one of them is set (fail closed). */
export const consoleSettingsShape = {
  /** A shared secret: the login form takes it, and scripts send `Authorization: Bearer <token>`. */
  CANDOR_CONSOLE_TOKEN: z.string().min(16, 'expected at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
  /** `user:password,user:password`: HTTP basic auth, for a console behind a proxy that passes it through. */
  CANDOR_CONSOLE_BASIC_AUTH: z
    .string()
    .regex(
      /^[^:,\s]+:[^,]{8,}(,[^:,\s]+:[^,]{8,})*$/,
      'expected user:password pairs separated by commas, passwords of 8 characters or more',
    )
    .optional(),
} as const;

export interface ConsoleSettings {
  readonly token: string | undefined;
  readonly basicAuth: readonly { readonly user: string; readonly password: string }[];
  /** False when neither a token nor a basic-auth user is set: then every console page refuses. */
  readonly enabled: boolean;
}

export function consoleSettings(s: {
  CANDOR_CONSOLE_TOKEN?: string | undefined;
  CANDOR_CONSOLE_BASIC_AUTH?: string | undefined;
}): ConsoleSettings {
  const basicAuth = (s.CANDOR_CONSOLE_BASIC_AUTH ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => ({ user: pair.slice(0, pair.indexOf(':')), password: pair.slice(pair.indexOf(':') + 1) }));
  return { token: s.CANDOR_CONSOLE_TOKEN, basicAuth, enabled: s.CANDOR_CONSOLE_TOKEN !== undefined || basicAuth.length > 0 };
}
