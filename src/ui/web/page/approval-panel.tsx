import { createContext, type RefObject } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { revealInvisible } from '../../../util/reveal-invisible.js';
import { approvalQueueLine } from '../../common/asking-agent.js';
import { commandPrefix } from '../../common/command-prefix.js';
import { type AnswerGuard, ARM_DELAY_MS, isTypingElsewhere, MODIFIER_KEYS } from './answer-guard.js';
import type { PendingApproval } from './conversation-state.js';
import { DisplayBlockView } from './display-block-view.js';
import { useAnswerGuard } from './use-answer-guard.js';
import type { ApprovalAnswer } from './wire-types.js';

type Stage = 'choose' | 'scope' | 'feedback';

/** The panel's guard, for its choices: a click counts only as AnswerGuard says. */
const GuardContext = createContext<RefObject<AnswerGuard> | null>(null);

/**
 * Keys pressed this soon after the panel appeared are ignored: they were typed before the user could
 * see what they would answer (the terminal UI's rule; type-ahead never answers an approval).
 */
export const APPROVAL_ARM_DELAY_MS = ARM_DELAY_MS;

/**
 * The approval panel, with the terminal UI's choices: approve once; approve for the session — only
 * this exact action, commands starting with a prefix (for shell commands), or every such action —;
 * reject; reject and say what to do instead. Number keys 1–4 pick. Focus moves here when it
 * appears, unless the person is typing in a text field (then a click answers it); only a key or
 * click made for the panel after it was shown and focused counts (see AnswerGuard).
 */
export function ApprovalPanel({
  approval,
  waiting = 1,
  onAnswer,
}: {
  approval: PendingApproval;
  /**
   * How many approvals wait, this one first: the session's one queue (the main agent's and every
   * subagent's requests, in the order they asked).
   */
  waiting?: number;
  onAnswer: (answer: ApprovalAnswer) => void;
}) {
  const { request } = approval;
  const queueLine = approvalQueueLine(request, 1, waiting);
  const [stage, setStage] = useState<Stage>('choose');
  const [feedback, setFeedback] = useState('');
  const command = shellCommand(request.display);
  const [prefix, setPrefix] = useState(() => offeredPrefix(command));
  const [saveRule, setSaveRule] = useState<'' | 'project' | 'user'>('');
  // The scopes were reached from "approve for all agents of this swarm" (a swarm agent's request).
  const [forSwarm, setForSwarm] = useState(false);
  const inSwarm = Boolean(request.swarm_id);
  const panel = useRef<HTMLElement>(null);
  const [armed, setArmed] = useState(false);
  // Before the first focus below (effects run in order). `hasFocus`: when the focus is not in the
  // panel (the person types elsewhere), a click answers.
  const { guard, hasFocus } = useAnswerGuard(panel, request.id);
  const answerable = approval.rpcId !== null;
  const focusChoices = () =>
    panel.current?.querySelector<HTMLElement>('button:not([disabled]), textarea, input')?.focus();

  useEffect(() => {
    setStage('choose');
    setSaveRule('');
    setForSwarm(false);
    setPrefix(offeredPrefix(command));
    setArmed(false);
    // Never take the focus from a field the person is typing in: their next key would answer.
    if (!isTypingElsewhere(document, panel.current)) focusChoices();
    const timer = setTimeout(() => setArmed(true), APPROVAL_ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [request.id]);
  useEffect(() => {
    if (panel.current?.contains(document.activeElement) || !isTypingElsewhere(document, panel.current))
      focusChoices();
  }, [stage, answerable]);

  const answer = (response: ApprovalAnswer['response'], extra: Partial<ApprovalAnswer> = {}) =>
    onAnswer({ request_id: request.id, response, ...extra });
  // An approval for the session may also be kept as a permission rule (the person picks where).
  // For a swarm: that swarm's agents only, until it ends; never kept as a rule.
  const forSession = (extra: Partial<ApprovalAnswer>) =>
    answer(
      'approve_for_session',
      forSwarm ? { ...extra, for_swarm: true } : saveRule ? { ...extra, save_rule: saveRule } : extra,
    );
  const extent = forSwarm ? 'for the agents of this swarm' : 'for this session';

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) {
      if (event.key === 'Escape') {
        event.preventDefault();
        setStage('choose');
      }
      return;
    }
    if (MODIFIER_KEYS.has(event.key)) return;
    const button = panel.current?.querySelector<HTMLButtonElement>(`button[data-key="${event.key}"]`);
    const forPanel = Boolean(button) || PANEL_KEYS.has(event.key);
    if (event.repeat || !guard.current.admitKey(event.key, forPanel)) {
      event.preventDefault();
      return;
    }
    if (button) {
      event.preventDefault();
      button.click();
    } else if (event.key === 'Escape' && stage !== 'choose') {
      event.preventDefault();
      setStage('choose');
    }
  };

  return (
    <GuardContext.Provider value={guard}>
      <section
        ref={panel}
        class="panel approval"
        role="dialog"
        aria-modal="false"
        aria-labelledby={`approval-${request.id}`}
        data-armed={armed ? 'true' : 'false'}
        onKeyDown={onKeyDown}
      >
        {/* Which agent asks (the model's text: shown as text, invisibles as markers) and the count. */}
        {queueLine !== null ? (
          <p class="queue" data-testid="approval-queue">
            {revealInvisible(queueLine)}
          </p>
        ) : null}
        <h3 id={`approval-${request.id}`}>
          <strong>{revealInvisible(request.sender)}</strong> wants to{' '}
          <em>{revealInvisible(request.action)}</em>
        </h3>
        {/* Everything that will run is shown: wrapped in full, blank-looking runs as visible markers. */}
        <p class="description">{revealInvisible(request.description)}</p>
        {request.display.map((block, i) => (
          <DisplayBlockView key={i} block={withInvisibleShown(block)} />
        ))}
        {!answerable ? <p class="notice warn">Waiting for the live connection…</p> : null}
        {!hasFocus ? (
          <p class="notice">You are typing elsewhere: click a choice to answer (keys stay where you type).</p>
        ) : null}
        {stage === 'choose' ? (
          <div class="choices">
            <Choice
              keyName="1"
              label="Approve once"
              disabled={!answerable}
              onPick={() => answer('approve')}
            />
            <Choice
              keyName="2"
              label="Approve for this session…"
              disabled={!answerable}
              onPick={() => {
                setForSwarm(false);
                setStage('scope');
              }}
            />
            <Choice keyName="3" label="Reject" disabled={!answerable} onPick={() => answer('reject')} />
            <Choice
              keyName="4"
              label="Reject, and say what to do instead…"
              disabled={!answerable}
              onPick={() => setStage('feedback')}
            />
            {inSwarm ? (
              <Choice
                keyName="5"
                label="Approve for all agents of this swarm…"
                disabled={!answerable}
                onPick={() => {
                  setForSwarm(true);
                  setStage('scope');
                }}
              />
            ) : null}
          </div>
        ) : null}
        {stage === 'scope' ? (
          <div class="choices">
            <Choice
              keyName="1"
              label={
                command ? `Only \`${revealInvisible(command)}\`, ${extent}` : `Only exactly this, ${extent}`
              }
              onPick={() => forSession({ scope: 'exact' })}
            />
            {command ? (
              <div class="prefix-choice">
                <Choice
                  keyName="2"
                  label="Commands starting with"
                  disabled={!prefix.trim()}
                  onPick={() => forSession({ scope: 'prefix', prefix: prefix.trim() })}
                />
                <input
                  aria-label="command prefix"
                  value={prefix}
                  onInput={(e) => setPrefix((e.target as HTMLInputElement).value)}
                />
              </div>
            ) : null}
            <Choice
              keyName={command ? '3' : '2'}
              label={`Every "${revealInvisible(request.action)}", ${extent}`}
              onPick={() => forSession({ scope: 'action' })}
            />
            {forSwarm ? (
              <p class="hint">
                Only the agents of this swarm, until it ends: not the main agent, not another swarm.
              </p>
            ) : (
              <p class="hint">For this session: every agent of it (subagents, swarms) included.</p>
            )}
            <label class="save-rule" hidden={forSwarm}>
              Also save it as a rule:{' '}
              <select
                aria-label="save as a permission rule"
                value={saveRule}
                onChange={(e) =>
                  setSaveRule((e.target as HTMLSelectElement).value as '' | 'project' | 'user')
                }
              >
                <option value="">no, this session only</option>
                <option value="project">for this project (.kimi-ts/permissions.toml)</option>
                <option value="user">for me, in every project</option>
              </select>
            </label>
            <button type="button" class="link" onClick={() => setStage('choose')}>
              Back (Esc)
            </button>
          </div>
        ) : null}
        {stage === 'feedback' ? (
          <form
            class="feedback"
            onSubmit={(e) => {
              e.preventDefault();
              answer('reject', { feedback: feedback.trim() });
            }}
          >
            <label>
              What should it do instead?
              <textarea
                value={feedback}
                rows={2}
                onInput={(e) => setFeedback((e.target as HTMLTextAreaElement).value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    answer('reject', { feedback: feedback.trim() });
                  }
                }}
              />
            </label>
            <button type="submit">Reject with this reason</button>
          </form>
        ) : null}
      </section>
    </GuardContext.Provider>
  );
}

