import { plansDirIn, SessionPlanMode } from '../../tools/plan/plan-mode.js';
import { PlanModeInjection } from '../../tools/plan/plan-mode-injection.js';
import { wireEvent } from '../../wire/events.js';
import { defineExtension } from '../extension.js';

/**
 * Plan mode for a session: the controller (state in state.json, plan files under the kimi-ts home),
 * its reminder injection, and the handlers `/plan`, `--plan` and wire `set_plan_mode` use.
 */
export function planModeExtension(options: { startInPlanMode?: boolean | undefined }) {
  return defineExtension({
    name: 'plan-mode',
    uses: ['state', 'approval', 'home', 'config', 'planModeState', 'toolset'],
    async setup({ state, approval, home, config, planModeState, toolset }) {
      // The fields live in the session's PlanModeState, which the policy read from its construction.
      const planMode = await SessionPlanMode.open({
        state: planModeState,
        plansDir: plansDirIn(home),
        // The root turn's wire, while one runs (plan mode is the root agent's).
        onChange: (active) => toolset.runScope.wire?.send(wireEvent('StatusUpdate', { plan_mode: active })),
      });
      const isNewSession = state.custom_title === null && !state.plan_session_id;
      if (options.startInPlanMode || (config.default_plan_mode && isNewSession))
        await planMode.setFromUser(true);
      return {
        deps: { planMode },
        injections: [new PlanModeInjection(planMode, () => approval.afk || approval.runtimeAfk)],
        planMode: {
          isActive: () => planMode.isActive(),
          planFilePath: () => planMode.planFilePath(),
          set: async (enabled) => {
            await planMode.setFromUser(enabled);
          },
          readPlan: () => planMode.readPlan(),
          clearPlan: () => planMode.clearPlan(),
        },
      };
    },
  });
}
