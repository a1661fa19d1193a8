import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS_MD_MAX_BYTES, readAgentsMd } from './agents-md.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-agents-md-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

describe('readAgentsMd', () => {
  it('gathers the AGENTS.md files from the git project root down to the work dir, each with its source', async () => {
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await put('AGENTS.md', 'outside the project: never read');
    await put('repo/AGENTS.md', 'root rules');
    await put('repo/pkg/.kimi/AGENTS.md', 'kimi rules for pkg');
    await put('repo/pkg/agents.md', 'lowercase pkg rules');
    await put('repo/pkg/app/AGENTS.md', 'app rules');
    await put('repo/pkg/app/agents.md', 'not read: AGENTS.md comes first');
    await put('repo/other/AGENTS.md', 'a sibling: not on the way');
    const text = await readAgentsMd(join(root, 'repo', 'pkg', 'app'));
    expect(text).toBe(
      [
        `<!-- ${join(root, 'repo', 'AGENTS.md')} -->\nroot rules`,
        `<!-- ${join(root, 'repo', 'pkg', '.kimi', 'AGENTS.md')} -->\nkimi rules for pkg`,
        `<!-- ${join(root, 'repo', 'pkg', 'agents.md')} -->\nlowercase pkg rules`,
        '<!-- AGENTS.md -->\napp rules',
      ].join('\n\n'),
    );
  });

  it('reads only the work dir outside git, and nothing when there is none', async () => {
    await put('AGENTS.md', 'parent, not a project');
    await put('work/AGENTS.md', 'work rules');
    expect(await readAgentsMd(join(root, 'work'))).toBe('<!-- AGENTS.md -->\nwork rules');
    await mkdir(join(root, 'empty'));
    expect(await readAgentsMd(join(root, 'empty'))).toBe('');
  });

  it('gives the 32 KiB to the file nearest the work dir first and cuts an ancestor', async () => {
    await mkdir(join(root, '.git'));
    await put('AGENTS.md', 'r'.repeat(20_000));
    await put('sub/AGENTS.md', 's'.repeat(30_000));
    const text = await readAgentsMd(join(root, 'sub'));
    expect(text).toContain('s'.repeat(30_000));
    const rootPart = text.slice(0, text.indexOf('<!-- AGENTS.md -->'));
    expect(rootPart).toContain('r'.repeat(AGENTS_MD_MAX_BYTES - 30_000));
    expect(rootPart).not.toContain('r'.repeat(AGENTS_MD_MAX_BYTES - 30_000 + 1));
    expect(rootPart).toContain('[truncated: the AGENTS.md files together exceed 32 KiB]');
  });
});