/** Keys of the panel besides the number keys: activate a choice, move between choices, go back. */
const PANEL_KEYS = new Set(['Enter', ' ', 'Tab', 'Escape']);

function Choice({
  keyName,
  label,
  disabled,
  onPick,
}: {
  keyName: string;
  label: string;
  disabled?: boolean;
  onPick: () => void;
}) {
  const guard = useContext(GuardContext);
  // A click from the pointer (`detail` > 0), or one the browser makes from Enter or Space.
  const onClick = (event: MouseEvent) => {
    if (guard?.current?.admitClick(event.detail > 0) ?? true) onPick();
  };
  return (
    <button type="button" data-key={keyName} disabled={disabled} onClick={onClick}>
      <kbd>{keyName}</kbd> {label}
    </button>
  );
}

/**
 * A shell command or brief block with its invisible and blank-looking runs shown as markers. A diff
 * block is revealed line by line by DiffView itself (its rows keep the file's line numbers).
 */
function withInvisibleShown(block: PendingApproval['request']['display'][number]) {
  if (block.type === 'shell' && typeof block.command === 'string')
    return { ...block, command: revealInvisible(block.command) };
  if (block.type === 'brief' && typeof block.text === 'string')
    return { ...block, text: revealInvisible(block.text) };
  return block;
}

function shellCommand(display: readonly { type: string; [field: string]: unknown }[]): string | null {
  const block = display.find((b) => b.type === 'shell');
  return block && typeof block.command === 'string' ? block.command : null;
}

/** The prefix the input starts with: the one every front end offers (empty when there is none). */
function offeredPrefix(command: string | null): string {
  return command === null ? '' : (commandPrefix(command) ?? '');
}
