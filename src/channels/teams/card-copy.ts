import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * A card carries a sealed copy of its own content in a hidden input: Teams
 * sends a card's inputs with each press but never the card, and the bot keeps
 * no replies, so this is how a press can re-render the card with the choice.
 * The seal (an HMAC by the deployment's secret, bound to the interaction) keeps
 * a forged press from making the bot post text of the presser's choosing.
 */
const Copy = z.object({ kb: z.string().max(200), body: z.array(z.record(z.string(), z.unknown())).max(300) });
export type CardCopy = z.infer<typeof Copy>;

/** A copy longer than this is not carried: the card would grow past what Teams takes (~28 KB). */
export const MAX_COPY_CHARS = 10_000;

export interface CardCopies {
  /** The sealed copy for a card of this interaction, or undefined when the content is too long to carry. */
  seal(interactionId: number, copy: CardCopy): string | undefined;
  /** The copy a press sent back, or null when it is missing or not one this deployment sealed for that interaction. */
  open(interactionId: number, sealed: unknown): CardCopy | null;
}

export function cardCopies(secret: string): CardCopies {
  const key = createHash('sha256').update(`candor-teams-card:${secret}`).digest();
  const mac = (interactionId: number, json: string) => createHmac('sha256', key).update(`${interactionId}\n${json}`).digest('base64url');
  return {
    seal(interactionId, copy) {
      const json = JSON.stringify(copy);
      return json.length > MAX_COPY_CHARS ? undefined : `${mac(interactionId, json)}.${json}`;
    },
    open(interactionId, sealed) {
      if (typeof sealed !== 'string') return null;
      const dot = sealed.indexOf('.');
      const json = sealed.slice(dot + 1);
      const given = Buffer.from(sealed.slice(0, dot));
      const expected = Buffer.from(mac(interactionId, json));
      if (dot < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const parsed = Copy.safeParse(JSON.parse(json));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
