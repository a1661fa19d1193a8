import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCodeHolds, agentCodeReadOnly } from './sandbox-agent-code.js';
import { sandboxWritable } from './sandbox-protected.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-agent-code-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the agent spec's files and tool code in a writable folder", () => {
  const work = join(root, 'work');
  const agent = join(work, 'agent');
  mkdirSync(join(agent, 'tools'), { recursive: true });
  const spec = join(agent, 'agent.yaml');
  const tool = join(agent, 'tools', 'count.mjs');
  const topSpec = join(work, 'agent.yaml');
  const outside = join(root, 'elsewhere', 'agent.yaml');

  const byFolder = (...files: string[]) => ({ byFolder: files, byFile: [], madeWhenMissing: [] });

  it('held by their folder, or by themselves at the top of a root; the outermost of nested holds; nothing outside the roots', () => {
    expect(agentCodeHolds(byFolder(spec, tool, outside), [work])).toEqual([agent]);
    expect(agentCodeHolds(byFolder(topSpec, tool), [work])).toEqual([topSpec, join(agent, 'tools')]);
    expect(agentCodeHolds(byFolder(work), [work])).toEqual([]);
    expect(agentCodeHolds(byFolder(), [work])).toEqual([]);
  });

  it("a hook's script is held by itself, its folder stays writable", () => {
    const script = join(work, 'scripts', 'format.sh');
    expect(agentCodeHolds({ byFolder: [], byFile: [script, outside], madeWhenMissing: [] }, [work])).toEqual([
      script,
    ]);
    expect(sandboxWritable(script, [work], { byFolder: [], byFile: [script], madeWhenMissing: [] })).toBe(
      false,
    );
    expect(
      sandboxWritable(join(work, 'scripts', 'other.sh'), [work], {
        byFolder: [],
        byFile: [script],
        madeWhenMissing: [],
      }),
    ).toBe(true);
  });

  it('bound read-only where they exist and are no symlink', () => {
    writeFileSync(topSpec, 'version: 1\n');
    symlinkSync(agent, join(work, 'linked'));
    expect(agentCodeReadOnly([agent, topSpec, join(work, 'gone'), join(work, 'linked')])).toEqual([
      '--ro-bind',
      agent,
      agent,
      '--ro-bind',
      topSpec,
      topSpec,
    ]);
  });

  it("the file tools' write check refuses a write into them, and only them", () => {
    expect(sandboxWritable(tool, [work], byFolder(spec, tool))).toBe(false);
    expect(sandboxWritable(join(agent, 'new.mjs'), [work], byFolder(spec))).toBe(false);
    expect(sandboxWritable(topSpec, [work], byFolder(topSpec))).toBe(false);
    expect(sandboxWritable(join(work, 'notes.txt'), [work], byFolder(topSpec, spec))).toBe(true);
    expect(sandboxWritable(tool, [work])).toBe(true);
  });
});
