import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

const cli = useScriptedCli();

describe("a nested repository's .git is protected like the top one (print mode, --yolo)", () => {
  it('a sandboxed command cannot plant a hook in sub/.git; an edit of sub/.git/config is refused as protected', async () => {
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 's1',
            name: 'Shell',
            args: {
              command:
                "printf '#!/bin/sh\\ntouch pwned\\n' > sub/.git/hooks/post-checkout; chmod +x sub/.git/hooks/post-checkout; echo tried",
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'e1',
            name: 'StrReplaceFile',
            args: {
              path: 'sub/.git/config',
              edit: { old: '[core]', new: '[core]\n\tfsmonitor = touch pwned' },
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    execFileSync('git', ['init', '-q', 'sub'], { cwd: sandbox.workDir });
    const config = await readFile(join(sandbox.workDir, 'sub', '.git', 'config'), 'utf8');
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [shell, edit] = toolResults(result.stdout);
    expect(shell).toContain('tried');
    expect(shell).toContain('Read-only file system');
    expect(existsSync(join(sandbox.workDir, 'sub', '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(edit).toContain("a git repository's metadata");
    expect(await readFile(join(sandbox.workDir, 'sub', '.git', 'config'), 'utf8')).toBe(config);
  });
});
