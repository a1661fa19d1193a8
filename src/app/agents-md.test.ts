import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS_MD_MAX_BYTES, readAgentsMd } from './agents-md.js';
import { ContextFileGuard } from './context-file-guard.js';

let root: string;
let guard: ContextFileGuard;
let refused: string[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-agents-md-'));
  refused = [];
  const homes = { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') };
  guard = new ContextFileGuard(
    { homes, projectFolders: [join(root, 'repo')], ownFolders: [] },
    (file, reason) => refused.push(`${file}: ${reason}`),
  );
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
    const text = await readAgentsMd(join(root, 'repo', 'pkg', 'app'), guard);
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
    expect(await readAgentsMd(join(root, 'work'), guard.withProjectFolders([join(root, 'work')]))).toBe(
      '<!-- AGENTS.md -->\nwork rules',
    );
    await mkdir(join(root, 'empty'));
    expect(await readAgentsMd(join(root, 'empty'), guard)).toBe('');
  });

  it('gives the 32 KiB to the file nearest the work dir first and cuts an ancestor', async () => {
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await put('repo/AGENTS.md', 'r'.repeat(20_000));
    await put('repo/sub/AGENTS.md', 's'.repeat(30_000));
    const text = await readAgentsMd(join(root, 'repo', 'sub'), guard);
    expect(text).toContain('s'.repeat(30_000));
    const rootPart = text.slice(0, text.indexOf('<!-- AGENTS.md -->'));
    expect(rootPart).toContain('r'.repeat(AGENTS_MD_MAX_BYTES - 30_000));
    expect(rootPart).not.toContain('r'.repeat(AGENTS_MD_MAX_BYTES - 30_000 + 1));
    expect(rootPart).toContain('[truncated: the AGENTS.md files together exceed 32 KiB]');
  });

  it('leaves out, with a warning, an AGENTS.md that leads to a secret file or out of the project', async () => {
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await put('home/.aws/credentials', 'aws_secret_access_key = top-secret');
    await put('elsewhere/notes.md', 'not of this project');
    await put('repo/.env', 'TOKEN=top-secret');
    await mkdir(join(root, 'repo', 'a', '.kimi'), { recursive: true });
    await symlink(join(root, 'home', '.aws', 'credentials'), join(root, 'repo', 'AGENTS.md'));
    await symlink(join(root, 'elsewhere', 'notes.md'), join(root, 'repo', 'a', 'AGENTS.md'));
    await symlink(join(root, 'repo', '.env'), join(root, 'repo', 'a', '.kimi', 'AGENTS.md'));
    await put('repo/a/b/AGENTS.md', 'plain rules');
    expect(await readAgentsMd(join(root, 'repo', 'a', 'b'), guard)).toBe('<!-- AGENTS.md -->\nplain rules');
    expect(refused.join('\n')).not.toContain('top-secret');
    expect(refused.sort()).toEqual([
      expect.stringMatching(
        /^.*repo\/AGENTS\.md: it leads to .*\.aws\/credentials, a secret file \(AWS credentials\)$/,
      ),
      expect.stringMatching(/^.*repo\/a\/\.kimi\/AGENTS\.md: it leads to .*repo\/\.env, a secret file/),
      expect.stringMatching(
        /^.*repo\/a\/AGENTS\.md: it leads to .*elsewhere\/notes\.md, outside the project$/,
      ),
    ]);
  });
});
