import { join } from 'node:path';
import { DEFAULT_LOOP_CONTROL } from '../../soul/soul-parts.js';
import type { Extension } from '../extension.js';
import { SubagentInstanceStore } from './instance-store.js';
import { RootWireTracker } from './root-wire-tracker.js';
import { SessionSubagentRunner } from './subagent-runner.js';
import { loadSubagentTypes } from './subagent-types.js';

/**
 * Subagents for a session: the types of the agent spec's `subagents:` map, instances kept under
 * `<session>/subagents/<id>/`, and the runner the Agent tool gets as `subagents`.
 */
export function subagentsExtension(): Extension {
  return {
    name: 'subagents',
    async setup(context) {
      const { session, deps, host } = context;
      const rootWires = new RootWireTracker(host.outOfTurn);
      host.addBeforeFirstStep(async () => rootWires.turnStarted());
      deps.subagents = new SessionSubagentRunner({
        session,
        config: context.config,
        types: await loadSubagentTypes(context.agentSpec.subagents),
        store: new SubagentInstanceStore(join(session.dir, 'subagents')),
        rootDeps: deps,
        approval: context.approval,
        hooks: context.hooks,
        currentLLM: context.currentLLM ?? (() => null),
        loopControl: context.loopControl ?? DEFAULT_LOOP_CONTROL,
        llmForAlias: context.llmForAlias ?? (async () => null),
        env: context.env,
        rootWires,
        skills: context.skills,
      });
    },
  };
}
