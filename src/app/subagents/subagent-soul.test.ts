import { mkdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../kosong/providers/scripted/index.js';
import { DEFAULT_LOOP_CONTROL, type SoulLLM } from '../../soul/soul-parts.js';
import { DEFAULT_AGENT_FILE, loadAgentSpec } from '../agent-spec.js';
import { ContextFileGuard } from '../context-file-guard.js';
import { SubagentInstanceStore } from './instance-store.js';
import { openSubagentSoul } from './subagent-soul.js';
import { loadSubagentTypes } from './subagent-types.js';
import { ScriptedSession } from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

const EXPECTED_TOOLS: Record<string, string[]> = {
  coder: [
    'Shell',
    'ReadFile',
    'ReadMediaFile',
    'Glob',
    'Grep',
    'WriteFile',
    'StrReplaceFile',
    'SearchWeb',
    'FetchURL',
  ],
  explore: ['Shell', 'ReadFile', 'ReadMediaFile', 'Glob', 'Grep', 'SearchWeb', 'FetchURL'],
  plan: ['ReadFile', 'ReadMediaFile', 'Glob', 'Grep', 'SearchWeb', 'FetchURL'],
};

describe('built-in subagent types', () => {
  it('are coder, explore and plan, each with a description and when-to-use text', async () => {
    const types = await loadSubagentTypes((await loadAgentSpec(DEFAULT_AGENT_FILE)).subagents);
    expect(types.map((t) => t.name)).toEqual(['coder', 'explore', 'plan']);
    for (const type of types) {
      expect(type.description.length).toBeGreaterThan(20);
      expect(type.whenToUse.length).toBeGreaterThan(20);
      expect(type.spec.systemPromptArgs.KIMI_ROLE_ADDITIONAL).toContain('running as a subagent');
    }
  });

  async function openType(name: string, llm: SoulLLM | null = null) {
    // A search service makes SearchWeb load, as it does in a configured session.
    fixture = await ScriptedSession.open({
      scripts: [],
      capabilities: ['image_in'],
      config: { services: { moonshot_search: { base_url: 'http://127.0.0.1:9/search', api_key: 'k' } } },
    });
    const types = await loadSubagentTypes((await loadAgentSpec(DEFAULT_AGENT_FILE)).subagents);
    const type = types.find((t) => t.name === name)!;
    const store = new SubagentInstanceStore(`${fixture.sessionDir}/subagents`);
    const paths = store.paths('a0000beef');
    await mkdir(paths.dir, { recursive: true });
    return openSubagentSoul({
      rootSession: fixture.session.parts.session,
      paths,
      type,
      llm,
      loopControl: DEFAULT_LOOP_CONTROL,
      hooks: fixture.session.parts.hooks,
      approval: fixture.session.approval,
      rootDeps: fixture.deps,
      policy: fixture.session.parts.toolset.policy,
      env: {},
      contextFiles: new ContextFileGuard({
        homes: fixture.session.parts.toolset.policy.homes,
        projectFolders: [fixture.session.parts.session.workDir],
        ownFolders: [],
      }),
    });
  }

  it.each(Object.entries(EXPECTED_TOOLS))(
    '%s loads exactly its allowlist, with role subagent',
    async (name, expected) => {
      const opened = await openType(name);
      try {
        expect(opened.soul.parts.toolset.tools.map((tool) => tool.name)).toEqual(expected);
        expect(opened.soul.parts.isRoot).toBe(false);
        expect(opened.soul.parts.systemPrompt).toContain('running as a subagent');
      } finally {
        await opened.close();
      }
    },
  );

  it('loads tools for the model the subagent talks to', async () => {
    const textOnly = {
      provider: new ScriptedProvider([]),
      maxContextSize: 1000,
      capabilities: new Set<string>(),
    };
    const opened = await openType('coder', textOnly);
    try {
      expect(opened.soul.parts.toolset.tools.map((tool) => tool.name)).not.toContain('ReadMediaFile');
    } finally {
      await opened.close();
    }
  });
});
