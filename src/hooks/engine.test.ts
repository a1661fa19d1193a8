import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookConfig, HookConfigInput } from './config.js';
import { hookConfigSchema } from './config.js';
import { createHookEngine, type HookEngineOptions } from './engine.js';
import type { HookEngineEvent } from './events.js';
import { HookSandbox, isProcessGone, killQuietly, waitUntil } from './test-support/hook-sandbox.js';
import type { AskClient, WireHookQuestion } from './wire-subscriptions.js';

let sandbox: HookSandbox;
const strayPids: number[] = [];

beforeEach(async () => {
  sandbox = await HookSandbox.create();
});

afterEach(async () => {
  for (const pid of strayPids.splice(0)) killQuietly(pid);
  await sandbox.dispose();
});

function hooks(...entries: HookConfigInput[]): HookConfig[] {
  return entries.map((entry) => hookConfigSchema.parse(entry));
}

function engineWith(entries: HookConfig[], options: Partial<HookEngineOptions> = {}) {
  const events: HookEngineEvent[] = [];
  const engine = createHookEngine({
    hooks: entries,
    sessionId: 'session-1',
    workDir: sandbox.dir,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { engine, events };
}

async function lines(name: string): Promise<string[]> {
  return (await sandbox.read(name)).split('\n').filter((line) => line !== '');
}

describe('HookEngine.trigger', () => {
  it('skips a command the session refuses, reports why, and runs the others', async () => {
    const refused: string[] = [];
    const { engine } = engineWith(
      hooks(
        { event: 'PreToolUse', command: 'echo refused > refused.txt; exit 2' },
        { event: 'PreToolUse', command: 'echo ran > ran.txt' },
      ),
      {
        refuseCommand: (command) => (command.startsWith('echo refused') ? 'changed since start' : null),
        onCommandRefused: (reason) => refused.push(reason),
      },
    );
    expect(await engine.trigger('PreToolUse', { target: 'Shell', input: {} })).toEqual({
      action: 'allow',
      reason: '',
    });
    expect(refused).toEqual(['changed since start']);
    expect(await lines('ran.txt')).toEqual(['ran']);
    await expect(sandbox.read('refused.txt')).rejects.toThrow();
  });

  it('sends the payload with the engine fields and the trigger input on stdin', async () => {
    const { engine } = engineWith(hooks({ event: 'PreToolUse', command: 'cat > payload.json' }));
    const input = {
      tool_name: 'Shell',
      tool_input: { command: 'ls -la' },
      tool_call_id: 'call-7',
      cwd: '/elsewhere',
    };
    expect(await engine.trigger('PreToolUse', { target: 'Shell', input })).toEqual({
      action: 'allow',
      reason: '',
    });
    expect(JSON.parse(await sandbox.read('payload.json'))).toEqual({
      hook_event_name: 'PreToolUse',
      session_id: 'session-1',
      cwd: sandbox.dir,
      tool_name: 'Shell',
      tool_input: { command: 'ls -la' },
      tool_call_id: 'call-7',
    });
  });

  it('runs only the hooks of the event whose regex is found in the target', async () => {
    const { engine } = engineWith(
      hooks(
        { event: 'PreToolUse', matcher: 'Shell', command: 'echo "shell hook" >&2; exit 2' },
        {
          event: 'PreToolUse',
          matcher: '^(Write|StrReplace)File$',
          command: 'echo "write hook" >&2; exit 2',
        },
        { event: 'PreToolUse', command: 'echo "$PPID" >> every-tool.log' },
        { event: 'PostToolUse', command: 'echo post >> post.log' },
      ),
    );
    const trigger = (target: string) =>
      engine.trigger('PreToolUse', { target, input: { tool_name: target } });
    expect(await trigger('Shell')).toEqual({ action: 'block', reason: 'shell hook' });
    expect(await trigger('BackgroundShell')).toEqual({ action: 'block', reason: 'shell hook' });
    expect(await trigger('StrReplaceFile')).toEqual({ action: 'block', reason: 'write hook' });
    expect(await trigger('ReadFile')).toEqual({ action: 'allow', reason: '' });
    expect(await lines('every-tool.log')).toHaveLength(4);
    await expect(sandbox.read('post.log')).rejects.toThrow();
  });

  it('runs matching hooks in parallel', async () => {
    // Each hook waits at the FIFO until the other has opened its end: run one after the other, the
    // first would time out (and allow) instead of blocking.
    const pipe = sandbox.fifo('rendezvous');
    const { engine } = engineWith(
      hooks(
        { event: 'Stop', command: `echo hello > '${pipe}'; echo "writer done" >&2; exit 2`, timeout: 1 },
        { event: 'Stop', command: `read line < '${pipe}'; echo "reader got $line" >&2; exit 2`, timeout: 1 },
      ),
    );
    expect(await engine.trigger('Stop', { target: '', input: { stop_hook_active: false } })).toEqual({
      action: 'block',
      reason: 'writer done\nreader got hello',
    });
  });

  it('runs an identical command once per trigger', async () => {
    const count = 'echo ran >> runs.log';
    const { engine, events } = engineWith(
      hooks(
        { event: 'PreToolUse', matcher: 'Shell', command: count },
        { event: 'PreToolUse', command: count },
        { event: 'PreToolUse', command: 'echo other >> other.log' },
      ),
    );
    await engine.trigger('PreToolUse', { target: 'Shell', input: {} });
    expect(await lines('runs.log')).toEqual(['ran']);
    await engine.trigger('PreToolUse', { target: 'Shell', input: {} });
    expect(await lines('runs.log')).toEqual(['ran', 'ran']);
    expect(await lines('other.log')).toEqual(['other', 'other']);
    expect(events[0]).toEqual({
      type: 'HookTriggered',
      payload: { event: 'PreToolUse', target: 'Shell', hook_count: 2 },
    });
  });

  it('blocks if any hook blocks, and reports the trigger and its resolution', async () => {
    const { engine, events } = engineWith(
      hooks(
        { event: 'UserPromptSubmit', command: 'echo "no secrets" >&2; exit 2' },
        { event: 'UserPromptSubmit', command: 'exit 0' },
        { event: 'UserPromptSubmit', command: `echo '{"decision":"block","reason":"too long"}'` },
      ),
    );
    const decision = await engine.trigger('UserPromptSubmit', {
      target: 'my key is',
      input: { prompt: 'my key is' },
    });
    expect(decision).toEqual({ action: 'block', reason: 'no secrets\ntoo long' });
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({
      type: 'HookTriggered',
      payload: { event: 'UserPromptSubmit', target: 'my key is', hook_count: 3 },
    });
    expect(events[1]).toMatchObject({
      type: 'HookResolved',
      payload: {
        event: 'UserPromptSubmit',
        target: 'my key is',
        action: 'block',
        reason: 'no secrets\ntoo long',
      },
    });
    const resolved = events[1];
    expect(resolved?.type === 'HookResolved' && Number.isInteger(resolved.payload.duration_ms)).toBe(true);
  });

  it('reports nothing and allows at once when no hook matches', async () => {
    const { engine, events } = engineWith(
      hooks({ event: 'PreToolUse', matcher: '^Shell$', command: 'exit 2' }),
    );
    expect(await engine.trigger('PreToolUse', { target: 'Glob', input: {} })).toEqual({
      action: 'allow',
      reason: '',
    });
    expect(await engine.trigger('Stop', { target: '', input: {} })).toEqual({ action: 'allow', reason: '' });
    expect(events).toEqual([]);
  });

  it('keeps the decision when the event sink throws', async () => {
    const { engine } = engineWith(hooks({ event: 'PreToolUse', command: 'echo nope >&2; exit 2' }), {
      onEvent: () => {
        throw new Error('sink broke');
      },
    });
    expect(await engine.trigger('PreToolUse', { target: 'Shell', input: {} })).toEqual({
      action: 'block',
      reason: 'nope',
    });
  });

  it('allows when the payload cannot be serialised', async () => {
    const { engine } = engineWith(hooks({ event: 'PreToolUse', command: 'exit 2' }));
    expect(await engine.trigger('PreToolUse', { target: 'Shell', input: { size: 1n } })).toEqual({
      action: 'allow',
      reason: '',
    });
  });

  it('allows and kills the hooks when the trigger is aborted', async () => {
    const ready = sandbox.fifo('ready');
    const { engine, events } = engineWith(
      hooks({ event: 'PreCompact', command: `echo $$ > hook.pid; echo up > '${ready}'; exec sleep 300` }),
    );
    const controller = new AbortController();
    const pending = engine.trigger('PreCompact', { target: 'auto', input: {}, signal: controller.signal });
    await readFile(ready, 'utf8');
    controller.abort();
    expect(await pending).toEqual({ action: 'allow', reason: '' });
    const pid = await sandbox.readPid('hook.pid');
    strayPids.push(pid);
    await waitUntil(() => isProcessGone(pid));
    expect(events.map((e) => e.type)).toEqual(['HookTriggered', 'HookResolved']);
  });
});

describe('HookEngine introspection', () => {
  it('knows which events have hooks, configured or subscribed', () => {
    const { engine } = engineWith(
      hooks(
        { event: 'PreToolUse', command: 'a' },
        { event: 'PreToolUse', command: 'b' },
        { event: 'Stop', command: 'c' },
      ),
    );
    expect(engine.hasHooksFor('PreToolUse')).toBe(true);
    expect(engine.hasHooksFor('Notification')).toBe(false);
    expect(engine.configuredCounts()).toEqual({ PreToolUse: 2, Stop: 1 });
    engine.setWireSubscriptions(
      [{ id: 's', event: 'Notification', matcher: '', timeout: 30 }],
      async () => null,
    );
    expect(engine.hasHooksFor('Notification')).toBe(true);
  });

  it('skips a hook whose matcher does not compile instead of failing', async () => {
    const broken = { event: 'PreToolUse', command: 'exit 2', matcher: 'Shell(', timeout: 30 } as const;
    const { engine } = engineWith([broken]);
    expect(engine.hasHooksFor('PreToolUse')).toBe(false);
    expect(await engine.trigger('PreToolUse', { target: 'Shell(', input: {} })).toEqual({
      action: 'allow',
      reason: '',
    });
  });
});

describe('wire-subscribed hooks', () => {
  it('asks the client for matching subscriptions next to the configured hooks', async () => {
    const questions: WireHookQuestion[] = [];
    const askClient: AskClient = async (question) => {
      questions.push(question);
      return { action: 'block', reason: 'client says no' };
    };
    const { engine, events } = engineWith(hooks({ event: 'PreToolUse', command: 'echo ran > ran.txt' }), {
      askClient,
      wireSubscriptions: [
        { id: 'only-shell', event: 'PreToolUse', matcher: '^Shell$', timeout: 5 },
        { id: 'other-event', event: 'Stop', matcher: '', timeout: 5 },
      ],
    });
    const decision = await engine.trigger('PreToolUse', { target: 'Shell', input: { tool_name: 'Shell' } });
    expect(decision).toEqual({ action: 'block', reason: 'client says no' });
    expect(await sandbox.read('ran.txt')).toBe('ran\n');
    expect(questions).toEqual([
      {
        subscription_id: 'only-shell',
        event: 'PreToolUse',
        target: 'Shell',
        input_data: {
          hook_event_name: 'PreToolUse',
          session_id: 'session-1',
          cwd: sandbox.dir,
          tool_name: 'Shell',
        },
      },
    ]);
    expect(events[0]).toMatchObject({ payload: { hook_count: 2 } });
    expect(await engine.trigger('PreToolUse', { target: 'Glob', input: {} })).toEqual({
      action: 'allow',
      reason: '',
    });
    expect(questions).toHaveLength(1);
  });
});

describe('HookEngine.fire and drain', () => {
  it('fires without waiting, and drain waits for the hooks still running', async () => {
    const gate = sandbox.fifo('gate');
    const { engine } = engineWith(
      hooks({ event: 'PostToolUse', command: `read line < '${gate}'; echo "$line" > done.txt; exit 2` }),
    );
    const fired = engine.fire('PostToolUse', { target: 'Shell', input: { tool_output: 'ok' } });
    const draining = engine.drain();
    // Returns once the hook has opened the gate's other end, so the hook is running by now.
    await writeFile(gate, 'released\n');
    await draining;
    expect(await sandbox.read('done.txt')).toBe('released\n');
    expect(await fired).toEqual({ action: 'block', reason: 'Blocked by PostToolUse hook' });
  });

  it('never rejects', async () => {
    const { engine } = engineWith(hooks({ event: 'PostToolUse', command: 'exit 2' }), {
      onEvent: () => {
        throw new Error('sink broke');
      },
    });
    await expect(engine.fire('PostToolUse', { target: 'x', input: { bad: 1n } })).resolves.toEqual({
      action: 'allow',
      reason: '',
    });
    await engine.drain();
  });

  it('kills the fired hooks still running when the drain is cut short', async () => {
    const ready = sandbox.fifo('ready');
    const { engine } = engineWith(
      hooks({ event: 'SessionEnd', command: `echo $$ > hook.pid; echo up > '${ready}'; exec sleep 300` }),
    );
    const fired = engine.fire('SessionEnd', { target: 'exit', input: { reason: 'exit' } });
    await readFile(ready, 'utf8');
    const pid = await sandbox.readPid('hook.pid');
    strayPids.push(pid);
    const controller = new AbortController();
    const draining = engine.drain(controller.signal);
    controller.abort();
    await draining;
    expect(await fired).toEqual({ action: 'allow', reason: '' });
    await waitUntil(() => isProcessGone(pid));
  });
});
