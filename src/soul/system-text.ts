/** Wrappers the model recognises as messages from the system rather than the user. */

export const system = (text: string): string => `<system>${text}</system>`;

export const systemReminder = (text: string): string => `<system-reminder>\n${text}\n</system-reminder>`;

/** Notification messages start with this tag; history normalisation never merges them. */
export const NOTIFICATION_TAG = '<notification ';
