import { junkHeaderValue, type CaseMaker, type FuzzRequest } from './fuzz-request.js';
import { nastyString, uriEncode } from './junk.js';
import type { Prng } from './prng.js';

/** Request targets that are no path on this server: each must get a 400, whatever the method. */
export const MALFORMED_TARGETS = [
  '//',
  '///',
  '//[',
  '//:99999',
  'http://',
  '//a:b@',
  '//a:b@/x',
  'http://[',
  'https://:0',
  '*',
  '//%',
  '/%%',
] as const;

/** Every path the server answers on, for targets built around them. */
export const ENDPOINTS = [
  '/api/ask',
  '/healthz',
  '/metrics',
  '/',
  '/login',
  '/logout',
  '/interactions',
  '/interactions/1',
  '/gaps',
  '/review',
  '/agreement',
  '/ask',
  '/console.css',
  '/slack/events',
  '/api/messages',
] as const;

export const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;
const ODD_METHODS = ['get', 'G\u00c9T', 'FOO', 'CONNECT', 'TRACE', 'PROPFIND', 'M-SEARCH', 'PURGE', 'SEARCH', 'X'.repeat(300), 'GET\u0000'];

/** A target that a route might still be asked to parse: malformed, odd or very long. */
function oddTarget(rng: Prng, port: number): string {
  const path = rng.pick(ENDPOINTS);
  return rng.pick<() => string>([
    () => rng.pick(MALFORMED_TARGETS),
    () => `${rng.pick(MALFORMED_TARGETS)}${path}`,
    () => `/..%2f..${path}`,
    () => `${path}/../..${path}`,
    () => `${path}%00`,
    () => `${path}?${rng.pick(['%', '%%', '%E0%A4%A', 'a=%ZZ', '&&&', '=', 'next=//evil', `x=${'y'.repeat(8000)}`])}`,
    () => `${path}#frag`,
    () => `${path};jsessionid=1`,
    () => path.toUpperCase(),
    () => path.replaceAll('/', '//'),
    () => path.replaceAll('/', '\\'),
    () => `/${'a/'.repeat(rng.between(100, 6000))}`,
    () => `/${'%2e%2e/'.repeat(rng.between(10, 500))}`,
    () => `http://127.0.0.1:${port}${path}`,
    () => `HTTP://127.0.0.1:${port}${path}`,
    () => `http://evil.invalid${path}`,
    () => `https://user:pass@127.0.0.1${path}`,
    () => `http://[::1]:${port}${path}`,
    () => `http://127.0.0.1:99999${path}`,
    () => `ftp://127.0.0.1${path}`,
    () => `mailto:x@y${path}`,
    () => `127.0.0.1:${port}`,
    () => path.slice(1),
    () => `${path}${nastyString(rng)}`,
    () => `/${uriEncode(nastyString(rng))}`,
    () => `${path}\u00e9\u4e2d😀`,
    () => `${path}\t`,
    () => `${path}\u0001`,
    () => `${path}\u007f`,
    () => '/'.repeat(rng.between(2, 10_000)),
    () => `/${'x'.repeat(rng.between(1000, 70_000))}`,
  ])();
}

function targetCase(kind: string, target: (rng: Prng, port: number) => string, method: (rng: Prng) => string): CaseMaker {
  return ({ rng, port }) => {
    const m = method(rng);
    return {
      endpoint: 'request-target',
      kind,
      method: m,
      target: target(rng, port),
      headers: m === 'POST' || m === 'PUT' ? [['Content-Type', 'application/json']] : [],
      body: m === 'POST' || m === 'PUT' ? '{"question":"What is the leave policy?"}' : undefined,
    };
  };
}

/** Request targets: the known malformed ones with every method, odd ones, and odd methods on good paths. */
export const targetCases: Record<string, CaseMaker> = {
  'target.malformed': targetCase(
    'target.malformed',
    (rng) => rng.pick(MALFORMED_TARGETS),
    (rng) => rng.pick(METHODS),
  ),
  'target.odd': targetCase('target.odd', oddTarget, (rng) => rng.pick(METHODS)),
  'target.odd-method': targetCase(
    'target.odd-method',
    (rng) => rng.pick(ENDPOINTS),
    (rng) => rng.pick(ODD_METHODS),
  ),
};

const request = (lines: string[], body = ''): Buffer => Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'utf8');

/** Below the routes: request lines, versions, framing and headers that HTTP parsers disagree on. */
export const protocolCases: Record<string, CaseMaker> = {
  'protocol.raw': ({ rng, port }): FuzzRequest => {
    const host = `Host: 127.0.0.1:${port}`;
    const path = rng.pick(ENDPOINTS);
    const raw = rng.pick<() => Buffer>([
      () => request([`GET ${path} HTTP/1.0`]),
      () => request([`GET ${path} HTTP/2.0`, host]),
      () => request([`GET ${path} HTTP/9.9`, host]),
      () => Buffer.from(`GET ${path}\r\n\r\n`),
      () => Buffer.from(`GET ${path} HTTP/1.1\n${host}\nConnection: close\n\n`),
      () => Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
      () => Buffer.from(`  GET ${path} HTTP/1.1\r\n${host}\r\n\r\n`),
      () => Buffer.from(`GET  ${path}  HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', 'NoColonHeader']),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', 'Bad Name: x']),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', 'X-Folded: a', ' continued']),
      () => request([`GET ${path} HTTP/1.1`, host, host, 'Connection: close']),
      () => request([`GET ${path} HTTP/1.1`, `Host: ${junkHeaderValue(rng)}`, 'Connection: close']),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', ...Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}`)]),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', `X-Big: ${'b'.repeat(rng.between(8_000, 70_000))}`]),
      () => request([`POST ${path} HTTP/1.1`, host, 'Connection: close', 'Transfer-Encoding: chunked, chunked'], '0\r\n\r\n'),
      () => request([`POST ${path} HTTP/1.1`, host, 'Connection: close', 'Transfer-Encoding: gzip'], 'abc'),
      () =>
        request(
          [`POST ${path} HTTP/1.1`, host, 'Connection: close', 'Transfer-Encoding: chunked', 'Content-Encoding: gzip'],
          '3\r\nabc\r\n0\r\n\r\n',
        ),
      () => request([`POST ${path} HTTP/1.1`, host, 'Connection: close', 'Expect: 100-continue', 'Content-Length: 2'], '{}'),
      () => request([`POST ${path} HTTP/1.1`, host, 'Connection: close', 'Expect: junk', 'Content-Length: 2'], '{}'),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13']),
      () =>
        request([
          `GET ${path} HTTP/1.1`,
          host,
          'Upgrade: h2c',
          'Connection: Upgrade, HTTP2-Settings',
          'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
        ]),
      () => Buffer.concat([request([`GET /healthz HTTP/1.1`, host]), request([`GET ${path} HTTP/1.1`, host, 'Connection: close'])]),
      () => Buffer.concat([request([`POST ${path} HTTP/1.1`, host, 'Content-Length: 0']), Buffer.from('\u0000\u0001garbage\r\n\r\n')]),
      () => request([`GET ${path} HTTP/1.1`, host, 'Connection: close', 'Content-Length: 5'], 'hello'),
      () => request([`DELETE ${path} HTTP/1.1`, host, 'Connection: close', 'Transfer-Encoding: chunked'], '5\r\nhello\r\n0\r\n\r\n'),
    ])();
    return {
      endpoint: 'protocol',
      kind: 'protocol.raw',
      method: raw.subarray(0, 8).toString('latin1').split(' ')[0] ?? '',
      target: path,
      headers: [],
      raw,
    };
  },
};
