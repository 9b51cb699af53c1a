const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store: no NUL (text and jsonb refuse it) and no lone
 * surrogate (not UTF-8). Each becomes U+FFFD, so a chat payload carrying one is
 * stored and answered (or refused as not text) instead of failing its insert
 * for ever and being delivered again and again.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

/** A JSON value with every string in it (keys too) made storable. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}
