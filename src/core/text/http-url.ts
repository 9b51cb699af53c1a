const MAX_URL_LENGTH = 2048;

/**
 * `value` as an absolute http(s) URL (resolved against `base` when relative), or null. Any other
 * scheme (javascript:, data:, file:) is never kept, nor a URL carrying a user name or password:
 * a link is shown to people and opened by them. Pure.
 */
export function httpUrl(value: unknown, base?: string | null): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || text.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return null;
  return url.href;
}
