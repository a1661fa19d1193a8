export * as kosong from './kosong/index.js';
export { VERSION } from './version.js';
