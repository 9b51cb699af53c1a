import { junkHeaderValue, type FuzzRequest } from './fuzz-request.js';
import type { Prng } from './prng.js';

type Headers = FuzzRequest['headers'];

/** Authorization: the right bearer token most of the time (to reach what is behind it), else something wrong with it. */
export function authHeaders(rng: Prng, token: string | undefined, rightShare = 0.7): Headers {
  if (token !== undefined && rng.chance(rightShare)) return [['Authorization', `Bearer ${token}`]];
  const t = token ?? 'no-token-known';
  return rng.pick<() => Headers>([
    () => [],
    () => [['Authorization', '']],
    () => [['Authorization', 'Bearer']],
    () => [['Authorization', 'Bearer ']],
    () => [['Authorization', `Bearer ${t} extra`]],
    () => [['Authorization', `bearer ${t}`]],
    () => [['Authorization', `Bearer\t${t}`]],
    () => [
      ['Authorization', `Bearer ${t}`],
      ['Authorization', 'Bearer wrong'],
    ],
    () => [['Authorization', `Bearer ${t.slice(0, -1)}`]],
    () => [['Authorization', `Bearer ${t}\u00e9`]],
    () => [['Authorization', `Bearer ${'A'.repeat(rng.between(100, 12_000))}`]],
    () => [['Authorization', 'Basic !!!!']],
    () => [['Authorization', 'Basic ===']],
    () => [['Authorization', `Basic ${Buffer.from('nocolon').toString('base64')}`]],
    () => [['Authorization', `Basic ${Buffer.from(':').toString('base64')}`]],
    () => [['Authorization', `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0xc3]).toString('base64')}`]],
    () => [['Authorization', `Basic ${'QUFB'.repeat(rng.between(10, 3000))}`]],
    () => [['Authorization', `Token ${t}`]],
    () => [['Authorization', junkHeaderValue(rng)]],
  ])();
}

/** Content-Type: right most of the time, else missing, doubled, odd or wrong. */
export function contentTypeHeaders(rng: Prng, right: string, rightShare = 0.75): Headers {
  if (rng.chance(rightShare)) return [['Content-Type', right]];
  return rng.pick<() => Headers>([
    () => [],
    () => [
      ['Content-Type', right],
      ['Content-Type', right],
    ],
    () => [
      ['Content-Type', right],
      ['Content-Type', 'text/plain'],
    ],
    () => [['Content-Type', '']],
    () => [['Content-Type', right.toUpperCase()]],
    () => [['Content-Type', `${right}; charset=utf-16`]],
    () => [['Content-Type', `${right};;;charset`]],
    () => [['Content-Type', `${right}x`]],
    () => [['Content-Type', 'text/plain']],
    () => [['Content-Type', 'multipart/form-data; boundary=x']],
    () => [['Content-Type', 'application/json']],
    () => [['Content-Type', 'application/x-www-form-urlencoded']],
    () => [['Content-Type', junkHeaderValue(rng)]],
  ])();
}

/** A few extra headers a proxy or a hostile client might add. */
export function extraHeaders(rng: Prng): Headers {
  if (rng.chance(0.7)) return [];
  return rng.pick<() => Headers>([
    () => [['Cookie', 'candor_console=%E0%A4%A']],
    () => [['Cookie', junkHeaderValue(rng)]],
    () => [['X-Forwarded-For', junkHeaderValue(rng)]],
    () => [['X-Forwarded-Proto', 'https']],
    () => [['X-Forwarded-Host', junkHeaderValue(rng)]],
    () => [['Origin', rng.pick(['null', 'http://[', 'x', 'http://evil.invalid', ''])]],
    () => [['Traceparent', rng.pick(['00-zz-zz-01', `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`, junkHeaderValue(rng)])]],
    () => [['Tracestate', junkHeaderValue(rng)]],
    () => [['Baggage', junkHeaderValue(rng)]],
    () => [['Accept-Encoding', 'gzip, br, zstd']],
    () => [['Content-Encoding', rng.pick(['gzip', 'deflate', 'br', 'identity', 'x'])]],
    () => [['X-Request-Id', junkHeaderValue(rng)]],
    () => [['User-Agent', junkHeaderValue(rng)]],
    () => Array.from({ length: rng.between(50, 150) }, (_, i) => [`X-Many-${i}`, 'v'] as const),
  ])();
}
