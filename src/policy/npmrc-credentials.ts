import { secretContentReason } from './secret-content.js';

/**
 * npm's config keys that hold a credential, alone or scoped to a registry (`//host/:_authToken=…`):
 * npm's own list of "nerf-darted" auth keys, and the client certificate's key file.
 */
const CREDENTIAL_KEY =
  /^\s*(?:\/\/[^\s=]*:)?(?:_authToken|_auth|_password|username|email|certfile|keyfile|key|otp)\s*=/i;

/**
 * An `.npmrc` with its credential lines left out (and any other line the secret table flags): what a
 * command sees of a workspace's `.npmrc`, so npm keeps its registry and other settings and never
 * gets the token. `username` and `email` go with the password they pair with.
 */
export function npmrcWithoutCredentials(text: string): string {
  return text
    .split('\n')
    .filter((line) => !CREDENTIAL_KEY.test(line) && secretContentReason(line) === null)
    .join('\n');
}
