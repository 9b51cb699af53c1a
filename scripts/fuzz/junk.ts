import type { Prng } from './prng.js';

/** Strings that have broken parsers, regexes, loggers and templates before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001b[31m',
  '\u202e\u200b\ufeff',
  '\ud800',
  '\udfff\ud800',
  '😀👍🏽‍',
  'é',
  'ﷺ',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  '0x10',
  'undefined',
  'null',
  'true',
  '__proto__',
  'constructor',
  'toString',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%s%s%s%n',
  '../../../../etc/passwd',
  '%E0%A4%A',
  '%00',
  '\\u0000',
  '&lt;&gt;&amp;',
  '<@U0FUZZ>',
  '<!channel>',
  '<#C0FUZZ|general>',
  '<https://example.invalid|link>',
  '<at>Candor</at>',
  ':thumbsup:',
  '*bold* _it_ ~s~ `c`',
];

/** Repeated markup with no end: regexes that scan to the end from each position take quadratic time on these. */
const REPEATED_UNITS = ['<#A|', '<@U', '<!here|', '<https:', '<at>', ':a', '*_', '&lt;', '\u0000', ' ', '<#C0|', '<http://x|'];

export function nastyString(rng: Prng): string {
  return rng.pick(NASTY_STRINGS);
}

/** A unit of markup repeated up to about `maxChars` characters. */
export function repeatedMarkup(rng: Prng, maxChars: number): string {
  const unit = rng.pick(REPEATED_UNITS);
  return unit.repeat(Math.max(1, Math.floor(rng.between(Math.min(100, maxChars), maxChars) / unit.length)));
}

/** Any string: short junk, long text, repeated markup, unicode. */
export function junkString(rng: Prng, maxChars = 10_000): string {
  switch (rng.int(6)) {
    case 0:
      return nastyString(rng);
    case 1:
      return repeatedMarkup(rng, maxChars);
    case 2:
      return 'x'.repeat(rng.between(1, maxChars));
    case 3:
      return rng.text(rng.between(1, 200), ' abcdefghijklmnopqrstuvwxyz?<>|@#!:*_~`&;\\"\'\u00e9\u4e2d\u0000\ud83d\ude00');
    case 4:
      return `${nastyString(rng)} What is the annual leave policy? ${nastyString(rng)}`;
    default:
      return rng.bytes(rng.between(1, 64)).toString('latin1');
  }
}

/** Any JSON value, nested up to `depth`. */
export function junkValue(rng: Prng, depth = 3): unknown {
  const scalar = (): unknown =>
    rng.pick<() => unknown>([
      () => null,
      () => true,
      () => false,
      () => 0,
      () => -1,
      () => 1.5,
      () => 1e308,
      () => Number.MAX_SAFE_INTEGER + 2,
      () => junkString(rng, 2_000),
      () => '',
    ])();
  if (depth <= 0 || rng.chance(0.5)) return scalar();
  if (rng.chance(0.5)) return Array.from({ length: rng.int(4) }, () => junkValue(rng, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = rng.int(4); i > 0; i -= 1) out[rng.chance(0.3) ? nastyString(rng) : rng.text(rng.between(1, 8))] = junkValue(rng, depth - 1);
  return out;
}

/** Deeply nested JSON text of about `bytes` bytes: arrays, objects, or an unclosed prefix. */
export function deepJson(rng: Prng, bytes: number): string {
  const depth = Math.max(1, Math.floor(bytes / 2));
  switch (rng.int(3)) {
    case 0:
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 1: {
      const d = Math.floor(depth / 3);
      return `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
    }
    default:
      return '['.repeat(depth * 2);
  }
}

/** A JSON body that is not the object an endpoint expects, or not JSON at all. */
export function wrongJson(rng: Prng, maxBytes: number): string | Buffer {
  return rng.pick<() => string | Buffer>([
    () => '',
    () => 'null',
    () => '[]',
    () => '[{}]',
    () => '0',
    () => '-1e999',
    () => `1${'0'.repeat(400)}`,
    () => '"question"',
    () => 'true',
    () => '{}',
    () => '{',
    () => '{"question":',
    () => '{"question":"unterminated',
    () => '\ufeff{}',
    () => '{"a":1,"a":2}',
    () => '{"__proto__":{"question":"polluted"},"constructor":{"prototype":{"x":1}}}',
    () => '"\\ud800"',
    () => '{"\\u0000":"\\u0000"}',
    () => 'NaN',
    () => "{'single':'quotes'}",
    () => deepJson(rng, rng.between(100, maxBytes)),
    () => JSON.stringify(junkValue(rng, 4)),
    () => rng.bytes(rng.between(1, 2_000)),
    () => Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x7b, 0x7d]),
    () => Buffer.concat([Buffer.from('{"question":"'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28]), Buffer.from('"}')]),
  ])();
}

/** encodeURIComponent that takes any string: lone surrogates (which it throws on) become U+FFFD. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}
