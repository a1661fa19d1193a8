import type { JSONSchema } from '../kosong/tool.js';

/** A tool as the server lists it. */
export interface RemoteTool {
  name: string;
  description?: string | undefined;
  inputSchema: JSONSchema;
  /** The server runs it only as an MCP task (call now, fetch the result later), which is not supported. */
  taskOnly?: boolean | undefined;
}
