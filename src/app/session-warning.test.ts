import { describe, expect, it } from 'vitest';
import { describeSessionWarning, type SessionWarning } from './session-warning.js';

describe('describeSessionWarning', () => {
  const cases: [SessionWarning, string][] = [
    [{ kind: 'skills-unreadable', message: 'EACCES' }, 'Skills could not be loaded: EACCES\n'],
    [
      { kind: 'project-approval-not-saved', message: 'disk full' },
      'Could not save the project approval: disk full\n',
    ],
    [
      {
        kind: 'context-file-refused',
        file: '/w/AGENTS.md',
        reason: 'it leads to /h/.netrc, a secret file (a .netrc file)',
      },
      "/w/AGENTS.md is not read into the model's context: it leads to /h/.netrc, a secret file (a .netrc file).\n",
    ],
    [{ kind: 'background-task-error', message: 'boom' }, 'background tasks: boom\n'],
    [
      { kind: 'background-tasks-stopped', tasks: [{ id: 'b1', description: 'dev server' }] },
      'Stopped 1 background task(s) at exit:\n  b1: dev server\n',
    ],
    [{ kind: 'mcp-server-problem', server: 'fs', message: 'timed out' }, 'MCP server fs: timed out\n'],
    [
      { kind: 'plugin-tool-skipped', plugin: 'p', tool: 'Shell' },
      'Plugin p: tool Shell is not added; a tool of that name exists.\n',
    ],
    [
      {
        kind: 'launcher-not-held',
        starter: 'the MCP server rs',
        tree: '/w',
        why: "`cargo run` builds and runs the project's source (Cargo.toml, build.rs, src/)",
      },
      "the MCP server rs runs outside any sandbox, and `cargo run` builds and runs the project's source (Cargo.toml, build.rs, src/): /w lies in a folder commands may write, and the sandbox cannot hold it read-only (the model works there), so a command could change what it runs. Point it at code outside the workspace when you work on code you do not trust.\n",
    ],
    [
      { kind: 'launcher-file-held', starter: 'the hook `npm run lint`', file: '/w/package.json' },
      '/w/package.json is read-only for commands in the sandbox: the hook `npm run lint` reads it and is run with no sandbox, so no command may change what it runs. A command that writes it (`npm install x` writes package.json) fails; change it yourself, or run that command with the sandbox off.\n',
    ],
    [
      { kind: 'launcher-file-held', starter: 'the hook `make lint`', file: '/w/Makefile' },
      '/w/Makefile is read-only for commands in the sandbox: the hook `make lint` reads it and is run with no sandbox, so no command may change what it runs. A command that writes it fails; change it yourself, or run that command with the sandbox off.\n',
    ],
  ];
  it.each(cases)('%o', (warning, text) => {
    expect(describeSessionWarning(warning)).toBe(text);
  });
});
