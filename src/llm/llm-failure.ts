/** Why a model call produced nothing usable: the model could not be reached, or what it said cannot be used. */
export class LlmFailure extends Error {
  constructor(
    readonly code: 'llm_unavailable' | 'invalid_output',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmFailure';
  }
}
