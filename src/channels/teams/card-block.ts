/** One Adaptive Card element, as JSON: what the card renderers put together. */
export type Block = Record<string, unknown>;
