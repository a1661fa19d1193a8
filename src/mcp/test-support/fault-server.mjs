#!/usr/bin/env node
// An MCP server over stdio, built on the official SDK, with tools that misbehave on purpose:
// one hangs, one kills the server mid-call, one returns 300,000 characters, one returns every kind
// of content block. Run: node fault-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fault-server', version: '1.0.0' });

// A valid 1x1 PNG.
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

server.registerTool(
  'echo_text',
  { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);

server.registerTool('hang', { description: 'Never answers.' }, () => new Promise(() => {}));

server.registerTool('crash', { description: 'Kills the server while the call is running.' }, async () => {
  process.stderr.write('fault-server: crashing on purpose\n');
  setTimeout(() => process.exit(3), 10);
  return new Promise(() => {});
});

server.registerTool(
  'huge',
  {
    description: 'Returns `lines` numbered lines of 100 characters each (default 3000: 300,000 characters).',
    inputSchema: { lines: z.number().int().optional(), single_line: z.boolean().optional() },
  },
  async ({ lines = 3000, single_line = false }) => {
    const rows = [];
    for (let n = 1; n <= lines; n++) {
      const head = `row ${String(n).padStart(5, '0')} `;
      rows.push(head + 'x'.repeat(99 - head.length));
    }
    return { content: [{ type: 'text', text: rows.join(single_line ? ' ' : '\n') }] };
  },
);

server.registerTool('every_block', { description: 'Returns one content block of every kind.' }, async () => ({
  content: [
    { type: 'text', text: 'plain text' },
    { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
    { type: 'audio', data: Buffer.from('RIFF-not-really-wav').toString('base64'), mimeType: 'audio/wav' },
    {
      type: 'resource',
      resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'resource text' },
    },
    {
      type: 'resource',
      resource: {
        uri: 'file:///report.pdf',
        mimeType: 'application/pdf',
        blob: Buffer.from('%PDF').toString('base64'),
      },
    },
    { type: 'resource_link', uri: 'file:///data.csv', name: 'data.csv', mimeType: 'text/csv' },
  ],
}));

server.registerTool(
  'big_image',
  { description: 'Returns a short text and an image larger than the output budget.' },
  async () => ({
    content: [
      { type: 'text', text: 'before the image' },
      { type: 'image', data: 'A'.repeat(120_000), mimeType: 'image/png' },
      { type: 'text', text: 'after the image' },
    ],
  }),
);

server.registerTool('fails', { description: 'Reports an error as its result.' }, async () => ({
  isError: true,
  content: [{ type: 'text', text: 'the thing you asked for does not exist' }],
}));

server.registerTool(
  'read_env',
  { description: 'Returns the value of an environment variable.', inputSchema: { name: z.string() } },
  async ({ name }) => ({ content: [{ type: 'text', text: process.env[name] ?? '(unset)' }] }),
);

server.registerTool('pid', { description: 'Returns the process id of the server.' }, async () => ({
  content: [{ type: 'text', text: String(process.pid) }],
}));

server.registerTool('bad.name', { description: 'A name model APIs refuse.' }, async () => ({ content: [] }));

await server.connect(new StdioServerTransport());
