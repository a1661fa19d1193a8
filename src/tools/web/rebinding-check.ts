import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { classifyAddress, type ResolvedAddress, resolveHost } from '../../policy/index.js';

/**
 * A host judged public that now resolves to a private address changed its answer between the
 * decision and the fetch (DNS rebinding): refused. fetch() resolves the host once more itself, so
 * this narrows the window to the moment between this lookup and its own.
 */
export async function reboundToPrivate(
  host: string,
  judged: readonly ResolvedAddress[] | undefined,
): Promise<ToolReturnValue | null> {
  if (!judged || judged.length === 0) return null;
  if (!judged.every((a) => classifyAddress(a.address) === 'public')) return null;
  let now: ResolvedAddress[];
  try {
    now = await resolveHost(host);
  } catch {
    return null;
  }
  if (now.every((a) => classifyAddress(a.address) === 'public')) return null;
  return toolError(
    `The host \`${host}\` resolved to public addresses when the fetch was approved and now resolves to ${now.map((a) => a.address).join(', ')}, a private address. The fetch was refused.`,
    'Host changed address',
  );
}
