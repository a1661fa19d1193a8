import { z } from 'zod';

/**
 * Where a session's work dir comes from when workers are on other machines: a git remote and a base
 * revision. Both come from whoever can submit (or write to Redis), so both are checked before any
 * git sees them: nothing in them may become an option, a command, or a secret in a job.
 */

/** A full object id (SHA-1 or SHA-256), or a short one of at least 7 hex digits. */
const OBJECT_ID = /^[0-9a-f]{7,64}$/;
/**
 * A ref name safe to hand to git (a subset of git's check-ref-format): letters, digits and `._/-`,
 * no leading `-` or `.`, no `..`, `//`, `@{`, trailing `/` or `.lock`.
 */
const SAFE_REF = /^(?![-./])(?!.*(?:\.\.|\/\/|\/\.|@\{|\.lock$|\/$|\.$))[A-Za-z0-9._/-]{1,200}$/;

export function isSafeRev(rev: string): boolean {
  return OBJECT_ID.test(rev) || SAFE_REF.test(rev);
}

/** `scheme://user:password@…`: a URL that carries a secret. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i;

/** Why `url` cannot be a fleet session's remote, or null when it can. The url is never quoted back. */
export function remoteUrlProblem(url: string): string | null {
  if (url.length === 0 || url.length > 2000) return 'The remote URL is empty or too long.';
  if (url.startsWith('-')) return 'The remote URL may not start with "-".';
  if ([...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return 'The remote URL may not contain control characters.';
  // `<transport>::<address>` runs a remote helper (`ext::` runs any command).
  if (url.includes('::')) return 'The remote URL may not name a transport helper ("::").';
  if (URL_WITH_PASSWORD.test(url))
    return 'The remote URL may not carry credentials: jobs are readable by anyone with the queue; give the workers their own (an SSH key, a credential helper).';
  if (!/^(https?|ssh|git|file):\/\//i.test(url) && !url.startsWith('/') && !/^[\w.-]+@[\w.-]+:/.test(url))
    return 'The remote URL must be https://, ssh://, git://, file://, user@host:path or an absolute path.';
  return null;
}

/** True when git reaches the remote through the file system (its side runs on the worker itself). */
export function isLocalRemote(url: string): boolean {
  return url.startsWith('/') || /^file:\/\//i.test(url);
}

export const repoSourceSchema = z.strictObject({
  url: z.string().refine((url) => remoteUrlProblem(url) === null, 'not an acceptable remote URL'),
  rev: z.string().refine(isSafeRev, 'not a hex object id or a safe ref name'),
});
export type RepoSource = z.infer<typeof repoSourceSchema>;

/** The branch a session's work goes to on the remote. */
export function sessionBranch(sessionId: string): string {
  return `kimi-ts/${sessionId}`;
}
