import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A platform user id sealed for the inbox (AES-256-GCM under a key derived
 * from CANDOR_USER_HASH_SALT): an ephemeral reply must name its asker, and the
 * inbox never holds a user id anyone can read. Opening fails (throws) on a
 * value sealed under another salt or changed in any way.
 */
export function sealUserId(user: string, salt: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(salt), iv);
  const sealed = Buffer.concat([cipher.update(user, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
}

export function openUserId(sealed: string, salt: string): string {
  const [iv = '', tag = '', body = ''] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(salt), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

function keyOf(salt: string): Buffer {
  return createHash('sha256').update(`candor:sealed-user:${salt}`).digest();
}
