import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../wire/message.js';
import { CONTINUATION_PROMPT } from './run-until-report.js';
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

function subagentEvents(seen: readonly WireMessage[]) {
  return seen.flatMap((message) => (message.type === 'SubagentEvent' ? [message.payload] : []));
}

describe('Agent tool, foreground', () => {
  it('runs a subagent with its own tools, context and wire, and hands its report to the root', async () => {
    const report = longReport('notes.txt');
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Read the notes',
          prompt: 'Read notes.txt and report.',
          subagent_type: 'explore',
        }),
        callTool('sub-1', 'ReadFile', { path: 'notes.txt' }),
        say(report),
        say('The subagent is done.'),
      ],
    });
    await writeFile(join(fixture.workDir, 'notes.txt'), 'remember the milk\n');

    const { outcome, seen } = await fixture.runTurn('delegate it');

    expect(outcome.finalMessage?.content).toEqual([{ type: 'text', text: 'The subagent is done.' }]);
    const [agentId] = await fixture.subagentIds();
    expect(agentId).toMatch(/^a[0-9a-f]{8}$/);
    const result = toolResultOf(seen, 'root-1');
    expect(result.is_error).toBe(false);
    expect(result.output).toBe(
      `agent_id: ${agentId}\nresumed: false\nactual_subagent_type: explore\nstatus: completed\n\n[summary]\n${report}`,
    );

    // Every merged message of the subagent's run reached the root wire, wrapped.
    const events = subagentEvents(seen);
    expect(events.every((e) => e.agent_id === agentId && e.subagent_type === 'explore')).toBe(true);
    expect(events.every((e) => e.parent_tool_call_id === 'root-1')).toBe(true);
    const types = events.map((e) => e.event.type);
    expect(types[0]).toBe('TurnBegin');
    expect(types.at(-1)).toBe('TurnEnd');
    expect(types).toContain('ToolCall');
    const subResult = events.find((e) => e.event.type === 'ToolResult');
    expect(JSON.stringify(subResult?.event.payload)).toContain('remember the milk');

    // The instance's folder.
    const meta = await fixture.meta(agentId!);
    expect(meta).toMatchObject({
      agent_id: agentId,
      subagent_type: 'explore',
      status: 'idle',
      description: 'Read the notes',
      last_task_id: null,
      launch_spec: {
        agent_id: agentId,
        subagent_type: 'explore',
        model_override: null,
        effective_model: 'main',
      },
    });
    expect(await readFile(fixture.subagentFile(agentId!, 'prompt.txt'), 'utf8')).toBe(
      'Read notes.txt and report.',
    );
    expect(await readFile(fixture.subagentFile(agentId!, 'output'), 'utf8')).toBe(report);
    const context = await fixture.jsonLines(agentId!, 'context.jsonl');
    expect(context[0]?.role).toBe('_system_prompt');
    expect(context[0]?.content).toContain('You are running as a subagent');
    expect(
      context.some((line) => line.role === 'user' && JSON.stringify(line).includes('Read notes.txt')),
    ).toBe(true);
    const wire = await fixture.jsonLines(agentId!, 'wire.jsonl');
    expect(wire[0]).toMatchObject({ type: 'metadata' });
    expect(wire.map((line) => (line.message as { type: string } | undefined)?.type)).toContain('ToolResult');

    // The root's own prompt has no subagent role text and no unfilled placeholder.
    const rootPrompt = fixture.session.context.systemPrompt ?? '';
    expect(rootPrompt).not.toContain('running as a subagent');
    expect(rootPrompt).not.toContain('KIMI_ROLE_ADDITIONAL');
  });

  it('gives a new explorer the git context of the work dir (and a coder none), in a trusted folder', async () => {
    const report = longReport('the repository');
    fixture = await ScriptedSession.open({
      trustWorkspace: true,
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Explore',
          prompt: 'Look around.',
          subagent_type: 'explore',
        }),
        say(report),
        callTool('root-2', 'Agent', { description: 'Code', prompt: 'Change it.', subagent_type: 'coder' }),
        say(report),
        say('Both done.'),
      ],
    });
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: fixture.workDir });
    await fixture.runTurn('go');
    const ids = await fixture.subagentIds();
    const prompts = await Promise.all(
      ids.map((id) => readFile(fixture!.subagentFile(id, 'prompt.txt'), 'utf8')),
    );
    const explorer = prompts.find((p) => p.endsWith('Look around.'));
    expect(explorer).toMatch(/^<git-context>\nBranch: trunk\n[\s\S]*<\/git-context>\n\nLook around\.$/);
    expect(prompts).toContain('Change it.');
  });

  it("in an untrusted folder runs no git there: a repository's core.fsmonitor never runs", async () => {
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'Explore',
          prompt: 'Look around.',
          subagent_type: 'explore',
        }),
        say(longReport('the repository')),
        say('Done.'),
      ],
    });
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: fixture.workDir });
    const marker = join(fixture.root, 'FSMONITOR_RAN');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${marker}; false`], { cwd: fixture.workDir });
    await fixture.runTurn('go');
    const [id] = await fixture.subagentIds();
    expect(await readFile(fixture.subagentFile(id!, 'prompt.txt'), 'utf8')).toBe('Look around.');
    expect(existsSync(marker)).toBe(false);
  });

  it('asks once for a fuller report when the answer is short', async () => {
    const fuller = longReport('the fuller summary');
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('root-1', 'Agent', { description: 'Quick check', prompt: 'Check something.' }),
        say('ok'),
        say(fuller),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const [agentId] = await fixture.subagentIds();
    expect(toolResultOf(seen, 'root-1').output).toContain(`[summary]\n${fuller}`);
    const context = await fixture.jsonLines(agentId!, 'context.jsonl');
    const prompts = context
      .filter((line) => line.role === 'user')
      .map((line) => JSON.stringify(line.content));
    expect(prompts.some((p) => p.includes(CONTINUATION_PROMPT.slice(0, 40)))).toBe(true);
    expect(fixture.provider.remaining).toBe(0);
  });

  it('keeps only one continuation: a second short answer is the report', async () => {
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('root-1', 'Agent', { description: 'Quick check', prompt: 'Check something.' }),
        say('ok'),
        say('still short'),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    expect(toolResultOf(seen, 'root-1').output).toMatch(/\[summary\]\nstill short$/);
    expect(fixture.provider.remaining).toBe(0);
  });

  it('resumes an instance with its context and type', async () => {
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'First part',
          prompt: 'Remember the word BANANA.',
          subagent_type: 'plan',
        }),
        say(longReport('the first part')),
        say('first turn done'),
      ],
    });
    await fixture.runTurn('start');
    const [agentId] = await fixture.subagentIds();
    fixture.provider.push(
      callTool('root-2', 'Agent', {
        description: 'Second part',
        prompt: 'What was the word?',
        subagent_type: 'coder',
        resume: agentId,
      }),
      say(longReport('BANANA')),
      say('second turn done'),
    );
    const { seen } = await fixture.runTurn('continue');

    expect(await fixture.subagentIds()).toEqual([agentId]);
    const output = toolResultOf(seen, 'root-2').output;
    expect(output).toContain(
      `agent_id: ${agentId}\nresumed: true\nrequested_subagent_type: coder\nactual_subagent_type: plan\n`,
    );
    const context = await fixture.jsonLines(agentId!, 'context.jsonl');
    expect(context.filter((line) => line.role === '_system_prompt')).toHaveLength(1);
    const users = context.filter((line) => line.role === 'user').map((line) => JSON.stringify(line.content));
    expect(users[0]).toContain('BANANA');
    expect(users.at(-1)).toContain('What was the word?');
    expect(await fixture.meta(agentId!)).toMatchObject({ status: 'idle', description: 'Second part' });
  });

  it('refuses unknown types, unknown instances and unknown model aliases', async () => {
    fixture = await ScriptedSession.open({
      scripts: [
        callTool('bad-type', 'Agent', { description: 'x', prompt: 'x', subagent_type: 'painter' }),
        callTool('bad-resume', 'Agent', { description: 'x', prompt: 'x', resume: 'a00000000' }),
        callTool('bad-model', 'Agent', { description: 'x', prompt: 'x', model: 'nope' }),
        callTool('bad-timeout', 'Agent', { description: 'x', prompt: 'x', timeout: 29 }),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    expect(toolResultOf(seen, 'bad-type')).toMatchObject({
      is_error: true,
      message: 'Builtin subagent type not found: painter (available: coder, explore, plan).',
    });
    expect(toolResultOf(seen, 'bad-resume')).toMatchObject({
      is_error: true,
      message: 'Agent instance not found: a00000000',
    });
    expect(toolResultOf(seen, 'bad-model')).toMatchObject({
      is_error: true,
      message: 'Unknown model alias: nope',
    });
    expect(toolResultOf(seen, 'bad-timeout').is_error).toBe(true);
    expect(await fixture.subagentIds()).toEqual([]);
  });

  it('maps a subagent that runs out of steps to the max-steps error', async () => {
    fixture = await ScriptedSession.open({
      maxStepsPerTurn: 2,
      scripts: [
        callTool('root-1', 'Agent', { description: 'Loop', prompt: 'Keep going.', subagent_type: 'explore' }),
        callTool('sub-1', 'Glob', { pattern: '*.txt' }),
        callTool('sub-2', 'Glob', { pattern: '*.md' }),
        say('gave up'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const [agentId] = await fixture.subagentIds();
    const result = toolResultOf(seen, 'root-1');
    expect(result).toMatchObject({
      is_error: true,
      message: 'Max steps 2 reached when running agent. Please try splitting the task into smaller subtasks.',
    });
    expect(
      JSON.stringify(seen.find((m) => m.type === 'ToolResult' && m.payload.tool_call_id === 'root-1')),
    ).toContain('Max steps reached');
    expect((await fixture.meta(agentId!)).status).toBe('failed');
  });

  it('maps a failing model to the API error', async () => {
    fixture = await ScriptedSession.open({
      models: { broken: ['error: 400 the request was bad'] },
      scripts: [
        callTool('root-1', 'Agent', { description: 'Broken', prompt: 'x', model: 'broken' }),
        say('done'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const result = toolResultOf(seen, 'root-1');
    expect(result.is_error).toBe(true);
    expect(result.message).toMatch(/^LLM API error \(HTTP 400\) when running agent: /);
    const [agentId] = await fixture.subagentIds();
    expect(await fixture.meta(agentId!)).toMatchObject({
      status: 'failed',
      launch_spec: { model_override: 'broken', effective_model: 'broken' },
    });
  });
});
