/** Whether the person trusts a work dir (its project files may then shape the agent). */
export type FolderTrust = 'trusted' | 'untrusted' | 'unknown';

/**
 * The trust state of `workDir` as the trust record in the agent home keeps it. This build keeps no
 * trust record, so the answer is `unknown`; the record's reader plugs in here.
 */
export async function folderTrust(_home: string, _workDir: string): Promise<FolderTrust> {
  return 'unknown';
}
