import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentSession } from '../../app/agent-session.js';
import { describeTurnError, MaxStepsReached, RunCancelled } from '../../soul/errors.js';
import type { UILoop } from '../../soul/run-soul.js';
import { VERSION } from '../../version.js';
import type { WireMessage } from '../../wire/message.js';
import type { ApprovalRequest } from '../../wire/requests.js';
import { readWireFile } from '../../wire/wire-file.js';
import { acpAskingAgent } from './acp-asking-agent.js';
import { mcpServersConfig, promptToUserInput } from './acp-input.js';
import { askQuestionsByPermission } from './acp-questions.js';
import { asksToTrust, canAskWorkspaceTrust, settleWorkspaceTrust } from './acp-workspace-trust.js';
import { acpModels } from './model-state.js';
import { configOptionsOf, MODEL_OPTION, modesOf } from './session-settings.js';
import { displayContent, SESSION_MODES, SessionUpdateTranslator, toolKind } from './session-updates.js';
import { terminalShell } from './terminal-shell.js';
import { ToolCallAnnouncements } from './tool-call-announcements.js';

/** What the server needs to start or resume a session for a client. */
export interface AcpSessionRequest {
  /** The absolute working directory the client chose. */
  cwd: string;
  /** MCP servers from the client, as an `mcpServers` config text (null for none). */
  mcpConfig: string | null;
  /** Resume this session (session/load, session/resume) instead of starting one. */
  sessionId?: string | undefined;
  /** More folders the agent may work in (the client's `additionalDirectories`). */
  additionalDirs: string[];
  /** The client trusts the folder for this session (`_meta["kimi-ts/trust_workspace"]`). */
  trustWorkspace?: boolean | undefined;
}

export interface AcpServerOptions {
  input: Readable;
  output: Writable;
  /** The session, or null when `sessionId` names none in `cwd`. */
  openSession(request: AcpSessionRequest): Promise<AgentSession | null>;
  /** Saved sessions, most recent first: of `cwd`, or of every work dir when it is null. */
  listSessions(cwd: string | null): Promise<acp.SessionInfo[]>;
  /** Deletes a saved session from disk; false when there is none with this id. */
  deleteSession(sessionId: string): Promise<boolean>;
}

/**
 * The model's free-form questionnaire (several questions, several answers, answers of one's own)
 * does not fit an editor's permission buttons; the plan-mode tools' short questions do.
 */
const HIDDEN_TOOLS = ['AskUserQuestion'];

