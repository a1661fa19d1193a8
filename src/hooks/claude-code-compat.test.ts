import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookConfigSchema } from './config.js';
import { createHookEngine } from './engine.js';
import { HookSandbox, shellQuote } from './test-support/hook-sandbox.js';

// Hook scripts written for Claude Code's contract: they read `tool_name` / `tool_input` / `prompt`
// from the JSON on stdin and answer with exit 2 or Claude Code's JSON decisions.

let sandbox: HookSandbox;

beforeEach(async () => {
  sandbox = await HookSandbox.create();
});

afterEach(async () => {
  await sandbox.dispose();
});

function engineFor(event: 'PreToolUse' | 'UserPromptSubmit', command: string, matcher = '') {
  return createHookEngine({
    hooks: [hookConfigSchema.parse({ event, command, matcher })],
    sessionId: 'session-cc',
    workDir: sandbox.dir,
  });
}

const shellCall = (command: string) => ({
  target: 'Shell',
  input: { tool_name: 'Shell', tool_input: { command, timeout: 60 }, tool_call_id: 'call-1' },
});

describe('hooks written for Claude Code', () => {
  it('a node guard that denies `rm -rf` through hookSpecificOutput', async () => {
    const guard = [
      'let raw = "";',
      'process.stdin.on("data", (chunk) => { raw += chunk; });',
      'process.stdin.on("end", () => {',
      '  const input = JSON.parse(raw);',
      '  const command = (input.tool_input && input.tool_input.command) || "";',
      '  if (input.hook_event_name === "PreToolUse" && input.tool_name === "Shell" && /\\brm\\s+-rf\\b/.test(command)) {',
      '    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",',
      '      permissionDecision: "deny", permissionDecisionReason: "Refusing to run: " + command } }));',
      '  }',
      '});',
    ].join('\n');
    const script = await sandbox.script('guard.sh', `exec ${shellQuote(process.execPath)} -e '${guard}'`);
    const engine = engineFor('PreToolUse', script, 'Shell');

    expect(await engine.trigger('PreToolUse', shellCall('rm -rf build'))).toEqual({
      action: 'block',
      reason: 'Refusing to run: rm -rf build',
    });
    expect(await engine.trigger('PreToolUse', shellCall('ls -la'))).toEqual({ action: 'allow', reason: '' });
  });

  it('a grep/sed guard that blocks with exit 2 and a reason on stderr', async () => {
    const script = await sandbox.script(
      'protect-env.sh',
      [
        'input=$(cat)',
        `tool=$(printf '%s' "$input" | sed -n 's/.*"tool_name":"\\([^"]*\\)".*/\\1/p')`,
        `if [ "$tool" = "WriteFile" ] && printf '%s' "$input" | grep -q '"path":"[^"]*\\.env"'; then`,
        '  echo "$tool may not touch .env files" >&2',
        '  exit 2',
        'fi',
        'exit 0',
      ].join('\n'),
    );
    const engine = engineFor('PreToolUse', script, 'WriteFile|StrReplaceFile');
    const write = (path: string) => ({
      target: 'WriteFile',
      input: { tool_name: 'WriteFile', tool_input: { path, content: 'X=1' }, tool_call_id: 'call-2' },
    });

    expect(await engine.trigger('PreToolUse', write('/srv/app/.env'))).toEqual({
      action: 'block',
      reason: 'WriteFile may not touch .env files',
    });
    expect(await engine.trigger('PreToolUse', write('/srv/app/main.ts'))).toEqual({
      action: 'allow',
      reason: '',
    });
  });

  it('a UserPromptSubmit hook that answers decision "block"', async () => {
    const script = await sandbox.script(
      'no-passwords.sh',
      [
        'if grep -qi "password" ; then',
        `  echo '{"decision":"block","reason":"Prompts must not contain passwords"}'`,
        'fi',
      ].join('\n'),
    );
    const engine = engineFor('UserPromptSubmit', script);
    const prompt = (text: string) => ({ target: text, input: { prompt: text } });

    expect(await engine.trigger('UserPromptSubmit', prompt('my Password is hunter2'))).toEqual({
      action: 'block',
      reason: 'Prompts must not contain passwords',
    });
    expect(await engine.trigger('UserPromptSubmit', prompt('refactor the parser'))).toEqual({
      action: 'allow',
      reason: '',
    });
  });
});
