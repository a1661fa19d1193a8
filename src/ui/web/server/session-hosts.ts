import type { AgentSession } from '../../../app/agent-session.js';
import { SessionHost } from './session-host.js';

/** Opens a session's AgentSession (taking its lock); rejects with the reason it cannot. */
export type OpenAgentSession = (where: { workDir: string; sessionId?: string }) => Promise<AgentSession>;

/**
 * The sessions this server runs, each once, in this process. A host with no client and no turn is
 * closed after `idleMs` (its lock released, so a terminal can open the session again); a client that
 * comes back within that time finds it still running.
 */
export class SessionHosts {
  private readonly hosts = new Map<string, Promise<SessionHost>>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private closing = false;

  constructor(
    private readonly openSession: OpenAgentSession,
    private readonly idleMs: number,
    /** Per session, how much of its replay log stays in memory (the rest goes to disk). */
    private readonly hostOptions: { replayMemoryBytes?: number | undefined } = {},
  ) {}

  get size(): number {
    return this.hosts.size;
  }

  /** Whether this server has the session open now. */
  has(sessionId: string): boolean {
    return this.hosts.has(sessionId);
  }

  /** The running host of a session, opened on first use. Rejects when the session cannot be opened. */
  get(workDir: string, sessionId: string): Promise<SessionHost> {
    if (this.closing) return Promise.reject(serverClosing());
    this.cancelIdle(sessionId);
    let host = this.hosts.get(sessionId);
    if (host === undefined) {
      host = this.openSession({ workDir, sessionId }).then((session) =>
        SessionHost.open(session, (idle) => this.scheduleIdle(idle), this.hostOptions),
      );
      this.hosts.set(sessionId, host);
      host.catch(() => this.hosts.delete(sessionId));
    }
    return host;
  }

  /**
   * Whether the session can be served (its host opened, as a client's connect would); a host nobody
   * attaches to is idle-closed as usual. Rejects like `get`.
   */
  async probe(workDir: string, sessionId: string): Promise<SessionHost> {
    const host = await this.get(workDir, sessionId);
    if (host.isIdle) this.scheduleIdle(host);
    return host;
  }

  /** Opens a new session in `workDir` and keeps it running (idle-closed like any other). */
  async create(workDir: string): Promise<SessionHost> {
    if (this.closing) throw serverClosing();
    const session = await this.openSession({ workDir });
    const host = await SessionHost.open(session, (idle) => this.scheduleIdle(idle), this.hostOptions);
    this.hosts.set(session.sessionId, Promise.resolve(host));
    this.scheduleIdle(host);
    return host;
  }

  /** Closes the session's host if it is open (cancelling its turn); `farewell` closes its clients so. */
  async close(sessionId: string, farewell?: { code: number; reason: string }): Promise<void> {
    this.cancelIdle(sessionId);
    const host = this.hosts.get(sessionId);
    if (host === undefined) return;
    this.hosts.delete(sessionId);
    await (await host.catch(() => null))?.shutdown(farewell);
  }

  /** Closes every host; nothing opens from then on (the server is shutting down). */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.hosts.keys()].map((id) => this.close(id)));
  }

  private scheduleIdle(host: SessionHost): void {
    const id = host.sessionId;
    if (this.idleTimers.has(id)) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(id);
      if (host.isIdle) void this.close(id);
    }, this.idleMs);
    timer.unref();
    this.idleTimers.set(id, timer);
  }

  private cancelIdle(sessionId: string): void {
    const timer = this.idleTimers.get(sessionId);
    if (timer !== undefined) clearTimeout(timer);
    this.idleTimers.delete(sessionId);
  }
}

/** Why nothing opens while the server shuts down: passing, so clients retry (a 503). */
function serverClosing(): Error {
  const error = new Error('The server is shutting down; try again.');
  error.name = 'ServerClosingError';
  return error;
}
