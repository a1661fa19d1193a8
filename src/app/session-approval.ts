import type { Config } from '../config/schema.js';
import type { Session } from '../session/session.js';
import { type SessionState, updateSessionState } from '../session/state.js';
import { Approval } from '../toolset/approval/approval.js';
import type { ProjectApprovals } from '../toolset/approval/project-approvals.js';
import { errorText, type WarningSink } from './session-warning.js';

export interface ApprovalModes {
  yolo?: boolean | undefined;
  /** Persisted afk (`--afk`). */
  afk?: boolean | undefined;
  /** Invocation-only afk (print mode). */
  runtimeAfk?: boolean | undefined;
}

/** The root's approval: its state kept in state.json, the project's kept approvals, the modes asked for. */
export function openSessionApproval(parts: {
  session: Session;
  state: SessionState;
  config: Config;
  projectApprovals: ProjectApprovals;
  modes: ApprovalModes;
  warn: WarningSink;
}): Approval {
  const { session, modes } = parts;
  const approval = new Approval({
    projectApprovals: parts.projectApprovals,
    onPersistError: (error) => parts.warn({ kind: 'project-approval-not-saved', message: errorText(error) }),
    state: parts.state.approval,
    onChange: (approvalState) => {
      void updateSessionState(session.stateFile, (s) => ({
        ...s,
        approval: { ...s.approval, ...approvalState },
      }));
    },
  });
  if (modes.yolo || parts.config.default_yolo) approval.setYolo(true);
  if (modes.afk) approval.setAfk(true);
  if (modes.runtimeAfk) approval.setRuntimeAfk(true);
  return approval;
}
