import type { SandboxSettings, SandboxState } from './sandbox-types.js';

/** What the front ends show (status line badge, `/status`): null when the person turned it off. */
export interface SandboxStatus extends SandboxSettings {
  readonly state: 'on' | 'unavailable';
  readonly blocksUnixSockets: boolean;
}

export function sandboxStatus(state: SandboxState): SandboxStatus | null {
  switch (state.kind) {
    case 'off':
      return null;
    case 'on':
      return { ...state.sandbox.settings, state: 'on', blocksUnixSockets: state.sandbox.blocksUnixSockets };
    case 'unavailable':
      return { ...state.settings, state: 'unavailable', blocksUnixSockets: false };
  }
}

/** One line for `/status`. */
export function describeSandboxStatus(status: SandboxStatus | null): string {
  if (status === null) return 'off (--sandbox off): commands run unconfined, each one approved as usual';
  if (status.state === 'unavailable')
    return `wanted (${status.mode}) but cannot run here: commands outside a small read-only set are asked every time`;
  const writes =
    status.mode === 'read-only' ? 'nothing writable' : 'workspace and add-dirs writable (not .git, .kimi-ts)';
  const network = status.network ? 'network on' : 'no network';
  const sockets = status.blocksUnixSockets ? ', no UNIX sockets' : '';
  const secrets = status.hideWorkspaceSecrets === false ? '' : ", the workspace's secret files";
  return `on (${status.mode}): ${writes}, ${network}${sockets}, credentials${secrets} and the agent's home hidden`;
}
