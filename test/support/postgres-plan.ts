// Which tests PostgreSQL lets this run have: read by vitest.config.ts (no vitest import here) and by the stores.
import { existsSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The server CI starts and the PostgreSQL tests use: CANDOR_TEST_DATABASE_URL, else 127.0.0.1:5432/test as the OS user. */
export const POSTGRES_URL = withDefaultUser(process.env.CANDOR_TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test');

/** Test files that need that server throughout: left out whole on a machine without it. */
export const SERVER_FILES = [
  'test/store/postgres.test.ts',
  'test/review/agreement-flow.test.ts',
  'test/review/judge/agreement-job.test.ts',
  'test/channels/slack/slack-postgres.test.ts',
];
/** Test files that start PostgreSQL clusters of their own with the Debian server binaries (test/support/own-postgres.ts). */
export const BINARY_FILES = ['test/channels/http/database-outage.test.ts'];

/** Where the Debian server binaries live, one folder per major version. */
export const SERVER_BINARIES = '/usr/lib/postgresql';

declare module 'vitest' {
  export interface ProvidedContext {
    /** What vitest.config.ts found: which PostgreSQL tests this run has. */
    postgres: PostgresPlan;
  }
}

export interface PostgresPlan {
  /** Whether the tests that need the server at POSTGRES_URL run (they fail, with the reason, when it is down). */
  readonly server: boolean;
  /** Whether the tests that start clusters of their own run. */
  readonly binaries: boolean;
  /** Test files left out whole. */
  readonly excluded: readonly string[];
  /** The one line a run prints about it, or null when everything runs on a machine that has it all. */
  readonly note: string | null;
}

/** CI=true (any value but empty, 0 or false), as CI services and .ci/run set it. */
export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * What runs, from what was found. In CI everything runs, so a missing server fails (never skips) its tests.
 * Elsewhere the tests that need what is missing are left out, and one line says so and how to run them. Pure.
 */
export function postgresPlan(found: {
  readonly ci: boolean;
  readonly url: string;
  /** Why the server cannot be used, or null when it answers. */
  readonly unreachable: string | null;
  /** Why the server binaries cannot be used, or null when they are installed. */
  readonly noBinaries: string | null;
}): PostgresPlan {
  const where = redact(found.url);
  if (found.ci) {
    const missing = [
      ...(found.unreachable ? [`PostgreSQL is not reachable at ${where} (${found.unreachable})`] : []),
      ...(found.noBinaries ? [`the PostgreSQL server binaries are missing (${found.noBinaries})`] : []),
    ];
    const note = missing.length === 0 ? null : `${missing.join(', and ')}: CI=true, so the tests that need it run, and fail.`;
    return { server: true, binaries: true, excluded: [], note };
  }
  const server = found.unreachable === null;
  const binaries = found.noBinaries === null;
  const excluded = [...(server ? [] : SERVER_FILES), ...(binaries ? [] : BINARY_FILES)];
  if (server && binaries) return { server, binaries, excluded, note: null };
  const why = [
    ...(server ? [] : [`PostgreSQL is not reachable at ${where} (${found.unreachable})`]),
    ...(binaries ? [] : [`its server binaries are not installed (${found.noBinaries})`]),
  ].join(' and ');
  const how = server
    ? 'install the postgresql server package'
    : 'start PostgreSQL there, with that database and a user who may create databases (.ci/run sets this up), or point CANDOR_TEST_DATABASE_URL at one';
  return { server, binaries, excluded, note: `${why}: the tests that need it were skipped. To run them too, ${how}.` };
}

/** Null when a client can connect to `url` and run a query within the time; otherwise why not, in a few words. */
export async function probePostgres(url: string, timeoutMs = 3_000): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined); // a connection dropped after the probe is not the probe's failure
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return (code && !message?.includes(code) ? `${code}: ${message ?? ''}` : (message ?? String(error))).trim();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Null when a PostgreSQL server version is installed under `base` (initdb and pg_ctl); otherwise why not. */
export function serverBinaries(base = SERVER_BINARIES): string | null {
  if (!existsSync(base)) return `no ${base}`;
  const found = readdirSync(base).some((version) => existsSync(join(base, version, 'bin', 'initdb')));
  return found ? null : `no initdb under ${base}`;
}

/** The plan for this run: probes the server and looks for the binaries. */
export async function currentPostgresPlan(env: Readonly<Record<string, string | undefined>> = process.env): Promise<PostgresPlan> {
  return postgresPlan({ ci: isCi(env), url: POSTGRES_URL, unreachable: await probePostgres(POSTGRES_URL), noBinaries: serverBinaries() });
}

/** libpq's default: a URL without a user name connects as the operating-system user. */
function withDefaultUser(raw: string): string {
  const url = new URL(raw);
  if (url.username === '') url.username = process.env.PGUSER ?? process.env.USER ?? userInfo().username;
  return url.toString();
}

export function redact(raw: string): string {
  const url = new URL(raw);
  if (url.password !== '') url.password = '***';
  return url.toString();
}
