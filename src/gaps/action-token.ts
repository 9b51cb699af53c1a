import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Buttons on replies and expert questions name what they act on (an
 * interaction, a gap) with a token signed by the deployment's secret salt, so
 * a request that names another interaction or gap (forged, or copied from
 * another workspace) is refused before anything is read or stored.
 */
export type ActionSubject = 'interaction' | 'gap';

export function actionKey(secret: string): Buffer {
  return createHash('sha256').update(`candor-actions:${secret}`).digest();
}

function signAction(key: Buffer, subject: ActionSubject, id: number): string {
  return createHmac('sha256', key).update(`${subject}:${id}`).digest('base64url').slice(0, 22);
}

function verifyAction(key: Buffer, subject: ActionSubject, id: unknown, token: unknown): id is number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || typeof token !== 'string' || token.length !== 22) return false;
  const expected = Buffer.from(signAction(key, subject, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** "<id>.<token>": one string for a button's value. */
export function actionValue(key: Buffer, subject: ActionSubject, id: number): string {
  return `${id}.${signAction(key, subject, id)}`;
}

/** The id a signed button value names, or null when the value is not one we signed. */
export function readActionValue(key: Buffer, subject: ActionSubject, value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(value);
  if (!match) return null;
  const id = Number(match[1]);
  return verifyAction(key, subject, id, match[2]) ? id : null;
}