const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'approve', name: 'Allow', kind: 'allow_once' },
  { optionId: 'approve_for_session', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

interface ServedSession {
  session: AgentSession;
  turn: AbortController | null;
  stopListening: () => void;
  /** The turn's tool calls the editor has heard of (see ToolCallAnnouncements). */
  announcements: ToolCallAnnouncements;
  /** Settles once the folder's trust is settled (asked of the editor, when it can answer). */
  trustSettled: Promise<void>;
}

/**
 * Serves kimi-ts to an editor over the Agent Client Protocol (v1), one JSON-RPC message per line on
 * the given streams, until the input ends; then every session is closed. Each `session/new` or
 * `session/load` opens an AgentSession in the client's working directory; `session/prompt` runs a
 * turn whose wire messages stream back as `session/update` notifications, with approvals asked
 * through `session/request_permission`; `session/cancel` stops the turn. Returns the exit code.
 */
export async function runAcpServer(options: AcpServerOptions): Promise<number> {
  const sessions = new Map<string, ServedSession>();
  // Permission requests made between prompts end with the connection.
  let connection: acp.AgentConnection | undefined;
  let clientCapabilities: acp.ClientCapabilities = {};

  const open = async (request: AcpSessionRequest, client: acp.AgentContext): Promise<ServedSession> => {
    let session: AgentSession | null;
    // One process owns a session at a time, this one included: a reload closes the served copy first.
    if (request.sessionId !== undefined) await release(request.sessionId);
    try {
      session = await options.openSession(request);
    } catch (error) {
      // A bad config, agent spec or session id: the client shows why.
      throw acp.RequestError.internalError(undefined, error instanceof Error ? error.message : String(error));
    }
    if (session === null) throw acp.RequestError.sessionNotFound(request.sessionId ?? '');
    for (const name of HIDDEN_TOOLS) session.hideTool(name);
    const sessionId = session.sessionId;
    // A background agent may need a permission while no prompt runs: the editor is asked at once.
    const stopListening = session.onOutOfTurn((message) => {
      if (message.type === 'ApprovalRequest')
        void askPermission(message, sessionId, client, connection?.signal);
    });
    const served: ServedSession = {
      session,
      turn: null,
      stopListening,
      announcements: new ToolCallAnnouncements(),
      // After the session/new (or load) answer, so the editor knows the session the request names.
      trustSettled: new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        settleWorkspaceTrust(session, {
          trustedByRequest: request.trustWorkspace === true,
          canAsk: canAskWorkspaceTrust(clientCapabilities),
          client,
        }),
      ),
    };
    // An editor with terminals runs foreground Shell commands in them, where the user sees them live.
    if (clientCapabilities.terminal === true) {
      session.replaceTool('Shell', (shell) =>
        terminalShell(shell, {
          client,
          sessionId,
          workDir: session.workDir,
          announced: (toolCallId, signal) => served.announcements.wait(toolCallId, signal),
        }),
      );
    }
    const previous = sessions.get(sessionId);
    sessions.set(sessionId, served);
    if (previous) {
      previous.stopListening();
      await previous.session.close();
    }
    return served;
  };
  const announceCommands = (served: ServedSession, client: acp.AgentContext): Promise<void> =>
    client.notify(acp.methods.client.session.update, {
      sessionId: served.session.sessionId,
      update: {
        sessionUpdate: 'available_commands_update',
        availableCommands: served.session.slashCommands.map(({ name, description }) => ({
          name,
          description,
        })),
      },
    });
  /** Ends serving a session: its turn is cancelled and it is closed (its files stay). */
  const release = async (sessionId: string): Promise<boolean> => {
    const served = sessions.get(sessionId);
    if (!served) return false;
    sessions.delete(sessionId);
    served.stopListening();
    served.turn?.abort(new RunCancelled('The session was closed by the client.'));
    await served.session.close();
    return true;
  };
  // Kimi CLI's `models` beside ACP's `configOptions`: editors written for either find the model.
  const settings = (session: AgentSession) => ({
    modes: modesOf(session),
    configOptions: configOptionsOf(session),
    ...acpModels(session),
  });
  const find = (sessionId: string): ServedSession => {
    const served = sessions.get(sessionId);
    if (!served) throw acp.RequestError.sessionNotFound(sessionId);
    return served;
  };

  const app = acp
    .agent({ name: 'kimi-ts' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
        },
        authMethods: [],
        agentInfo: { name: 'kimi-ts', version: VERSION },
      };
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const served = await open(
        {
          cwd: params.cwd,
          mcpConfig: mcpServersConfig(params.mcpServers),
          additionalDirs: params.additionalDirectories ?? [],
          trustWorkspace: asksToTrust(params),
        },
        client,
      );
      // After the answer, so the client knows the session id the update names.
      setImmediate(() => void announceCommands(served, client).catch(() => undefined));
      return { sessionId: served.session.sessionId, ...settings(served.session) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const served = await open(
        {
          cwd: params.cwd,
          mcpConfig: mcpServersConfig(params.mcpServers),
          sessionId: params.sessionId,
          additionalDirs: params.additionalDirectories ?? [],
          trustWorkspace: asksToTrust(params),
        },
        client,
      );
      await announceCommands(served, client);
      // The client shows the conversation so far: the recorded wire, replayed as updates.
      const translator = new SessionUpdateTranslator(served.session.workDir, {
        echoUserInput: true,
        planMode: false,
      });
      const { records } = await readWireFile(served.session.wireFile);
      for (const { message } of records) {
        for (const update of translator.translate(message)) {
          await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
        }
      }
      return settings(served.session);
    })
    // Like session/load, without replaying the conversation.
    .onRequest(acp.methods.agent.session.resume, async ({ params, client }) => {
      const served = await open(
        {
          cwd: params.cwd,
          mcpConfig: mcpServersConfig(params.mcpServers ?? []),
          sessionId: params.sessionId,
          additionalDirs: params.additionalDirectories ?? [],
          trustWorkspace: asksToTrust(params),
        },
        client,
      );
      setImmediate(() => void announceCommands(served, client).catch(() => undefined));
      return settings(served.session);
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      if (!(await release(params.sessionId))) throw acp.RequestError.sessionNotFound(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
      await release(params.sessionId);
      if (!(await options.deleteSession(params.sessionId))) {
        throw acp.RequestError.sessionNotFound(params.sessionId);
      }
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      const served = find(params.sessionId);
      if (params.configId !== MODEL_OPTION || typeof params.value !== 'string') {
        throw acp.RequestError.invalidParams(undefined, `Unknown config option "${params.configId}".`);
      }
      try {
        await served.session.switchModel(params.value);
      } catch (error) {
        throw acp.RequestError.invalidParams(
          undefined,
          error instanceof Error ? error.message : String(error),
        );
      }
      return { configOptions: configOptionsOf(served.session) };
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
      const served = find(params.sessionId);
      if (!SESSION_MODES.some((mode) => mode.id === params.modeId)) {
        throw acp.RequestError.invalidParams(undefined, `Unknown mode "${params.modeId}".`);
      }
      await served.session.setPlanMode(params.modeId === 'plan');
      return {};
    })
    .onRequest(acp.methods.agent.session.list, async ({ params }) => ({
      sessions: await options.listSessions(params.cwd ?? null),
    }))
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const served = find(params.sessionId);
      if (served.turn !== null || served.session.isBusy)
        throw acp.RequestError.invalidRequest(undefined, 'A prompt is already running in this session.');
      if (!served.session.hasLLM)
        throw acp.RequestError.internalError(undefined, served.session.llmNotSetMessage);
      const turn = new AbortController();
      served.turn = turn;
      try {
        // The rules of the turn depend on the folder's trust: settle it first.
        await served.trustSettled;
        const ui = turnUpdates(served, params.sessionId, client, turn.signal);
        await served.session.runTurn(promptToUserInput(params.prompt), ui, turn.signal);
        return { stopReason: 'end_turn' as const };
      } catch (error) {
        if (error instanceof RunCancelled || turn.signal.aborted) return { stopReason: 'cancelled' as const };
        if (error instanceof MaxStepsReached) return { stopReason: 'max_turn_requests' as const };
        throw acp.RequestError.internalError(undefined, describeTurnError(error));
      } finally {
        served.turn = null;
        served.announcements.endTurn();
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort(new RunCancelled('Cancelled by the client.'));
    });

  connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(options.output) as WritableStream<Uint8Array>,
      Readable.toWeb(options.input) as ReadableStream<Uint8Array>,
    ),
  );
  await connection.closed;
  for (const { session, turn, stopListening } of sessions.values()) {
    stopListening();
    turn?.abort(new RunCancelled('The ACP client disconnected.'));
    await session.close().catch(() => undefined);
  }
  return 0;
}

