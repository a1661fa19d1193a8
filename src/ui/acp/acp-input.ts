import type { ContentBlock, McpServer } from '@agentclientprotocol/sdk';
import type { ContentPart } from '../../kosong/message.js';

/**
 * An ACP prompt as the user input of a turn: text as text, images and audio as data URLs, a linked
 * resource as a Markdown link, an embedded resource as its text inside a `<resource>` tag (binary
 * contents are named, not inlined).
 */
export function promptToUserInput(prompt: readonly ContentBlock[]): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push({ type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
        break;
      case 'audio':
        parts.push({ type: 'audio_url', audio_url: { url: `data:${block.mimeType};base64,${block.data}` } });
        break;
      case 'resource_link':
        parts.push({ type: 'text', text: `[${block.name}](${block.uri})` });
        break;
      case 'resource': {
        const { resource } = block;
        const body =
          'text' in resource ? resource.text : `(binary content, ${resource.mimeType ?? 'unknown type'})`;
        parts.push({ type: 'text', text: `<resource uri="${resource.uri}">\n${body}\n</resource>` });
        break;
      }
    }
  }
  return parts;
}

/** The MCP servers an ACP client hands a session, as an `mcpServers` config (the shape of mcp.json). */
export function mcpServersConfig(servers: readonly McpServer[]): string | null {
  if (servers.length === 0) return null;
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    if ('command' in server) {
      entries[server.name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map(({ name, value }) => [name, value])),
      };
    } else {
      entries[server.name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map(({ name, value }) => [name, value])),
        transport: server.type === 'sse' ? 'sse' : 'http',
      };
    }
  }
  return JSON.stringify({ mcpServers: entries });
}
