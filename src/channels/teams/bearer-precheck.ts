/** The clock skew botbuilder allows when it checks a channel token. */
const CLOCK_TOLERANCE_S = 300;

/**
 * Why a JWT-shaped bearer token cannot be valid, read without its signature; null when only botbuilder can
 * tell. It only ever refuses: botbuilder prints an expired token's stack to stderr, and fails on a part that
 * is not JSON with an error that does not say it is the token's fault.
 */
export function bearerProblem(authorization: string, nowMs: number): string | null {
  const parts = /^Bearer (\S+)$/.exec(authorization)?.[1]?.split('.');
  if (parts?.length !== 3) return null;
  const [header, payload] = parts.slice(0, 2).map(jsonObject);
  if (!header || !payload) return 'The token is not a JWT (its header or payload is not a JSON object).';
  const exp = payload.exp;
  return typeof exp === 'number' && exp + CLOCK_TOLERANCE_S < nowMs / 1000 ? 'The token has expired.' : null;
}

function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
