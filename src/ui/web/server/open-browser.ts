import { spawn } from 'node:child_process';
import { trustedPathEntries } from '../../../util/path-entries.js';

/** Opens `url` in the user's browser (xdg-open, open, start); failures are only reported. */
export function openBrowser(url: string, onError: (message: string) => void): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    // PATH's trusted entries only (src/util/path-entries.ts): kimi-ts runs in a stranger's repository, and a `.` on PATH ran its
    // own `xdg-open`, which got the page's address with its access token.
    const child = spawn(command, args as string[], {
      stdio: 'ignore',
      detached: true,
      env: { ...process.env, PATH: trustedPathEntries(process.env.PATH) },
    });
    child.on('error', (error) =>
      onError(`Could not open a browser (${error.message}); open the URL yourself.`),
    );
    child.unref();
  } catch (error) {
    onError(`Could not open a browser (${error instanceof Error ? error.message : String(error)}).`);
  }
}
