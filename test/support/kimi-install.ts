import { chmod, cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const repository = resolve(import.meta.dirname, '../..');

/**
 * The built kimi-ts installed in `<work>/node_modules/kimi-ts` as npm would leave it: dist/ and
 * package.json copied, the repository's dependencies linked beside it. With `asDevDependency`, also
 * its bin link (`node_modules/.bin/kimi-ts`, executable) and a project package.json naming it, for
 * `npx kimi-ts`. Returns the install's folder.
 */
export async function installKimiInto(
  work: string,
  options: { asDevDependency?: boolean } = {},
): Promise<string> {
  const modules = join(work, 'node_modules');
  const install = join(modules, 'kimi-ts');
  await mkdir(install, { recursive: true });
  await cp(join(repository, 'dist'), join(install, 'dist'), { recursive: true });
  await cp(join(repository, 'package.json'), join(install, 'package.json'));
  for (const name of await readdir(join(repository, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(repository, 'node_modules', name), join(modules, name));
  if (!options.asDevDependency) return install;
  await mkdir(join(modules, '.bin'));
  await symlink('../kimi-ts/dist/bin/kimi-ts.cjs', join(modules, '.bin', 'kimi-ts'));
  // npm makes a package's bin executable when it installs it.
  await chmod(join(install, 'dist', 'bin', 'kimi-ts.cjs'), 0o755);
  await writeFile(
    join(work, 'package.json'),
    JSON.stringify({ name: 'project', version: '1.0.0', devDependencies: { 'kimi-ts': '*' } }),
  );
  return install;
}
