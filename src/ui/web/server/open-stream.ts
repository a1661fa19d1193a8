import type { SessionHost } from './session-host.js';
import type { WebContext } from './web-context.js';

/** Why a session's stream cannot be served: an HTTP status, a code, and a reason for a person. */
export interface StreamRefusal {
  status: 404 | 409 | 500 | 503;
  code: 'session_not_found' | 'session_locked' | 'session_unavailable' | 'session_closing';
  message: string;
}

/**
 * The host of the session named by the stream URL's (still encoded) id, opened if needed, or why it
 * cannot be: unknown or invalid id (404), open in another process (409, the session lock), or files
 * that cannot be read (500 with the reason). Both the WebSocket upgrade and a plain GET of the stream
 * URL (how a browser, which never sees a refused upgrade's answer, learns why) go through here.
 */
export async function openStreamHost(
  ctx: WebContext,
  id: string | null,
  purpose: 'connect' | 'probe',
): Promise<{ host: SessionHost } | { refusal: StreamRefusal }> {
  const session = id === null ? null : await ctx.directory.find(id);
  if (session === null)
    return {
      refusal: { status: 404, code: 'session_not_found', message: 'There is no session with this id.' },
    };
  try {
    const host =
      purpose === 'connect'
        ? await ctx.hosts.get(session.workDir, session.id)
        : await ctx.hosts.probe(session.workDir, session.id);
    return { host };
  } catch (error) {
    if (error instanceof Error && error.name === 'ServerClosingError')
      return { refusal: { status: 503, code: 'session_closing', message: error.message } };
    if (error instanceof Error && error.name === 'SessionLockedError') {
      // Held by this very process: its host is closing (the server shuts down, or it went idle just
      // now). That passes: a 503, which a client retries.
      if ((error as Error & { ownerPid?: number }).ownerPid === process.pid)
        return {
          refusal: { status: 503, code: 'session_closing', message: 'The session is closing; try again.' },
        };
      return { refusal: { status: 409, code: 'session_locked', message: error.message } };
    }
    return {
      refusal: {
        status: 500,
        code: 'session_unavailable',
        message: `The session could not be opened: ${reasonOf(error, ctx.home)}`,
      },
    };
  }
}

/**
 * The error's first line, with the kimi-ts home shown as `~kimi-ts` (a path under it names only the
 * session's own files), cut to 300 characters, control characters removed: a reason, never a stack.
 */
export function reasonOf(error: unknown, home: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split('\n')[0] ?? '').split(home).join('~kimi-ts');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = line.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return (clean.length > 300 ? `${clean.slice(0, 300)}…` : clean) || 'unknown error';
}

/** A URL path segment decoded, or null when it is not valid percent-encoding. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
