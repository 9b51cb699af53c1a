import { readRssMb, type FuzzSecrets, type ServerExit, type ServerHandle } from './candor-under-test.js';
import { startFakePlatforms } from './fake-platforms.js';

/** The URL of a server the fuzzer may target, or why not: plain HTTP on 127.0.0.1 only, never another host. */
export function loopbackUrl(text: string): { ok: true; url: URL } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `--url ${JSON.stringify(text)} is not a URL` };
  }
  if (url.protocol !== 'http:') return { ok: false, problem: `--url must be http:// (got ${url.protocol})` };
  if (url.hostname !== '127.0.0.1')
    return { ok: false, problem: `refusing to fuzz ${url.hostname}: only a server on 127.0.0.1 may be targeted` };
  if (url.port === '') return { ok: false, problem: '--url needs an explicit port' };
  return { ok: true, url };
}

/**
 * A server someone else started. With its pid, exits and RSS are watched
 * through /proc; without, only what its answers show. Teams activities'
 * serviceUrl points at a local fake connector, so nothing the server replies leaves the machine.
 */
export async function attachServer(
  url: URL,
  options: { pid?: number; secrets: FuzzSecrets; teamsAnonymous: boolean },
): Promise<ServerHandle> {
  const fake = await startFakePlatforms();
  const started = Date.now();
  let exit: ServerExit | null = null;
  const { pid } = options;
  const alive = () => {
    if (pid === undefined || exit !== null) return exit === null;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      exit = { code: null, signal: null, atMs: Date.now() - started };
      return false;
    }
  };
  return {
    url: url.origin,
    port: Number(url.port),
    pid: pid ?? null,
    secrets: options.secrets,
    teamsAnonymous: options.teamsAnonymous,
    serviceUrl: `${fake.url}/`,
    exit: () => (alive() ? null : exit),
    rssMb: () => (pid !== undefined && alive() ? readRssMb(pid) : null),
    errors: () => [],
    stderrTail: () => '(the server was started elsewhere: see its own log)',
    stop: () => fake.close(),
  };
}
