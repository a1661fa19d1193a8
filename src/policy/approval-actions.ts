/** Approval actions (what approve-for-session remembers). The file ones are Kimi CLI's strings. */
export const EDIT_ACTION = 'edit file';
export const EDIT_OUTSIDE_ACTION = 'edit file outside of working directory';
export const READ_OUTSIDE_ACTION = 'read file outside of working directory';
export const SEARCH_WEB_ACTION = 'search the web';

/** FetchURL asks per host: approving for the session covers that host only. */
export function fetchHostAction(host: string): string {
  return `fetch from ${host}`;
}
