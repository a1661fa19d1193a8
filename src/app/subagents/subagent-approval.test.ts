import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalRequest } from '../../wire/requests.js';
import {
  callTool,
  longReport,
  ScriptedSession,
  say,
  toolResultOf,
} from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

function writeScripts(): string[] {
  return [
    callTool('root-1', 'Agent', { description: 'Write a file', prompt: 'Create out.txt.' }),
    callTool('sub-1', 'WriteFile', { path: 'out.txt', content: 'hello\n' }),
    say(longReport('the file')),
    say('root done'),
  ];
}

describe('a subagent asking for approval', () => {
  it('reaches the root wire once, as it is, and the answer from there lets the tool run', async () => {
    fixture = await ScriptedSession.open({ scripts: writeScripts() });
    const { seen, approvals } = await fixture.runTurn('go');

    expect(approvals).toHaveLength(1);
    const [agentId] = await fixture.subagentIds();
    expect(approvals[0]?.payload).toMatchObject({
      tool_call_id: 'sub-1',
      sender: 'WriteFile',
      action: 'edit file',
      source_kind: 'foreground_turn',
      agent_id: agentId,
      subagent_type: 'coder',
      source_description: 'Write a file',
    });
    expect(seen.filter((m) => m instanceof ApprovalRequest)).toHaveLength(1);
    expect(await readFile(join(fixture.workDir, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(toolResultOf(seen, 'root-1').is_error).toBe(false);
  });

  it('gives the subagent the firmer rejection text and goes on', async () => {
    fixture = await ScriptedSession.open({ scripts: writeScripts() });
    const { seen, outcome } = await fixture.runTurn('go', { answer: () => 'reject' });
    const [agentId] = await fixture.subagentIds();
    const context = await fixture.jsonLines(agentId!, 'context.jsonl');
    const toolMessage = JSON.stringify(context.find((line) => line.role === 'tool'));
    expect(toolMessage).toContain('Do not retry the same call');
    expect(toolResultOf(seen, 'root-1').is_error).toBe(false);
    expect(outcome.stopReason).toBe('no_tool_calls');
    await expect(readFile(join(fixture.workDir, 'out.txt'), 'utf8')).rejects.toThrow();
  });
});

describe('subagent limits and hooks', () => {
  it('refuses to let a subagent launch another subagent', async () => {
    fixture = await ScriptedSession.open({
      agentFile: async (workDir) => {
        const root = join(workDir, 'root.yaml');
        await writeFile(
          root,
          'version: 1\nagent:\n  extend: default\n  subagents:\n    nested:\n      path: ./nested.yaml\n      description: Tries to nest.\n',
        );
        await writeFile(
          join(workDir, 'nested.yaml'),
          'version: 1\nagent:\n  extend: default\n  allowed_tools: [Agent, Glob]\n',
        );
        return root;
      },
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Nest',
          prompt: 'Start another agent.',
          subagent_type: 'nested',
        }),
        callTool('sub-1', 'Agent', { description: 'Inner', prompt: 'x' }),
        say(longReport('nesting')),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const ids = await fixture.subagentIds();
    expect(ids).toHaveLength(1);
    const context = await fixture.jsonLines(ids[0]!, 'context.jsonl');
    expect(JSON.stringify(context.find((line) => line.role === 'tool'))).toContain(
      'Subagents cannot launch other subagents.',
    );
    expect(toolResultOf(seen, 'root-1').is_error).toBe(false);
  });

  it('fires SubagentStart before the run and SubagentStop after it', async () => {
    const hooksDir = await mkdtemp(join(tmpdir(), 'kimi-ts-subagent-hooks-'));
    const start = join(hooksDir, 'start.json');
    const stop = join(hooksDir, 'stop.json');
    const report = longReport('hooks');
    fixture = await ScriptedSession.open({
      config: {
        hooks: [
          { event: 'SubagentStart', matcher: '^explore$', command: `cat > ${start}` },
          { event: 'SubagentStop', matcher: 'explore', command: `cat > ${stop}` },
        ],
      },
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Look',
          prompt: 'Look around.',
          subagent_type: 'explore',
        }),
        say(report),
        say('done'),
      ],
    });
    await fixture.runTurn('go');
    await fixture.session.close(); // drains fire-and-forget hooks
    const started = JSON.parse(await readFile(start, 'utf8')) as Record<string, unknown>;
    const stopped = JSON.parse(await readFile(stop, 'utf8')) as Record<string, unknown>;
    expect(started).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_name: 'explore',
      prompt: 'Look around.',
    });
    expect(stopped).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_name: 'explore',
      response: report,
    });
    await rm(hooksDir, { recursive: true, force: true });
  });
});
