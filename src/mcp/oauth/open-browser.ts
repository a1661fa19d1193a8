import { spawn } from 'node:child_process';
import { trustedPathEntries } from '../../util/path-entries.js';

/**
 * Asks the desktop to open `url` in the default browser. Resolves false when no opener could be
 * started (no desktop, no `xdg-open`); the caller prints the URL either way.
 */
export function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      // PATH's absolute entries only: a `.` on PATH ran the work tree's own `xdg-open` (with the URL).
      const child = spawn(command, args as string[], {
        stdio: 'ignore',
        detached: true,
        env: { ...process.env, PATH: trustedPathEntries(process.env.PATH) },
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
