import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionState, updateSessionState } from '../../../session/state.js';
import { type PlanModeStateAccess, plansDirIn, SessionPlanMode } from '../plan-mode.js';
import type { PickIndex } from '../plan-slug.js';

/** A temp session folder with a real state.json and a temp kimi-ts home for plan files. */
export interface PlanFixture {
  dir: string;
  statePath: string;
  plansDir: string;
  /** Plan-mode state read from state.json, as a restarted process would see it. */
  access(): Promise<PlanModeStateAccess>;
  open(options?: { pickIndex?: PickIndex; onChange?: (active: boolean) => void }): Promise<SessionPlanMode>;
  cleanup(): Promise<void>;
}

export async function planFixture(): Promise<PlanFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'kimi-ts-plan-'));
  const statePath = join(dir, 'state.json');
  const plansDir = plansDirIn(join(dir, 'home'));
  const access = async (): Promise<PlanModeStateAccess> => {
    let state = await readSessionState(statePath);
    return {
      read: () => ({
        plan_mode: state.plan_mode,
        plan_session_id: state.plan_session_id,
        plan_slug: state.plan_slug,
      }),
      write: async (fields) => {
        state = await updateSessionState(statePath, (current) => ({ ...current, ...fields }));
      },
    };
  };
  return {
    dir,
    statePath,
    plansDir,
    access,
    open: async (options = {}) => SessionPlanMode.open({ state: await access(), plansDir, ...options }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
