/** Notification messages start with this tag; history normalisation never merges them. */
export const NOTIFICATION_TAG = '<notification ';
