import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Api, ModelChoice, SessionSummary } from './api.js';
import { ApprovalPanel } from './approval-panel.js';
import { Composer } from './composer.js';
import type { PendingTrust } from './conversation-state.js';
import { GoalPanel } from './goal-panel.js';
import { ItemsView } from './items-view.js';
import { PlanView } from './plan-view.js';
import { QuestionPanel } from './question-panel.js';
import { ConnectionNotice, SessionActions, TurnMenu } from './session-actions.js';
import { SessionSidebar } from './session-sidebar.js';
import { StatusBar } from './status-bar.js';
import { TrustPanel } from './trust-panel.js';
import { useWireSession } from './use-wire-session.js';
import type { ApprovalAnswer, QuestionAnswers } from './wire-types.js';
import { WorkingIndicator } from './working-indicator.js';

/** The page: sessions on the side, the conversation, the panels that wait for the user, the input. */
export function App({ api }: { api: Api }) {
  const [workDirs, setWorkDirs] = useState<string[]>([]);
  const [workDir, setWorkDir] = useState<string | null>(null);
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(() =>
    new URLSearchParams(location.search).get('session'),
  );
  const [models, setModels] = useState<ModelChoice[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  /** Steers sent and not yet in the conversation (they join it when the running step ends). */
  /** A prompt sent and not yet answered: its turn may have ended (TurnEnd) a moment before the answer. */
  const [promptPending, setPromptPending] = useState(false);
  const [queuedSteers, setQueuedSteers] = useState<{ text: string; accepted: boolean }[]>([]);
  const streamUrl = useMemo(() => (sessionId ? api.streamUrl(sessionId) : null), [api, sessionId]);
  const protocols = useCallback(() => api.streamProtocols(), [api]);
  const diagnose = useCallback(
    () => (sessionId ? api.diagnoseStream(sessionId) : Promise.resolve({ kind: 'ok' as const })),
    [api, sessionId],
  );
  const { state, connection, client, markAnswered, failure, retry, tryAgain } = useWireSession(
    streamUrl,
    protocols,
    diagnose,
  );
  const report = useCallback((e: unknown) => setError(e instanceof Error ? e.message : String(e)), []);

  const refreshSessions = useCallback(
    async (dir: string | null) => {
      const list = await api.listSessions(dir);
      setSessions(list);
      return list;
    },
    [api],
  );

  useEffect(() => {
    (async () => {
      const { dirs, defaultDir } = await api
        .listWorkDirs()
        .catch(() => ({ dirs: [] as string[], defaultDir: null }));
      setWorkDirs(dirs);
      // The folder `web` was started in, not whichever folder had a session last.
      const dir = defaultDir;
      setWorkDir(dir);
      const list = await refreshSessions(dir);
      const requested = new URLSearchParams(location.search).get('session');
      setSessionId((current) => current ?? list[0]?.id ?? null);
      // A session named in the address is shown (or why it cannot be), never replaced by a new one.
      if (list.length === 0 && requested === null) {
        const created = await api.createSession(dir);
        setSessions([created]);
        setSessionId(created.id);
      }
      setModels(await api.listModels().catch(() => []));
    })().catch(report);
  }, [api, refreshSessions, report]);

  useEffect(() => {
    const url = new URL(location.href);
    if (sessionId) url.searchParams.set('session', sessionId);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }, [sessionId]);

  // A finished turn may have given the session its title.
  const turnCount = state.turns.length;
  const busy = state.busy;
  useEffect(() => {
    if (!busy && turnCount > 0) refreshSessions(workDir).catch(() => {});
  }, [busy, turnCount, workDir, refreshSessions]);

  // A session that cannot be served (deleted in another tab, say): the list shows what is left.
  useEffect(() => {
    if (failure !== null) refreshSessions(workDir).catch(() => {});
  }, [failure, workDir, refreshSessions]);

  const forkAt = (turn: number) => {
    if (!sessionId) return;
    api
      .forkSession(sessionId, turn)
      .then(async (fork) => {
        await refreshSessions(workDir);
        setSessionId(fork.id);
      })
      .catch(report);
  };
  const exportCurrent = () => {
    if (!sessionId) return;
    const id = sessionId;
    api
      .exportSession(id)
      .then((blob) => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(blob);
        link.download = `kimi-ts-${id}.md`;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      })
      .catch(report);
  };
  const deleteCurrent = () => {
    if (!sessionId) return;
    api
      .deleteSession(sessionId)
      .then(async () => {
        const left = (await refreshSessions(workDir)).filter((s) => s.id !== sessionId);
        const next = left[0] ?? (await api.createSession(workDir));
        if (left.length === 0) setSessions([next]);
        setSessionId(next.id);
      })
      .catch(report);
  };

  const call = (method: string, params: unknown) => {
    client?.call(method, params).catch(report);
  };
  const sendPrompt = (text: string) => {
    if (!client) return;
    setPromptPending(true);
    client
      .call('prompt', { user_input: text })
      .catch(report)
      .finally(() => setPromptPending(false));
  };
  const steer = (text: string) => {
    setQueuedSteers((list) => [...list, { text, accepted: false }]);
    client
      ?.call('steer', { user_input: text })
      .then(() =>
        setQueuedSteers((list) => list.map((s) => (s.text === text ? { ...s, accepted: true } : s))),
      )
      .catch((e) => {
        setQueuedSteers((list) => list.filter((s) => s.text !== text));
        report(e);
      });
  };
  // A steer leaves the queue when it shows up in the turn, or when the turn is over.
  const lastItems = state.turns.at(-1)?.items;
  useEffect(() => {
    if (!busy) setQueuedSteers([]);
    else if (lastItems)
      setQueuedSteers((list) => {
        const shown = list.filter((q) =>
          lastItems.some((item) => item.kind === 'steer' && item.text === q.text),
        );
        return shown.length === 0 ? list : list.filter((q) => !shown.includes(q));
      });
  }, [busy, lastItems]);
  const answerApproval = (rpcId: string | null, answer: ApprovalAnswer) => {
    if (rpcId && client?.respond(rpcId, answer)) markAnswered(answer.request_id);
  };
  const answerTrust = (pending: PendingTrust, trusted: boolean, remember: boolean) => {
    const answer = { request_id: pending.request.id, trusted, remember };
    if (pending.rpcId && client?.respond(pending.rpcId, answer)) markAnswered(pending.request.id);
  };
  const answerQuestion = (rpcId: string | null, requestId: string, answers: QuestionAnswers) => {
    if (rpcId && client?.respond(rpcId, { request_id: requestId, answers })) markAnswered(requestId);
  };

  const conversation = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = conversation.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 200) el.scrollTop = el.scrollHeight;
  });

  const approval = state.approvals[0] ?? null;
  const question = approval ? null : (state.questions[0] ?? null);

  // Esc cancels the running turn wherever the focus is, unless a panel or a field used the key.
  const waitingForUser = approval !== null || question !== null;
  useEffect(() => {
    if (!busy || waitingForUser) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) client?.call('cancel', {}).catch(() => {});
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, waitingForUser, client]);
  const current = sessions.find((s) => s.id === sessionId);
  const currentModel = models.find((m) => m.current)?.alias ?? '';
  const price = models.find((m) => m.current)?.price ?? null;

  return (
    <div class={`app ${menuOpen ? 'menu-open' : ''}`}>
      <header>
        <button
          type="button"
          class="menu"
          aria-label="sessions"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
        <h1>{current?.title || 'kimi-ts'}</h1>
        {models.length > 0 ? (
          <label class="model">
            <span class="sr-only">Model</span>
            <select
              value={currentModel}
              disabled={busy || connection !== 'open'}
              onChange={(e) => {
                const alias = (e.target as HTMLSelectElement).value;
                setModels(models.map((m) => ({ ...m, current: m.alias === alias })));
                call('prompt', { user_input: `/model ${alias}` });
              }}
            >
              {models.map((m) => (
                <option key={m.alias} value={m.alias}>
                  {m.alias}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {sessionId ? (
          <SessionActions
            title={current?.title || sessionId}
            disabled={busy || failure !== null}
            onExport={exportCurrent}
            onDelete={deleteCurrent}
          />
        ) : null}
      </header>
      <SessionSidebar
        workDirs={workDirs}
        workDir={workDir}
        sessions={sessions}
        currentId={sessionId}
        tasks={state.tasks}
        onWorkDir={(dir) => {
          setWorkDir(dir);
          // The pane shows a session of the folder chosen (its latest), never the last folder's.
          setSessionId(null);
          refreshSessions(dir)
            .then((list) => setSessionId(list[0]?.id ?? null))
            .catch(report);
        }}
        onSwitch={(id) => {
          setSessionId(id);
          setMenuOpen(false);
        }}
        onNew={() => {
          api
            .createSession(workDir)
            .then((created) => {
              setSessions((list) => [created, ...list]);
              setSessionId(created.id);
              setMenuOpen(false);
            })
            .catch(report);
        }}
        onRename={(id, title) => {
          api
            .renameSession(id, title)
            .then(() => refreshSessions(workDir))
            .catch(report);
        }}
      />
      <main ref={conversation} class="conversation" aria-live="polite">
        {error ? (
          <p class="notice warn" role="alert">
            {error}{' '}
            <button type="button" class="link" onClick={() => setError(null)}>
              dismiss
            </button>
          </p>
        ) : null}
        <ConnectionNotice failure={failure} retry={retry} onTryAgain={tryAgain} />
        {state.turns.map((turn, i) => (
          <article key={i} class="turn">
            {turn.userInput && !busy ? <TurnMenu turn={i + 1} onFork={forkAt} /> : null}
            {turn.schedule ? <p class="schedule">{turn.schedule}</p> : null}
            {turn.userInput ? <p class="user">{turn.userInput}</p> : null}
            <ItemsView items={turn.items} />
          </article>
        ))}
        {queuedSteers.map((q, i) => (
          <p key={i} class="steer queued" data-accepted={q.accepted ? 'true' : 'false'}>
            ↪ {q.text} <span class="hint">(queued)</span>
          </p>
        ))}
        {busy ? <WorkingIndicator /> : null}
        {!sessionId && workDir ? (
          <p class="notice info empty-folder">No session in this folder yet: “+ New session” starts one.</p>
        ) : null}
      </main>
      <footer>
        <GoalPanel goal={state.goal} />
        <PlanView
          plan={state.plan}
          planMode={state.status.planMode}
          onToggle={(enabled) => call('set_plan_mode', { enabled })}
        />
        {state.trust ? (
          <TrustPanel
            trust={state.trust}
            onAnswer={(trusted, remember) => state.trust && answerTrust(state.trust, trusted, remember)}
          />
        ) : null}
        {approval ? (
          <ApprovalPanel
            // One panel per entry of the queue: the next entry starts with a guard and an arming of
            // its own, so a key pressed for the one before can never answer it.
            key={approval.request.id}
            approval={approval}
            waiting={state.approvals.length}
            onAnswer={(a) => answerApproval(approval.rpcId, a)}
          />
        ) : null}
        {question ? (
          <QuestionPanel
            question={question}
            onAnswer={(a) => answerQuestion(question.rpcId, question.request.id, a)}
          />
        ) : null}
        <Composer
          busy={busy}
          // Between a turn's end and its prompt's answer a new prompt would be refused: wait (the
          // text stays in the box).
          connected={connection === 'open' && !(promptPending && !busy)}
          onSend={(text) => (busy ? steer(text) : sendPrompt(text))}
          onCancel={() => call('cancel', {})}
        />
        <StatusBar
          status={state.status}
          connection={connection}
          price={price}
          connectionNote={retry ? `retry ${retry.attempt}` : null}
        />
      </footer>
    </div>
  );
}
