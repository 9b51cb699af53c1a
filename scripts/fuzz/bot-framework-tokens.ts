import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';

/** Where the fake publishes its OpenID metadata and its keys (the public cloud's paths). */
export const OPENID_METADATA_PATH = '/v1/.well-known/openidconfiguration';
export const JWKS_PATH = '/v1/.well-known/keys';
/** The issuer of channel → bot tokens in the public cloud. */
export const CHANNEL_ISSUER = 'https://api.botframework.com';

/** An RS256 key as the Bot Framework publishes one: its JWK carries the channels it may sign for. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
}

/** A fresh RSA key. @default endorsements ["msteams"] */
export function signingKey(kid: string = randomUUID(), endorsements: readonly string[] = ['msteams']): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: 'jwk' });
  return { kid, privateKey, jwk: { kty: 'RSA', use: 'sig', kid, n, e, endorsements: [...endorsements] } };
}

/** The bodies a fake OpenID endpoint answers at `baseUrl`, by path; undefined for any other path. */
export function openIdResponse(baseUrl: string, path: string, keys: readonly SigningKey[]): Record<string, unknown> | undefined {
  if (path === OPENID_METADATA_PATH)
    return { issuer: CHANNEL_ISSUER, jwks_uri: `${baseUrl}${JWKS_PATH}`, id_token_signing_alg_values_supported: ['RS256'] };
  if (path === JWKS_PATH) return { keys: keys.map((k) => k.jwk) };
  return undefined;
}

export interface ChannelTokenClaims {
  /** The bot's app id. */
  readonly aud: string;
  /** Must equal the activity's serviceUrl. */
  readonly serviceUrl: string;
  /** Unix seconds. */
  readonly now: number;
  /** @default 3600 */
  readonly ttlSeconds?: number;
  /** @default CHANNEL_ISSUER */
  readonly iss?: string;
}

/** A channel → bot token (RS256) as the Bot Framework signs one, for the activity's serviceUrl. */
export function channelToken(key: SigningKey, claims: ChannelTokenClaims): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const header = enc({ alg: 'RS256', typ: 'JWT', kid: key.kid });
  const payload = enc({
    iss: claims.iss ?? CHANNEL_ISSUER,
    aud: claims.aud,
    serviceurl: claims.serviceUrl,
    nbf: claims.now - 60,
    iat: claims.now - 60,
    exp: claims.now + (claims.ttlSeconds ?? 3600),
  });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}