/**
 * The UI loop of one turn: raw wire messages become session updates in order; approvals become
 * permission requests and questions become permission requests with a button per choice, answered
 * without holding up the stream; external tools and hook questions cannot be answered by an ACP
 * client and are declined.
 */
function turnUpdates(
  { session, announcements }: ServedSession,
  sessionId: string,
  client: acp.AgentContext,
  signal: AbortSignal,
): UILoop {
  const translator = new SessionUpdateTranslator(session.workDir, { planMode: session.planMode });
  return async (wire) => {
    for await (const batch of wire.subscribe({ merge: false }).batches()) {
      for (const message of batch) await forward(message);
    }
  };
  async function forward(message: WireMessage): Promise<void> {
    if (message.type === 'ApprovalRequest') {
      void askPermission(message, sessionId, client, signal);
      return;
    }
    if (message.type === 'QuestionRequest') {
      void askQuestionsByPermission(message, sessionId, client, signal);
      return;
    }
    if (message.type === 'ToolCallRequest' || message.type === 'HookRequest') {
      message.cancel('The ACP client cannot answer this.');
      return;
    }
    for (const update of translator.translate(message)) {
      await client.notify(acp.methods.client.session.update, { sessionId, update });
    }
    if (message.type === 'ToolCall') announcements.mark(message.payload.id);
  }
}

async function askPermission(
  request: ApprovalRequest,
  sessionId: string,
  client: acp.AgentContext,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { tool_call_id, sender, description, display } = request.payload;
  try {
    const { outcome } = await client.request(
      acp.methods.client.session.requestPermission,
      {
        sessionId,
        toolCall: {
          toolCallId: tool_call_id,
          ...acpAskingAgent(request.payload, description),
          kind: toolKind(sender),
          status: 'pending',
          content: displayContent(display),
        },
        options: PERMISSION_OPTIONS,
      },
      { cancellationSignal: signal },
    );
    if (outcome.outcome === 'selected' && outcome.optionId === 'approve') request.resolve('approve');
    else if (outcome.outcome === 'selected' && outcome.optionId === 'approve_for_session')
      request.resolve('approve_for_session');
    else request.resolve('reject');
  } catch {
    // The client failed to answer or went away: nothing runs without a yes.
    request.resolve('reject');
  }
}
