import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidToolError } from '../toolset/loading/tool-loader.js';
import { AgentSpecError } from './agent-spec.js';
import { createAgentSession } from './create-agent-session.js';

let root: string;
let workDir: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-create-session-'));
  workDir = join(root, 'work');
  home = join(root, 'home');
  await mkdir(workDir);
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const openFiles = async () => (await readdir('/proc/self/fd')).length;

function start(agentFile: string, closed: string[] = []) {
  return createAgentSession({
    workDir,
    home,
    env: { HOME: home },
    inlineConfig: JSON.stringify({
      default_model: 'm',
      providers: { p: { type: '_scripted_echo', env: { KIMI_TS_SCRIPTS: '[]' } } },
      models: { m: { provider: 'p', model: 'm', max_context_size: 100_000 } },
    }),
    agentFile,
    extensions: [
      {
        name: 'closer',
        uses: [],
        async setup() {
          return {
            close: async () => {
              closed.push('closer');
            },
          };
        },
      },
    ],
  });
}

describe.runIf(process.platform === 'linux')('createAgentSession that fails', () => {
  it('leaves no file open when the agent spec cannot be read', async () => {
    const before = await openFiles();
    await expect(start(join(root, 'missing.yaml'))).rejects.toBeInstanceOf(AgentSpecError);
    expect(await openFiles()).toBe(before);
  });

  it('closes what it set up when a tool cannot load', async () => {
    const agentFile = join(root, 'agent.yaml');
    await writeFile(join(root, 'system.md'), 'You help.');
    await writeFile(
      agentFile,
      'version: 1\nagent:\n  name: broken\n  system_prompt_path: ./system.md\n  tools:\n    - "./nowhere.mjs:Nothing"\n',
    );
    const closed: string[] = [];
    const before = await openFiles();
    await expect(start(agentFile, closed)).rejects.toBeInstanceOf(InvalidToolError);
    expect(closed).toEqual(['closer']);
    expect(await openFiles()).toBe(before);
  });
});
