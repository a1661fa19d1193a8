/**
 * What a tool call would do to the world, with the facts the policy decides on. A tool declares its
 * effects before it runs (`effects()` on the tool definition); the toolset hands them to the policy.
 */

/** A file or directory as the model named it and as it really is (symlinks followed). */
export interface FileTarget {
  /** The path exactly as the model gave it. */
  readonly given: string;
  /** Absolute and normalised, symlinks not followed. */
  readonly absolute: string;
  /** Where it really is: the realpath of the target, or of its nearest existing parent plus the rest. */
  readonly real: string;
  /** `absolute` and `real` differ: some part of the path is a symlink. */
  readonly viaSymlink: boolean;
}

/** How a file is read: its content, searched for text, or its directory listed. */
export type ReadAccess = 'read' | 'search' | 'list';

/** An address a host name resolved to, as the connection will use it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type Effect =
  | { readonly kind: 'read'; readonly target: FileTarget; readonly access: ReadAccess }
  | { readonly kind: 'write'; readonly target: FileTarget }
  | {
      readonly kind: 'exec';
      /** The command line as the shell will run it. */
      readonly command: string;
      readonly cwd: string;
      readonly background: boolean;
      /** The model asked to run it outside the command sandbox, with this reason (a person must agree). */
      readonly leaveSandbox?: { readonly justification: string } | undefined;
    }
  | {
      readonly kind: 'network';
      readonly url: string;
      readonly host: string;
      /** What the host resolved to, once; the request goes to these addresses. Empty for a search service. */
      readonly addresses: readonly ResolvedAddress[];
      readonly purpose: 'fetch' | 'search';
    }
  | {
      /** Something outside this program the user set up (an MCP server, a plugin): trusted as configured, asked per action. */
      readonly kind: 'external';
      readonly action: string;
    };

export type EffectKind = Effect['kind'];
