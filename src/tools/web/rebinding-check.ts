import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { classifyAddress, type ResolvedAddress } from '../../policy/index.js';

/**
 * The addresses a fetch may connect to: those the policy judged (the connection is pinned to them,
 * so a host that changes its answer afterwards — DNS rebinding — changes nothing). A host that did
 * not resolve when the policy judged it was decided by name alone: it is resolved now and used only
 * if every address is public, since no decision covered a private one.
 */
export async function addressesToConnect(
  host: string,
  judged: readonly ResolvedAddress[] | undefined,
  resolve: (host: string) => Promise<ResolvedAddress[]>,
): Promise<readonly ResolvedAddress[] | ToolReturnValue> {
  if (judged && judged.length > 0) return judged;
  let now: ResolvedAddress[];
  try {
    now = await resolve(host);
  } catch (error) {
    return toolError(
      `Failed to fetch URL: ${error instanceof Error ? error.message : String(error)}.`,
      'Network error',
    );
  }
  if (now.length === 0)
    return toolError(`Failed to fetch URL: the host \`${host}\` has no address.`, 'Network error');
  if (now.every((a) => classifyAddress(a.address) === 'public')) return now;
  return toolError(
    `The host \`${host}\` could not be resolved when the fetch was decided and now resolves to ${now.map((a) => a.address).join(', ')}, a private address. The fetch was refused.`,
    'Host changed address',
  );
}
