// A notification on its way into the model's context. Declared here, below both the soul (which
// reads notifications before a step) and the session (whose outbox hands them out), so neither
// imports the other: folders of one floor do not import each other.

/** A notification ready to enter the context: its rendered text plus fields for the Notification hook. */
export interface LLMNotification {
  type: string;
  text: string;
  hookFields: Record<string, unknown>;
}

/** Background-task notifications waiting for the model (root soul only). */
export interface LLMNotificationSource {
  claimForLLM(max: number, signal: AbortSignal): Promise<LLMNotification[]>;
}
