import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trustedPathEntries, withTrustedPath } from './path-entries.js';
import { registerWritableFolders } from './writable-folders.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-path-entries-')));
  dirs.push(dir);
  return dir;
};

describe('trustedPathEntries', () => {
  it.each([
    ['.:/usr/bin:bin:/bin', '/usr/bin:/bin'],
    ['/usr/bin::/bin', '/usr/bin:/bin'],
    ['/opt/x/bin', '/opt/x/bin'],
  ])('%j keeps %j (relative entries name folders of the current directory)', (path, kept) => {
    expect(trustedPathEntries(path)).toBe(kept);
  });

  it.each([['.'], [''], ['.:bin:'], [undefined]])(
    "%j (nothing absolute) is the shells' default, never empty (empty is the current directory)",
    (path) => {
      expect(trustedPathEntries(path)).toBe('/usr/local/bin:/usr/bin:/bin');
    },
  );

  it("drops an absolute entry inside a work folder (npx puts the project's node_modules/.bin first)", () => {
    const work = tempDir();
    const bin = join(work, 'node_modules', '.bin');
    expect(trustedPathEntries(`${bin}:/usr/bin`, [work])).toBe('/usr/bin');
    expect(trustedPathEntries(`${work}:/usr/bin`, [work])).toBe('/usr/bin');
    // Not inside: a sibling whose name starts the same.
    expect(trustedPathEntries(`${work}-other/bin:/usr/bin`, [work])).toBe(`${work}-other/bin:/usr/bin`);
  });

  it('drops an entry that reaches a work folder through a symlink, and one inside a work folder named through one', () => {
    const root = tempDir();
    const work = join(root, 'work');
    mkdirSync(join(work, 'bin'), { recursive: true });
    symlinkSync(work, join(root, 'link'));
    expect(trustedPathEntries(`${join(root, 'link', 'bin')}:/usr/bin`, [work])).toBe('/usr/bin');
    expect(trustedPathEntries(`${join(work, 'bin')}:/usr/bin`, [join(root, 'link')])).toBe('/usr/bin');
  });

  it('drops an entry that does not exist yet but would lead into a work folder through a symlink', () => {
    // A command in the sandbox writes the work folder: it makes `tools/git`, and the next program
    // kimi-ts runs outside the sandbox (the checkpoints' git) would be it.
    const root = tempDir();
    const work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    symlinkSync(work, join(root, 'link'));
    const entry = join(root, 'link', 'tools', 'bin');
    expect(trustedPathEntries(`${entry}:/usr/bin`, [work])).toBe('/usr/bin');
  });

  it("keeps the person's own folders when the work folder holds their home (kimi-ts run in ~: the sandbox keeps them read-only)", () => {
    const localBin = join(homedir(), '.local', 'bin');
    expect(trustedPathEntries(`${localBin}:/usr/bin`, [homedir()])).toBe(`${localBin}:/usr/bin`);
  });

  it('drops an entry in a writable folder of a home the work folder holds (~/go/bin: a command could plant git there)', () => {
    const home = homedir();
    const entries = [
      join(home, 'go', 'bin'),
      join(home, 'bin'),
      join(home, '.cargo', 'bin'),
      home,
      '/usr/bin',
    ];
    // ~/go is writable in the sandbox then (src/policy/sandbox-home.ts); ~/bin, the dot folders and
    // the home's top are not.
    expect(trustedPathEntries(entries.join(':'), [home])).toBe(entries.slice(1).join(':'));
    expect(trustedPathEntries(entries.join(':'), [dirname(home)])).toBe(entries.slice(1).join(':'));
  });

  it("drops an entry inside a session's add-dir, whatever folder the program runs in (commands may write add-dirs)", () => {
    const root = tempDir();
    const work = join(root, 'work');
    const tools = join(root, 'tools');
    mkdirSync(work);
    mkdirSync(join(tools, 'bin'), { recursive: true });
    const entry = `${join(tools, 'bin')}:/usr/bin`;
    const dirs = [tools];
    const release = registerWritableFolders(() => dirs);
    try {
      // The checkpoints' git of the work dir: only the work dir is named.
      expect(trustedPathEntries(entry, [work])).toBe('/usr/bin');
      // An add-dir added later (/add-dir) counts from then on.
      const other = join(root, 'other');
      mkdirSync(join(other, 'bin'), { recursive: true });
      dirs.push(other);
      expect(trustedPathEntries(`${join(other, 'bin')}:/usr/bin`, [work])).toBe('/usr/bin');
    } finally {
      release();
    }
    expect(trustedPathEntries(entry, [work])).toBe(entry);
  });

  it('withTrustedPath keeps the other variables', () => {
    expect(withTrustedPath({ PATH: '.:/bin', HOME: '/h' })).toEqual({ PATH: '/bin', HOME: '/h' });
  });

  it('drops an entry inside any folder a session can write to (an added dir), until that session ends', () => {
    const added = tempDir();
    const bin = join(added, 'bin');
    mkdirSync(bin);
    const folders = [join(added, 'other')];
    const unregister = registerWritableFolders(() => folders);
    try {
      // Read at each call: a folder added mid-session (`/add-dir`) counts from then on.
      expect(trustedPathEntries(`${bin}:/usr/bin`)).toBe(`${bin}:/usr/bin`);
      folders.push(added);
      expect(trustedPathEntries(`${bin}:/usr/bin`)).toBe('/usr/bin');
      expect(withTrustedPath({ PATH: `${bin}:/bin` }, [])).toEqual({ PATH: '/bin' });
    } finally {
      unregister();
    }
    expect(trustedPathEntries(`${bin}:/usr/bin`)).toBe(`${bin}:/usr/bin`);
  });
});
