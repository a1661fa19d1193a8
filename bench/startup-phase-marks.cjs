// Preloaded (`node -r`) into a print run by bench/startup-phases.mjs: marks, in wall ms since the
// process started and CPU ms (user + system, all threads), when the bundle is read, when its
// vm.Script is made (code cache included) and when the first socket connects (the model request),
// and prints them on stderr at exit. Only for measuring: it wraps vm.Script, fs.readFileSync and
// net.Socket#connect of this one process.
const marks = [];
const mark = (label) => {
  const cpu = process.cpuUsage();
  marks.push(`${label} ${performance.now().toFixed(2)} ${((cpu.user + cpu.system) / 1000).toFixed(2)}`);
};
mark('node-booted');
const vm = require('node:vm');
const fs = require('node:fs');
const net = require('node:net');
const OriginalScript = vm.Script;
vm.Script = class extends OriginalScript {
  constructor(...args) {
    mark('compile-start');
    super(...args);
    mark('compile-end');
  }
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (String(file).endsWith('cli.bundle.cjs')) mark('read-bundle');
  return readFileSync.call(this, file, ...rest);
};
const connect = net.Socket.prototype.connect;
let connected = false;
net.Socket.prototype.connect = function (...args) {
  if (!connected) {
    connected = true;
    mark('first-connect');
  }
  return connect.apply(this, args);
};
process.on('exit', () => process.stderr.write(`${marks.map((m) => `phase ${m}`).join('\n')}\n`));
