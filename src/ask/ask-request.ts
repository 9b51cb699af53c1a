/** What a person (or a channel) asks: the question, where it was asked, and which knowledge bases answer it. */
export interface AskRequest {
  readonly question: string;
  readonly kb?: string | undefined;
  /**
   * Several knowledge bases searched together (a channel mapped to more than one): each is gated on its own and
   * the one whose answerability clears its threshold by the widest margin decides; its citations name it.
   * Overrides `kb` when given.
   */
  readonly kbs?: readonly string[] | undefined;
  readonly channel: string;
  readonly eventId?: string | undefined;
  readonly userId?: string | undefined;
  readonly conversationRef?: string | undefined;
}
