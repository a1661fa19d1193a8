import type { FleetWeb } from './fleet/fleet-web.js';
import type { SessionDirectory } from './session-directory.js';
import type { SessionHosts } from './session-hosts.js';

/** What the web server's routes share. */
export interface WebContext {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `--config-file` of the `kimi-ts web` run, if any. */
  configFile?: string | undefined;
  /** `--config` text of the run, if any. */
  inlineConfig?: string | undefined;
  /** The `-w` work dir of the run (default: where it started): the page's first choice. */
  defaultWorkDir: string;
  directory: SessionDirectory;
  hosts: SessionHosts;
  /** `--queue URL`: the sessions listed and streamed are the fleet's, from its Redis. */
  fleet?: FleetWeb | undefined;
}
